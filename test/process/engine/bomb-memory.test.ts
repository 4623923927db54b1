// Issue #26 item 6: decompression bombs cost a bounded amount of memory. A child process reads a PNG bomb
// (20000×20000 declared, 600 MiB of zeros deflated), a GIF whose frame declares 30000×30000, a GLB with the PNG
// bomb as its texture, an FBX whose compressed array declares 150 million doubles, and a zip entry inflating
// 200 MiB while declaring 1 KiB, and (issue #33) FBX bombs behind a `Z` property, the big-endian flag and nesting
// deeper than 64, as the engine reads them; its peak resident memory (maxRSS) must grow by less
// than 256 MiB over what it had before reading them (a bound on behaviour, not on time).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const CHILD = new URL('./bomb-child.ts', import.meta.url).pathname;
const MiB = 2 ** 20;
const dir = mkdtempSync(join(tmpdir(), 'asset-studio-bombs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('reading every bomb adds less than 256 MiB to the peak memory, and each is refused naming its limit', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [CHILD, dir], {
    maxBuffer: 16 * MiB,
    timeout: 120_000,
  });
  const report = JSON.parse(stdout) as {
    baseRssBytes: number;
    maxRssBytes: number;
    pngBytes: number;
    answers: Record<string, string>;
  };
  expect(report.pngBytes).toBeLessThan(2 * MiB);
  expect(report.answers.png).toMatch(/^refused: .*declares 20000×20000 pixels, more than the 64 megapixels/);
  expect(report.answers.gif).toMatch(/^refused: .*frame 1 declares 30000×30000 pixels, more than the 64 megapixels/);
  expect(report.answers.gifInput).toMatch(/^refused: .*frame 1 declares 30000×30000 pixels/);
  expect(report.answers.glbInput).toMatch(/^refused: .*texture \(image 0\).*more than the 64 megapixels/);
  expect(report.answers.fbx).toMatch(/more than the 256 MiB of arrays in all/);
  // Issue #33 item 3: the bombs the check did not follow before are refused as well, nothing inflated.
  expect(report.answers.fbxZ).toMatch(/declares an array of 150000000 elements .*more than the 256 MiB/);
  expect(report.answers.fbxBigEndian).toMatch(/declares an array of 150000000 elements .*more than the 256 MiB/);
  expect(report.answers.fbxDeep).toMatch(/its nodes are nested more than 64 deep/);
  expect(report.answers.zipPalette).toBe('read: []'); // the lying entry cut at 1 KiB: no picture in it
  // Building the bombs reads zero pages only (the runtime's own peak is about 110 MB), so the base is no cover.
  expect(report.baseRssBytes).toBeLessThan(256 * MiB);
  const grown = report.maxRssBytes - report.baseRssBytes;
  expect(grown, `peak grew by ${Math.round(grown / MiB)} MiB`).toBeLessThan(256 * MiB);
});
