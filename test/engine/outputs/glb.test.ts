import { describe, expect, it } from 'vitest';
import { buildGlb, type GlbOptions } from '../../../main/engine/outputs/glb.ts';
import { readGlbJson } from '../../../main/formats/glb.ts';
import { GENERATOR } from '../../../main/engine/outputs/mesh.ts';
import { validator } from '../../gltf-validator.ts';

interface Gltf {
  asset: { version: string; generator: string };
  accessors: { componentType: number; count: number; min?: number[]; max?: number[] }[];
  images?: { mimeType: string }[];
  materials: { pbrMetallicRoughness: { baseColorTexture?: unknown; baseColorFactor?: number[] } }[];
}

const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;

function positionBox(glb: Buffer) {
  const { min, max } = (readGlbJson(glb) as Gltf).accessors[0]!;
  return { min: min!, max: max!, size: [0, 1, 2].map((k) => max![k]! - min![k]!) };
}

describe('buildGlb', () => {
  const cases: GlbOptions[] = [
    { seed: 'rock-1' },
    { seed: 'box-1', kind: 'box', texture: true },
    { seed: 'char-1', kind: 'character', quads: true, texture: true },
    { seed: 'scaled', kind: 'rock', scale: [2, -1, 0.5], pivot: [0, -0.5, 0] },
    { seed: 'corner', kind: 'box', scale: [1, 2, 3], pivot: [0.5, 0.5, -0.5], targetFaces: 200 },
    { seed: 'big', targetFaces: 140_000 },
  ];

  it.each(cases)('passes the Khronos validator without errors or warnings: %o', async (opts) => {
    const glb = buildGlb(opts);
    const report = await validator.validateBytes(new Uint8Array(glb), { maxIssues: 20, writeTimestamp: false });
    const problems = report.issues.messages.filter((m) => m.code !== 'UNUSED_OBJECT'); // untextured: unused TEXCOORD_0
    expect(problems).toEqual([]);
    expect(report.issues.numErrors).toBe(0);
    expect(report.issues.numWarnings).toBe(0);
  });

  it('describes itself and embeds a PNG texture only when asked', () => {
    const plain = readGlbJson(buildGlb({ seed: 's' })) as Gltf;
    expect(plain.asset).toEqual({ version: '2.0', generator: GENERATOR });
    expect(plain.images).toBeUndefined();
    expect(plain.materials[0]!.pbrMetallicRoughness.baseColorFactor).toHaveLength(4);
    const textured = readGlbJson(buildGlb({ seed: 's', texture: true })) as Gltf;
    expect(textured.images).toEqual([{ bufferView: 4, mimeType: 'image/png' }]);
    expect(textured.materials[0]!.pbrMetallicRoughness.baseColorTexture).toEqual({ index: 0 });
  });

  it('has about targetFaces triangles, with uint16 or uint32 indices as needed', () => {
    const small = readGlbJson(buildGlb({ seed: 's' })) as Gltf;
    expect(small.accessors[3]!.componentType).toBe(UNSIGNED_SHORT);
    expect(small.accessors[3]!.count / 3).toBeGreaterThan(1800);
    expect(small.accessors[3]!.count / 3).toBeLessThan(2200);
    const big = readGlbJson(buildGlb({ seed: 's', targetFaces: 140_000 })) as Gltf;
    expect(big.accessors[0]!.count).toBeGreaterThan(65_535);
    expect(big.accessors[3]!.componentType).toBe(UNSIGNED_INT);
    expect(big.accessors[3]!.count / 3 / 140_000).toBeCloseTo(1, 1);
  });

  it('keeps a natural size of 1 m on the longest side, centred on the origin by default', () => {
    const { min, max, size } = positionBox(buildGlb({ seed: 'natural', kind: 'character' }));
    expect(Math.max(...size)).toBeCloseTo(1, 5);
    for (let k = 0; k < 3; k++) expect(min[k]! + max[k]!).toBeCloseTo(0, 5);
  });

  it('fits the requested box and puts the origin at the pivot', () => {
    const fitted = positionBox(buildGlb({ seed: 'fit', scale: [1, 2, 3], pivot: [0.5, 0.5, -0.5] }));
    expect(fitted.size[0]).toBeCloseTo(1, 5);
    expect(fitted.size[1]).toBeCloseTo(2, 5);
    expect(fitted.size[2]).toBeCloseTo(3, 5);
    expect(fitted.max[0]).toBeCloseTo(0, 5);
    expect(fitted.max[1]).toBeCloseTo(0, 5);
    expect(fitted.min[2]).toBeCloseTo(0, 5);

    const natural = positionBox(buildGlb({ seed: 'fit' }));
    const standing = positionBox(buildGlb({ seed: 'fit', scale: [2, -1, -1], pivot: [0, -0.5, 0] }));
    expect(standing.size[0]).toBeCloseTo(2, 5);
    expect(standing.size[1]).toBeCloseTo(natural.size[1]!, 5); // automatic slots keep their natural size
    expect(standing.size[2]).toBeCloseTo(natural.size[2]!, 5);
    expect(standing.min[1]).toBeCloseTo(0, 5);
    expect(standing.min[0]! + standing.max[0]!).toBeCloseTo(0, 5);
  });

  it('scales all axes alike with preserveAspectRatio', () => {
    const natural = positionBox(buildGlb({ seed: 'ratio', kind: 'box' }));
    const scaled = positionBox(buildGlb({ seed: 'ratio', kind: 'box', scale: [-1, 3, 5], preserveAspectRatio: true }));
    const factor = Math.min(3 / natural.size[1]!, 5 / natural.size[2]!);
    for (let k = 0; k < 3; k++) expect(scaled.size[k]).toBeCloseTo(natural.size[k]! * factor, 4);
  });

  it('rejects pivots and sizes out of range', () => {
    expect(() => buildGlb({ seed: 's', pivot: [0, 0.6, 0] })).toThrow(RangeError);
    expect(() => buildGlb({ seed: 's', scale: [0, 1, 1] })).toThrow(RangeError);
  });

  it('is deterministic per seed and differs between seeds', () => {
    const opts: GlbOptions = { seed: 'same', kind: 'rock', texture: true };
    expect(buildGlb(opts).equals(buildGlb(opts))).toBe(true);
    expect(buildGlb({ ...opts, seed: 'other' }).equals(buildGlb(opts))).toBe(false);
  });
});

describe('readGlbJson', () => {
  it('rejects malformed containers', () => {
    const glb = buildGlb({ seed: 's', targetFaces: 100 });
    expect(() => readGlbJson(Buffer.from('not a glb at all, not at all'))).toThrow(/not a GLB/);
    expect(() => readGlbJson(glb.subarray(0, glb.length - 4))).toThrow(/length/);
    const v1 = Buffer.from(glb);
    v1.writeUInt32LE(1, 4);
    expect(() => readGlbJson(v1)).toThrow(/version/);
  });
});
