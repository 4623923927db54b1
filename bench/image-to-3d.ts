// Image-to-3D of a 1024×1024 picture: the engine CPU to make every output file a finished session offers
// (GLB, OBJ with its MTL and textures, the OBJ zip, FBX, USDZ), through the engine's own output builder
// (makeArtifact, as the file store calls it on first download), from the picture's bytes.
// Baseline in the same run: the same request through the engine's previous output path, the seeded mesh
// (a shape from a seed, not from the picture) at the same face count and texture.
// The pictures: chair.png (cut out, PNG) and fox.jpg (on a backdrop, JPEG) of ../shared/fixtures/real/images,
// enlarged to 1024×1024. CPU is this process's user + system time (process.cpuUsage); the session's clock
// (`--engine-speed`) only decides when the session says complete, and is not part of the figure.
// Usage: node bench/image-to-3d.ts [--rounds N]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import jpeg from 'jpeg-js';
import {
  companionsOf,
  makeArtifact,
  objInFolder,
  output,
  pictureObjInFolder,
  type Output,
} from '../main/engine/artifacts.ts';
import { decodeImage, type RgbaImage } from '../main/images/decode-image.ts';
import type { PictureMesh } from '../main/engine/generate/mesh-options.ts';
import { encodePng } from '../main/formats/png.ts';
import type { MeshOptions } from '../main/engine/outputs/mesh.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
const IMAGES = resolve(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'real', 'images');
const SIZE = 1024;
const FACES = 20_000; // high_poly, the default resolution
const TEXTURES = ['none', 'baked', 'pbr'] as const;

/** A fixture enlarged to SIZE × SIZE (bilinear), as PNG or JPEG bytes. */
function enlarged(name: string, format: 'png' | 'jpeg'): Buffer {
  const image = decodeImage(readFileSync(resolve(IMAGES, name)));
  const data = new Uint8Array(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const fx = Math.min(image.width - 1, Math.max(0, ((x + 0.5) * image.width) / SIZE - 0.5));
      const fy = Math.min(image.height - 1, Math.max(0, ((y + 0.5) * image.height) / SIZE - 0.5));
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const x1 = Math.min(image.width - 1, x0 + 1);
      const y1 = Math.min(image.height - 1, y0 + 1);
      for (let k = 0; k < 4; k++) {
        const at = (px: number, py: number) => image.data[(py * image.width + px) * 4 + k]!;
        const top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * (fx - x0);
        const bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * (fx - x0);
        data[(y * SIZE + x) * 4 + k] = Math.round(top + (bottom - top) * (fy - y0));
      }
    }
  }
  const big: RgbaImage = { width: SIZE, height: SIZE, data };
  return format === 'png'
    ? encodePng(SIZE, SIZE, big.data)
    : jpeg.encode({ width: SIZE, height: SIZE, data: Buffer.from(big.data) }, 90).data;
}

/** Every file of a finished current-form session, companions of the OBJ included. */
function sessionFiles(main: Output[]): Output[] {
  return main.flatMap((file) => [file, ...companionsOf(file)]);
}

function pictureFiles(key: string, texture: (typeof TEXTURES)[number]): Output[] {
  const model: PictureMesh = {
    picture: key,
    faces: FACES,
    quads: false,
    texture,
    scale: [-1, -1, -1],
    preserveAspectRatio: false,
    pivot: [0, 0, 0],
  };
  return sessionFiles([
    output('bench', 'mesh', { type: 'picture-glb', model }),
    pictureObjInFolder('bench', 'mesh', model),
    output('bench', 'mesh', { type: 'picture-obj-zip', model, folder: 'bench' }),
    output('bench', 'mesh', { type: 'picture-fbx', model }),
    output('bench', 'mesh', { type: 'picture-usdz', model }),
  ]);
}

function seededFiles(seed: string, texture: (typeof TEXTURES)[number]): Output[] {
  const mesh: MeshOptions = {
    seed,
    quads: false,
    targetFaces: FACES,
    scale: [-1, -1, -1],
    preserveAspectRatio: false,
    pivot: [0, 0, 0],
  };
  return sessionFiles([
    output('bench', 'mesh', { type: 'glb', mesh, texture: texture !== 'none' }),
    objInFolder('bench', 'mesh', mesh, true),
    output('bench', 'mesh', { type: 'obj-zip', mesh, folder: 'bench' }),
    output('bench', 'mesh', { type: 'fbx', mesh }),
    output('bench', 'mesh', { type: 'usdz', mesh }),
  ]);
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU to build every file, and to build the GLB alone first (it holds the model's whole making). */
function measure(files: Output[], read: (key: string) => Buffer): { glb: number; all: number } {
  const start = cpuMs();
  makeArtifact(files[0]!.recipe, read);
  const glb = cpuMs() - start;
  for (const file of files.slice(1)) makeArtifact(file.recipe, read);
  return { glb, all: cpuMs() - start };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const pictures = [
  { name: 'chair.png', format: 'png' as const, label: 'chair.png enlarged, PNG with alpha' },
  { name: 'fox.jpg', format: 'jpeg' as const, label: 'fox.jpg enlarged, JPEG on a backdrop' },
];
console.log(
  `${rounds} alternating rounds per case, ${SIZE}×${SIZE} picture, ${FACES} faces (high_poly), triangles; CPU ms, medians`,
);
let worst = 0;
for (const picture of pictures) {
  const bytes = enlarged(picture.name, picture.format);
  const read = () => bytes;
  for (const texture of TEXTURES) {
    const fresh: { glb: number; all: number }[] = [];
    const seeded: { glb: number; all: number }[] = [];
    for (let round = 0; round < rounds + 1; round++) {
      // A new key each round: the model is made again (the engine keeps the last few models in memory).
      const a = measure(pictureFiles(`bench/${picture.name}/${texture}/${round}`, texture), read);
      const b = measure(seededFiles(`bench-${round}`, texture), read);
      if (round === 0) continue; // warm-up
      fresh.push(a);
      seeded.push(b);
    }
    const all = median(fresh.map((m) => m.all));
    worst = Math.max(worst, all);
    console.log(
      `${picture.label.padEnd(38)} texture ${texture.padEnd(5)}: from the picture ${all.toFixed(0).padStart(5)} ms ` +
        `(GLB first: ${median(fresh.map((m) => m.glb)).toFixed(0)} ms) | seeded baseline ${median(
          seeded.map((m) => m.all),
        )
          .toFixed(0)
          .padStart(5)} ms ` +
        `(GLB ${median(seeded.map((m) => m.glb)).toFixed(0)} ms)`,
    );
  }
}
console.log(
  `worst case, all files of one session from the picture: ${(worst / 1000).toFixed(2)} s of CPU (goal: under 2 s)`,
);
