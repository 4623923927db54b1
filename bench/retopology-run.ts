// One retopology as the engine's retopology sessions run it, in a process of its own: the input file read,
// retopologised to a face budget, and the OBJ folder (OBJ, MTL, textures) and preview written to OUT_DIR.
// Prints the result's figures as one JSON line. The child of bench/retopology.ts, timed there, which runs
// it bundled as the app ships the engine (no top-level await: the bundle is CommonJS) and from the sources.
// Run: node bench/retopology-run.ts INPUT OUT_DIR FACES quads|triangles
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeRetopologyFiles } from '../main/engine/retopology/make-files.ts';
import { readInputMesh } from '../main/engine/retopology/read-input.ts';

async function main(): Promise<void> {
  const [input, out, faces, mode] = process.argv.slice(2);
  if (input === undefined || out === undefined || !(Number(faces) >= 1) || (mode !== 'quads' && mode !== 'triangles')) {
    process.stderr.write('usage: node bench/retopology-run.ts INPUT OUT_DIR FACES quads|triangles\n');
    process.exit(2);
  }
  const made = await makeRetopologyFiles(await readInputMesh(input), {
    faces: Number(faces),
    quads: mode === 'quads',
    name: 'mesh',
    imageSize: 512,
  });
  await mkdir(out, { recursive: true });
  await Promise.all([
    ...made.folder.map((f) => writeFile(join(out, f.file), f.bytes)),
    writeFile(join(out, 'preview.png'), made.image),
  ]);
  process.stdout.write(`${JSON.stringify(made.stats)}\n`);
}

void main();
