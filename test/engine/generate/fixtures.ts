// The real pictures of ../shared/fixtures/real/images, decoded once per test file, and small checks on meshes.
import { readFileSync } from 'node:fs';
import { decodeImage, type RgbaImage } from '../../../main/images/decode-image.ts';
import type { PictureMesh } from '../../../main/engine/generate/mesh-options.ts';
import type { PolygonMesh } from '../../../main/engine/outputs/polygon-mesh.ts';
import { realFixture } from '../../fixtures.ts';

export const PICTURES = ['chair.png', 'robot.png', 'fox.jpg'] as const;
export type Picture = (typeof PICTURES)[number];

const decoded = new Map<string, RgbaImage>();

/** The mesh options of a model from a picture: 2 000 triangles, a baked texture, with `over` on top. */
export const pictureSpec = (over: Partial<PictureMesh> = {}): PictureMesh => ({
  picture: 'unused',
  faces: 2_000,
  quads: false,
  texture: 'baked',
  ...over,
});

export function pictureBytes(name: Picture): Buffer {
  return readFileSync(realFixture('images', name));
}

export function picture(name: Picture): RgbaImage {
  let image = decoded.get(name);
  if (image === undefined) {
    image = decodeImage(pictureBytes(name));
    decoded.set(name, image);
  }
  return image;
}

/** The cut-out pictures' own subject: alpha at least 128. */
export function alphaMask(image: RgbaImage): Uint8Array {
  const mask = new Uint8Array(image.width * image.height);
  for (let i = 0; i < mask.length; i++) mask[i] = image.data[i * 4 + 3]! >= 128 ? 1 : 0;
  return mask;
}

/** Intersection over union of two masks of the same size. */
export function iou(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) both++;
    if (a[i] || b[i]) either++;
  }
  return either === 0 ? 1 : both / either;
}

/**
 * Checks that the surface is closed and consistently oriented: with welded vertices, every directed edge is used
 * by exactly one polygon and its reverse by exactly one other. Returns the problems found (empty when closed).
 */
export function closedSurfaceProblems(mesh: PolygonMesh): string[] {
  const directed = new Map<string, number>();
  let offset = 0;
  for (const size of mesh.sizes) {
    for (let k = 0; k < size; k++) {
      const a = mesh.weld[mesh.polygons[offset + k]!]!;
      const b = mesh.weld[mesh.polygons[offset + ((k + 1) % size)]!]!;
      if (a === b) return [`a polygon has a collapsed edge at weld ${a}`];
      const key = `${a}>${b}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
    offset += size;
  }
  const problems: string[] = [];
  for (const [key, count] of directed) {
    const [a, b] = key.split('>');
    if (count !== 1) problems.push(`edge ${key} used ${count} times in one direction`);
    if (directed.get(`${b}>${a}`) !== 1) problems.push(`edge ${key} has no polygon on its other side`);
    if (problems.length > 5) break;
  }
  return problems;
}

/** The first primitive of a GLB as a triangle mesh, with its embedded images (the writers' own layout: one buffer). */
export function readGlbModel(glb: Buffer): { mesh: PolygonMesh; images: RgbaImage[]; gltf: any } {
  const jsonLength = glb.readUInt32LE(12);
  const gltf = JSON.parse(glb.toString('utf8', 20, 20 + jsonLength));
  const binStart = 20 + jsonLength + 8;
  const view = (index: number) => {
    const v = gltf.bufferViews[index];
    return glb.subarray(binStart + (v.byteOffset ?? 0), binStart + (v.byteOffset ?? 0) + v.byteLength);
  };
  const accessor = (index: number) => {
    const a = gltf.accessors[index];
    const bytes = view(a.bufferView);
    const copy = Uint8Array.from(bytes).buffer;
    if (a.componentType === 5126) return new Float32Array(copy);
    if (a.componentType === 5123) return Uint32Array.from(new Uint16Array(copy));
    return new Uint32Array(copy);
  };
  const primitive = gltf.meshes[0].primitives[0];
  const positions = accessor(primitive.attributes.POSITION) as Float32Array;
  const polygons = accessor(primitive.indices) as Uint32Array;
  const mesh: PolygonMesh = {
    positions,
    normals: accessor(primitive.attributes.NORMAL) as Float32Array,
    uvs: accessor(primitive.attributes.TEXCOORD_0) as Float32Array,
    polygons,
    sizes: new Uint8Array(polygons.length / 3).fill(3),
    weld: Uint32Array.from({ length: positions.length / 3 }, (_, i) => i),
  };
  const images = (gltf.images ?? []).map((image: { bufferView: number }) => decodeImage(view(image.bufferView)));
  return { mesh, images, gltf };
}

/** The bounding box of a mask's 1s: [x0, y0) to [x1, y1). */
export function maskBox(mask: Uint8Array, width: number): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 1) continue;
    const x = i % width;
    const y = Math.floor(i / width);
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x + 1);
    y1 = Math.max(y1, y + 1);
  }
  return { x0, y0, x1, y1 };
}
