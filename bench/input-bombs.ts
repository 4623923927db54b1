// Issue #26 item 6: how much peak memory decompression bombs cost the engine's input reading, against real
// inputs of the same kinds read the same way, in the same run. Each side runs in a child process of its own and
// reports its peak resident memory (maxRSS) before and after its reads:
//   bombs: test/process/engine/bomb-child.ts (a PNG declaring 20000×20000 with 600 MiB of zeros deflated, a GIF
//          frame declaring 30000×30000, a GLB with that PNG as texture, an FBX whose compressed array declares 150
//          million doubles, a zip entry inflating 200 MiB while declaring 1 KiB);
//   real:  this file with --real: chair.png decoded, fox.jpg and Fox.glb checked as inputs, Male_Casual.fbx judged
//          as an upload, a zip of the three real pictures read for a style palette.
// Goal: ≤ 256 MiB extra per input at any size.  Run: node bench/input-bombs.ts [--rounds 3]
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { realFixture } from '../test/fixtures.ts';

const MiB = 2 ** 20;
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, real: { type: 'string' } } });

if (values.real !== undefined) {
  // The child reading real inputs (its folder is values.real).
  const [{ judgeUpload }, { checkInput }, { paletteOfZip }, { decodeImage }, { buildZip }] = await Promise.all([
    import('../main/engine/character/judge.ts'),
    import('../main/engine/input-check.ts'),
    import('../main/engine/picture/palette.ts'),
    import('../main/images/decode-image.ts'),
    import('../main/formats/zip.ts'),
  ]);
  const pictures = ['chair.png', 'fox.jpg', 'robot.png'].map((n) => ({
    name: n,
    data: readFileSync(realFixture('images', n)),
  }));
  const zip = join(values.real, 'pictures.zip');
  writeFileSync(zip, buildZip(pictures));
  const chair = pictures[0]!.data;
  globalThis.gc?.();
  const baseRssBytes = process.resourceUsage().maxRSS * 1024;
  decodeImage(chair);
  await checkInput(realFixture('images', 'fox.jpg'), 'image', 2 ** 30);
  await checkInput(realFixture('glb', 'Fox.glb'), 'mesh', 2 ** 30);
  await judgeUpload(realFixture('fbx', 'Male_Casual.fbx'), 'fbx');
  paletteOfZip(zip);
  process.stdout.write(JSON.stringify({ baseRssBytes, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
  process.exit(0);
}

const run = promisify(execFile);
/** Peak resident memory of the child before its reads and after them, MiB. */
const peaks = async (args: string[]): Promise<{ base: number; max: number }> => {
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * MiB, timeout: 300_000 });
  const r = JSON.parse(stdout) as { baseRssBytes: number; maxRssBytes: number };
  return { base: r.baseRssBytes / MiB, max: r.maxRssBytes / MiB };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rounds = Number(values.rounds);
const bombs: { base: number; max: number }[] = [];
const real: { base: number; max: number }[] = [];
for (let i = 0; i < rounds; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bombs-'));
  try {
    // Alternate which side goes first.
    const sides = [
      async () =>
        bombs.push(await peaks([join(import.meta.dirname, '..', 'test', 'process', 'engine', 'bomb-child.ts'), dir])),
      async () => real.push(await peaks([import.meta.filename, '--real', dir])),
    ];
    for (const side of i % 2 === 0 ? sides : sides.reverse()) await side();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const fmt = (xs: { base: number; max: number }[]) => {
  const grown = xs.map((x) => x.max - x.base);
  return `grew ${median(grown).toFixed(1)} MiB (runs: ${grown.map((g) => g.toFixed(1)).join(', ')}), peak before ${median(xs.map((x) => x.base)).toFixed(0)} MiB, after ${median(xs.map((x) => x.max)).toFixed(0)} MiB`;
};
console.log(`${rounds} rounds; peak resident memory of a child reading the inputs as the engine does, medians`);
console.log(`real inputs (chair.png, fox.jpg, Fox.glb, Male_Casual.fbx, zip of 3 pictures): ${fmt(real)}`);
console.log(`eight decompression bombs (PNG, GIF, GLB texture, 4 FBX arrays, zip entry)  : ${fmt(bombs)}`);
console.log('goal: <= 256 MiB extra per input (here: all eight bombs together, in one process)');
