// Reading a Wavefront OBJ input: vertices, texture coordinates and polygon faces (fanned into triangles),
// one material per `usemtl` name. The MTL it names is not fetched, so materials keep a neutral grey.
import type { SourceMaterial, TriangleMesh } from './mesh.ts';
import { UnreadableMesh } from './unreadable.ts';

const GREY: SourceMaterial['color'] = [0.8, 0.8, 0.8, 1];

export function readObj(text: string): TriangleMesh {
  const v: number[] = [];
  const vt: number[] = [];
  const corners: { p: number; t: number; m: number }[] = [];
  const materials: SourceMaterial[] = [];
  const byName = new Map<string, number>();
  let material = -1;
  let anyUv = false;
  const useMaterial = (name: string) => {
    let index = byName.get(name);
    if (index === undefined) {
      index = materials.length;
      byName.set(name, index);
      materials.push({ name, color: [...GREY] });
    }
    material = index;
  };

  let lineNumber = 0;
  for (const raw of text.split('\n')) {
    lineNumber++;
    const line = raw.trim();
    if (line.startsWith('v ')) {
      const [x, y, z] = line.slice(2).trim().split(/\s+/).map(Number);
      v.push(x ?? NaN, y ?? NaN, z ?? NaN);
    } else if (line.startsWith('vt ')) {
      const [s, t] = line.slice(3).trim().split(/\s+/).map(Number);
      vt.push(s ?? 0, t ?? 0);
    } else if (line.startsWith('usemtl ')) {
      useMaterial(line.slice(7).trim());
    } else if (line.startsWith('f ')) {
      if (material < 0) useMaterial('material');
      const face = line
        .slice(2)
        .trim()
        .split(/\s+/)
        .map((corner) => {
          const [p, t] = corner.split('/');
          const pi = resolve(Number(p), v.length / 3, lineNumber, 'vertex');
          const ti =
            t === undefined || t === '' ? -1 : resolve(Number(t), vt.length / 2, lineNumber, 'texture coordinate');
          if (ti >= 0) anyUv = true;
          return { p: pi, t: ti, m: material };
        });
      for (let k = 1; k + 1 < face.length; k++) corners.push(face[0]!, face[k]!, face[k + 1]!);
    }
  }
  if (corners.length === 0) throw new UnreadableMesh('is an OBJ file with no faces: give a model with a polygon mesh');
  if (v.some((x) => !Number.isFinite(x)))
    throw new UnreadableMesh('is an OBJ file with a vertex that is not three numbers');

  // One vertex per corner; weld() merges the equal ones.
  const positions = new Float32Array(corners.length * 3);
  const uvs = anyUv ? new Float32Array(corners.length * 2) : undefined;
  const materialOf = new Uint16Array(corners.length);
  corners.forEach((corner, i) => {
    positions.set(v.slice(corner.p * 3, corner.p * 3 + 3), i * 3);
    if (uvs !== undefined && corner.t >= 0) {
      uvs[i * 2] = vt[corner.t * 2]!;
      uvs[i * 2 + 1] = 1 - vt[corner.t * 2 + 1]!; // OBJ's v grows upwards, glTF's downwards
    }
    materialOf[i] = corner.m;
  });
  return { positions, uvs, materialOf, materials, indices: Uint32Array.from(corners, (_, i) => i) };
}

/** An OBJ index (1-based, or negative from the end) as a 0-based one. */
function resolve(index: number, count: number, line: number, what: string): number {
  const resolved = index < 0 ? count + index : index - 1;
  if (!Number.isInteger(index) || index === 0 || resolved < 0 || resolved >= count) {
    throw new UnreadableMesh(`is an OBJ file whose line ${line} names ${what} ${index}, which it does not have`);
  }
  return resolved;
}
