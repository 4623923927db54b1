// The real pictures of ../shared/fixtures/real/images, decoded once per test file, and small checks on meshes.
import { readFileSync } from 'node:fs';
import { decodeImage, type RgbaImage } from '../../../main/engine/generate/decode-image.ts';
import type { PolygonMesh } from '../../../main/engine/outputs/polygon-mesh.ts';
import { realFixture } from '../../fixtures.ts';

export const PICTURES = ['chair.png', 'robot.png', 'fox.jpg'] as const;
export type Picture = (typeof PICTURES)[number];

const decoded = new Map<string, RgbaImage>();

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
