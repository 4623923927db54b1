import { defineConfig } from 'vitest/config';

// Time limits are caps for a hung test, never a measure of speed: the suite must pass on a loaded 2-core
// machine (a CPU hog beside it), where one CLI run or Chromium page can take ten times its usual time.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
