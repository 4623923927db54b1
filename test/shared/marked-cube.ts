// A cube whose six faces have their own colours (glTF's frame: +Z front red, -Z back blue, +X the model's left
// green, -X its right yellow, +Y top magenta, -Y bottom cyan), written as a GLB, and what a picture of it
// shows: which faces, how much of each, where. The viewer's e2e test and the thumbnails' test read their
// pictures with it, so both check the same front.
import { Document, NodeIO } from '@gltf-transform/core';

export type Face = 'red' | 'blue' | 'green' | 'yellow' | 'magenta' | 'cyan';

/** The faces: their colour, and the outward axis and sign (glTF's frame). */
export const FACES: readonly { face: Face; axis: 0 | 1 | 2; sign: 1 | -1; rgb: [number, number, number] }[] = [
  { face: 'red', axis: 2, sign: 1, rgb: [1, 0, 0] }, // front
  { face: 'blue', axis: 2, sign: -1, rgb: [0, 0, 1] }, // back
  { face: 'green', axis: 0, sign: 1, rgb: [0, 1, 0] }, // the model's left
  { face: 'yellow', axis: 0, sign: -1, rgb: [1, 1, 0] }, // the model's right
  { face: 'magenta', axis: 1, sign: 1, rgb: [1, 0, 1] }, // top
  { face: 'cyan', axis: 1, sign: -1, rgb: [0, 1, 1] }, // bottom
];

/** A 1 m cube standing on the ground, one primitive and material a face (emissive: its colour whatever the light). */
export async function markedCube(path: string): Promise<void> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh('cube');
  for (const { face, axis, sign, rgb } of FACES) {
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    const corners: number[] = [];
    for (const [a, b] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ] as const) {
      const p = [0, 0, 0];
      p[axis] = sign * 0.5;
      p[u] = a * 0.5;
      p[v] = b * 0.5;
      p[1]! += 0.5;
      corners.push(...p);
    }
    // Counter-clockwise seen from outside: u × v = axis, so flip the order for the negative side.
    const indices = sign > 0 ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2];
    const normal = [0, 0, 0];
    normal[axis] = sign;
    const material = doc
      .createMaterial(face)
      .setBaseColorFactor([...rgb, 1])
      .setEmissiveFactor(rgb)
      .setMetallicFactor(0)
      .setRoughnessFactor(1);
    const prim = doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc.createAccessor().setType('VEC3').setArray(new Float32Array(corners)).setBuffer(buffer),
      )
      .setAttribute(
        'NORMAL',
        doc
          .createAccessor()
          .setType('VEC3')
          .setArray(new Float32Array([...normal, ...normal, ...normal, ...normal]))
          .setBuffer(buffer),
      )
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(indices)).setBuffer(buffer))
      .setMaterial(material);
    mesh.addPrimitive(prim);
  }
  doc.createScene('scene').addChild(doc.createNode('cube').setMesh(mesh));
  await new NodeIO().write(path, doc);
}

/**
 * Which face's colour a pixel has, whatever its shading: each channel is on (above 70% of the brightest) or off
 * (below 35%); a dark pixel (the viewer's background), a grey or white one (grid, thumbnail background) is none.
 */
export function faceOf(r: number, g: number, b: number): Face | undefined {
  const m = Math.max(r, g, b);
  if (m < 60) return undefined;
  const on = (x: number) => x > 0.7 * m;
  const off = (x: number) => x < 0.35 * m;
  if (on(r) && off(g) && off(b)) return 'red';
  if (off(r) && on(g) && off(b)) return 'green';
  if (off(r) && off(g) && on(b)) return 'blue';
  if (on(r) && on(g) && off(b)) return 'yellow';
  if (on(r) && off(g) && on(b)) return 'magenta';
  if (off(r) && on(g) && on(b)) return 'cyan';
  return undefined;
}

/** Each face's share of a picture's pixels and the mean x of its pixels (0 left … 1 right). */
export interface Seen {
  share: Record<Face, number>;
  x: Record<Face, number>;
}

/** What a picture of `width` pixels a row shows of the cube: `rgb` holds `step` values a pixel (R, G, B first). */
export function facesSeen(rgb: ArrayLike<number>, width: number, step = 3): Seen {
  const count = {} as Record<Face, number>;
  const sumX = {} as Record<Face, number>;
  for (const { face } of FACES) count[face] = sumX[face] = 0;
  const pixels = rgb.length / step;
  for (let i = 0; i < pixels; i++) {
    const face = faceOf(rgb[i * step]!, rgb[i * step + 1]!, rgb[i * step + 2]!);
    if (!face) continue;
    count[face]++;
    sumX[face] += (i % width) / (width - 1);
  }
  const share = {} as Record<Face, number>;
  const x = {} as Record<Face, number>;
  for (const { face } of FACES) {
    share[face] = count[face] / pixels;
    x[face] = count[face] ? sumX[face] / count[face] : Number.NaN;
  }
  return { share, x };
}

/** The faces that cover at least 0.5% of the picture, largest first. */
export const visibleFaces = (s: Seen): Face[] =>
  (Object.keys(s.share) as Face[]).filter((f) => s.share[f] > 0.005).sort((a, b) => s.share[b] - s.share[a]);
