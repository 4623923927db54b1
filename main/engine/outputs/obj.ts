// Wavefront OBJ + MTL writer for the seeded mesh: triangles, or quads when asked.
import { buildMesh, GENERATOR, type MeshOptions } from './mesh.ts';

export interface ObjOptions extends MeshOptions {
  /** The MTL refers to a base-colour texture `<name>.png` (see renderTexture). */
  texture?: boolean;
  /** Base name of the companion files: `<name>.mtl` and `<name>.png`; default "model". */
  name?: string;
}

export function buildObj(opts: ObjOptions): { obj: string; mtl: string } {
  const mesh = buildMesh(opts);
  const name = opts.name ?? 'model';
  const lines = [`# ${GENERATOR}`, `mtllib ${name}.mtl`, `o ${name}`];
  for (let i = 0; i < mesh.positions.length; i += 3) lines.push(`v ${num(mesh.positions, i, 3)}`);
  // OBJ texture coordinates grow upwards, glTF ones downwards.
  for (let i = 0; i < mesh.uvs.length; i += 2) lines.push(`vt ${round(mesh.uvs[i]!)} ${round(1 - mesh.uvs[i + 1]!)}`);
  for (let i = 0; i < mesh.normals.length; i += 3) lines.push(`vn ${num(mesh.normals, i, 3)}`);
  lines.push('usemtl material');
  const faces = opts.quads ? mesh.quads : mesh.triangles;
  const size = opts.quads ? 4 : 3;
  for (let f = 0; f < faces.length; f += size) {
    const corners = Array.from(faces.subarray(f, f + size), (v) => `${v + 1}/${v + 1}/${v + 1}`);
    lines.push(`f ${corners.join(' ')}`);
  }
  const mtl = [
    `# ${GENERATOR}`,
    'newmtl material',
    `Kd ${mesh.color.map(round).join(' ')}`,
    'Ka 0 0 0',
    'Ks 0 0 0',
    'd 1',
    'illum 1',
    ...(opts.texture ? [`map_Kd ${name}.png`] : []),
  ];
  return { obj: `${lines.join('\n')}\n`, mtl: `${mtl.join('\n')}\n` };
}

const round = (x: number) => String(Math.round(x * 1e6) / 1e6);
const num = (a: Float32Array, start: number, count: number) => Array.from(a.subarray(start, start + count), round).join(' ');
