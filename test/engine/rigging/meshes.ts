// Meshes for the rigging tests: a character with its skeleton and skin dropped (written back as FBX with the
// project's static FBX writer, as a modeller exports a mesh it never rigged), and shapes made of boxes (a
// mannequin whose hands hang beside its thighs, a chair, a figure lying down, a ball).
import { readFileSync } from 'node:fs';
import type { CharacterModel } from '../../../main/formats/character.ts';
import { writeFbx } from '../../../main/formats/fbx.ts';
import { readFbxCharacter } from '../../../main/formats/fbx-read.ts';
import { realFixture } from '../../fixtures.ts';

/** A rigged character's mesh with its skin and bones dropped, as read. */
export async function unriggedModel(file = 'Male_Casual.fbx'): Promise<CharacterModel> {
  const model = await readFbxCharacter(readFileSync(realFixture('fbx', file)), file);
  const count = model.positions.length / 3;
  return {
    ...model,
    bones: [],
    joints: new Array(count * 4).fill(0),
    weights: Array.from({ length: count * 4 }, (_, i) => (i % 4 === 0 ? 1 : 0)),
  };
}

/** The same mesh as an FBX file with no skeleton and no skin (main/formats/fbx.ts, one geometry). */
export function unriggedFbx(model: CharacterModel): Buffer {
  const indices = model.parts.flatMap((p) => p.indices);
  const main = model.parts.reduce((a, b) => (b.indices.length > a.indices.length ? b : a));
  return writeFbx(
    {
      positions: Float32Array.from(model.positions),
      normals: Float32Array.from(model.normals),
      uvs: new Float32Array((model.positions.length / 3) * 2),
      polygonVertexIndex: Int32Array.from(indices, (v, k) => (k % 3 === 2 ? ~v : v)),
      material: { color: main.color },
    },
    'a modelling tool',
  );
}

type Box = [x0: number, y0: number, z0: number, x1: number, y1: number, z1: number];

/** Closed boxes, each face a grid of `n`×`n` quads (two triangles each), as one mesh with no skeleton. */
export function boxes(list: Box[], n = 6): CharacterModel {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  for (const [x0, y0, z0, x1, y1, z1] of list) {
    const lo = [x0, y0, z0];
    const hi = [x1, y1, z1];
    for (let axis = 0; axis < 3; axis++)
      for (const side of [0, 1]) {
        const u = (axis + 1) % 3;
        const w = (axis + 2) % 3;
        const base = positions.length / 3;
        for (let i = 0; i <= n; i++)
          for (let j = 0; j <= n; j++) {
            const p = [0, 0, 0];
            p[axis] = side ? hi[axis]! : lo[axis]!;
            p[u] = lo[u]! + ((hi[u]! - lo[u]!) * i) / n;
            p[w] = lo[w]! + ((hi[w]! - lo[w]!) * j) / n;
            positions.push(...p);
            const nrm = [0, 0, 0];
            nrm[axis] = side ? 1 : -1;
            normals.push(...nrm);
          }
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++) {
            const a = base + i * (n + 1) + j;
            const b = a + n + 1;
            if (side) indices.push(a, b, a + 1, a + 1, b, b + 1);
            else indices.push(a, a + 1, b, a + 1, b + 1, b);
          }
      }
  }
  const count = positions.length / 3;
  return {
    source: 'boxes',
    bones: [],
    positions,
    normals,
    joints: new Array(count * 4).fill(0),
    weights: Array.from({ length: count * 4 }, (_, i) => (i % 4 === 0 ? 1 : 0)),
    parts: [{ name: 'body', color: [0.6, 0.6, 0.6], indices }],
  };
}

/** The mannequin's hands: the bottom of each arm, hanging beside a thigh (y 0.72–0.86). */
export const HAND_BELOW = 0.86;
/** The thighs: the legs' top part, beside which the hands hang. */
export const THIGH = { from: 0.6, to: 0.84 };

/** A 1.75 m mannequin facing +Z, arms hanging down beside its body, each hand 4 cm from its thigh. */
export const MANNEQUIN: Box[] = [
  [0.03, 0, -0.07, 0.15, 0.9, 0.07], // left leg
  [-0.15, 0, -0.07, -0.03, 0.9, 0.07], // right leg
  [0.03, 0, 0.07, 0.15, 0.05, 0.2], // left foot, toes forward
  [-0.15, 0, 0.07, -0.03, 0.05, 0.2],
  [-0.18, 0.86, -0.1, 0.18, 1.45, 0.1], // torso
  [-0.05, 1.44, -0.05, 0.05, 1.53, 0.05], // neck
  [-0.1, 1.52, -0.1, 0.1, 1.75, 0.1], // head
  [0.17, 1.33, -0.05, 0.3, 1.45, 0.05], // left shoulder
  [0.22, 0.72, -0.05, 0.3, 1.4, 0.05], // left arm, hanging
  [-0.3, 1.33, -0.05, -0.17, 1.45, 0.05],
  [-0.3, 0.72, -0.05, -0.22, 1.4, 0.05],
];

/** A chair: four legs, a seat and a back. */
export const CHAIR: Box[] = [
  [-0.22, 0, -0.22, -0.18, 0.45, -0.18],
  [0.18, 0, -0.22, 0.22, 0.45, -0.18],
  [-0.22, 0, 0.18, -0.18, 0.45, 0.22],
  [0.18, 0, 0.18, 0.22, 0.45, 0.22],
  [-0.24, 0.45, -0.24, 0.24, 0.5, 0.24],
  [-0.24, 0.5, -0.24, 0.24, 0.95, -0.2],
];
