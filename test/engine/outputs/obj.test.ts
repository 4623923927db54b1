import { describe, expect, it } from 'vitest';
import { buildObj } from '../../../main/engine/outputs/obj.ts';

function parseObj(text: string) {
  const lines = text.trim().split('\n');
  const of = (tag: string) => lines.filter((l) => l.startsWith(`${tag} `)).map((l) => l.split(' ').slice(1));
  return { lines, v: of('v'), vt: of('vt'), vn: of('vn'), f: of('f') };
}

describe('buildObj', () => {
  it('writes triangles whose v/vt/vn indices are all in range', () => {
    const { obj, mtl } = buildObj({ seed: 'tri', kind: 'rock' });
    const o = parseObj(obj);
    expect(o.lines.slice(0, 3)).toEqual(['# Asset Studio local engine', 'mtllib model.mtl', 'o model']);
    expect(o.lines).toContain('usemtl material');
    expect(o.vt).toHaveLength(o.v.length);
    expect(o.vn).toHaveLength(o.v.length);
    expect(o.f.length).toBeGreaterThan(1800);
    expect(o.f.length).toBeLessThan(2200);
    expect(o.f.every((face) => face.length === 3)).toBe(true);
    const indices = o.f.flat().flatMap((corner) => corner.split('/').map(Number));
    expect(Math.min(...indices)).toBe(1);
    expect(Math.max(...indices)).toBe(o.v.length);
    expect(indices.every(Number.isInteger)).toBe(true);
    for (const values of [...o.v, ...o.vt, ...o.vn]) expect(values.every((x) => Number.isFinite(Number(x)))).toBe(true);
    expect(mtl).toContain('newmtl material');
    expect(mtl).not.toContain('map_Kd');
  });

  it('writes quads when asked, targetFaces then counting quads', () => {
    const o = parseObj(buildObj({ seed: 'quad', kind: 'character', quads: true, targetFaces: 600 }).obj);
    expect(o.f.length).toBe(600);
    expect(o.f.every((face) => face.length === 4)).toBe(true);
  });

  it('names its companion files and refers to the texture when asked', () => {
    const { obj, mtl } = buildObj({ seed: 's', name: 'crate', texture: true });
    expect(obj).toContain('mtllib crate.mtl\n');
    expect(mtl).toContain('map_Kd crate.png\n');
  });

  it('is deterministic per seed', () => {
    expect(buildObj({ seed: 'a' })).toEqual(buildObj({ seed: 'a' }));
    expect(buildObj({ seed: 'a' }).obj).not.toBe(buildObj({ seed: 'b' }).obj);
  });
});
