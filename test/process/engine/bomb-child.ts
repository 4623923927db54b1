// Run by bomb-memory.test.ts in a child process: reads each decompression bomb the way the engine does and
// prints its peak memory before and after, with what each read answered, as JSON. The bombs are built without
// holding what they inflate to (bombs.ts deflatedZeros), so the "before" is the runtime's.
//   node test/process/engine/bomb-child.ts <folder>
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeUpload } from '../../../main/engine/character/judge.ts';
import { checkInput } from '../../../main/engine/input-check.ts';
import { paletteOfZip } from '../../../main/engine/picture/palette.ts';
import { decodeImage } from '../../../main/images/decode-image.ts';
import {
  binaryFbx,
  fbxArray,
  fbxBomb,
  fbxProp,
  gifBomb,
  glbWithTexture,
  nestedFbxNodes,
  pngBomb,
  zipOf,
} from '../../engine/bombs.ts';

const folder = process.argv[2]!;
const MiB = 2 ** 20;
// A 20000×20000 PNG (1.5 GiB of RGBA) whose data is 600 MiB of zeros deflated (about 600 KiB): inflated and
// decoded whole it takes GBs; refused from its header it takes nothing.
const png = pngBomb(20_000, 20_000, 600 * MiB);
const files = {
  gif: gifBomb(),
  glb: glbWithTexture(png),
  fbx: fbxBomb(150_000_000, 4 * MiB),
  // Issue #33 item 3: what the array check did not follow (a `Z` property before the array, the big-endian flag,
  // nesting deeper than 64) and answered "fine" for.
  fbxZ: binaryFbx([{ name: 'Vertices', props: [fbxProp('Z', Buffer.from([1])), fbxArray('d', 150_000_000, 4 * MiB)] }]),
  fbxBigEndian: binaryFbx([{ name: 'Vertices', props: [fbxArray('d', 150_000_000, 4 * MiB, true)] }], {
    bigEndian: true,
  }),
  fbxDeep: binaryFbx([nestedFbxNodes(80, { name: 'Vertices', props: [fbxArray('d', 150_000_000, 4 * MiB)] })]),
  zip: zipOf([{ name: 'lie.png', data: Buffer.alloc(0), zeros: 200 * MiB, declaredSize: 1024 }]),
};
for (const [name, bytes] of Object.entries(files)) writeFileSync(join(folder, `bomb.${name}`), bytes);
const path = (name: string) => join(folder, `bomb.${name}`);
const outcome = async (read: () => unknown): Promise<string> => {
  try {
    return `read: ${JSON.stringify(await read())}`;
  } catch (error) {
    return `refused: ${error instanceof Error ? error.message : String(error)}`;
  }
};

globalThis.gc?.();
const baseRssBytes = process.resourceUsage().maxRSS * 1024;
const answers = {
  png: await outcome(() => decodeImage(png).width),
  gif: await outcome(() => decodeImage(files.gif).width),
  gifInput: await outcome(() => checkInput(path('gif'), 'image', 2 ** 30)),
  glbInput: await outcome(() => checkInput(path('glb'), 'mesh', 2 ** 30)),
  fbx: await outcome(() => judgeUpload(path('fbx'), 'fbx')),
  fbxZ: await outcome(() => judgeUpload(path('fbxZ'), 'fbx')),
  fbxBigEndian: await outcome(() => judgeUpload(path('fbxBigEndian'), 'fbx')),
  fbxDeep: await outcome(() => judgeUpload(path('fbxDeep'), 'fbx')),
  zipPalette: await outcome(() => paletteOfZip(path('zip'))),
};
process.stdout.write(
  JSON.stringify({ baseRssBytes, maxRssBytes: process.resourceUsage().maxRSS * 1024, pngBytes: png.length, answers }),
);
