// The CLI's progress while it waits: the percentages and steps the service reports on the way, not "queued"
// then a jump to 100%. Run as a user runs it (a child process), its progress lines read from standard error.
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

const CHAIR = new URL('../../../shared/fixtures/real/images/chair.png', import.meta.url).pathname;

/** The percentages of the progress lines of standard error (one line per change when it is not a terminal). */
function percents(stderr: string): number[] {
  return stderr.split('\n').flatMap((line) => {
    const m = /\]\s+(\d+)%/.exec(line);
    return m ? [Number(m[1])] : [];
  });
}

describe('asset-studio create-3d --wait: progress', () => {
  it('shows the percentages the engine reports on the way, rising, then 100%', async () => {
    // Speed 5: the job takes about 12 s, the first read is due after 5.4 s; the bars are read every 0.36 s.
    const result = await runCli(
      ['create-3d', CHAIR, '--wait', '--engine-speed', '5'],
      cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() }),
    );
    expect(result.code, result.stderr).toBe(0);
    const seen = percents(result.stderr);
    const between = [...new Set(seen.filter((p) => p > 0 && p < 100))];
    // Before: 60% then 99% at most (a read at the predicted end). Now many steps on the way.
    expect(between.length, result.stderr).toBeGreaterThanOrEqual(4);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
    expect(result.stderr).toMatch(/running\s+\[#*-*\]\s+\d+%\s+processing/);
  });
});
