import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { TIERS } from './test/tiers.ts';

// Time limits are caps for a hung test, never a measure of speed: the suite must pass on a loaded 2-core
// machine (a CPU hog beside it), where one CLI run or Chromium page can take ten times its usual time.
//
// One project per tier (test/tiers.ts says which folder holds which): `npm test` runs them all in one pool,
// `npm run test:fast|process|e2e|dcc` one of them (vitest --project NAME). A test's tier is where it lives.
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One worker per core (vitest's default leaves one core free: a single worker on this 2-core machine). Most
    // of the suite waits on Chromium, child processes and the engine's clock, so two workers nearly halve it.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: TIERS.map((tier) => ({
      extends: true,
      test: {
        name: tier.name,
        include: tier.include,
        exclude: tier.exclude,
        isolate: tier.isolate,
        ...(tier.globalSetup && { globalSetup: tier.globalSetup }),
        ...(tier.timeoutMs && { testTimeout: tier.timeoutMs, hookTimeout: tier.timeoutMs }),
      },
    })),
  },
});
