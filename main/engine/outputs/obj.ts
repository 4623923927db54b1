// Wavefront OBJ + MTL writers: the seeded mesh (triangles, or quads when asked) and polygon meshes (mixed).
import { buildMesh, GENERATOR, type MeshOptions, type Vec3 } from './mesh.ts';
import type { PolygonMesh } from './polygon-mesh.ts';

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
const num = (a: Float32Array, start: number, count: number) =>
  Array.from(a.subarray(start, start + count), round).join(' ');

/** The texture files an OBJ of a polygon mesh names beside it, by what they hold. */
export interface ObjTextureNames {
  baseColor?: string;
  metallicRoughness?: string;
  normal?: string;
}

/** The file names the textures of `<name>.obj` have beside it: `<name>.png`, `<name>_metallic_roughness.png`, `<name>_normal.png`. */
export function objTextureNames(
  name: string,
  material: { baseColor?: unknown; metallicRoughness?: unknown; normal?: unknown },
): ObjTextureNames {
  return {
    ...(material.baseColor !== undefined && { baseColor: `${name}.png` }),
    ...(material.metallicRoughness !== undefined && { metallicRoughness: `${name}_metallic_roughness.png` }),
    ...(material.normal !== undefined && { normal: `${name}_normal.png` }),
  };
}

/**
 * A polygon mesh as OBJ (triangles and quads as they are, `f a/a/a b/b/b c/c/c [d/d/d]`) and its MTL: the base
 * colour, `map_Kd` for the base-colour texture and, for PBR, the roughness and metalness channels of the
 * metallic-roughness texture (`map_Pr`/`map_Pm` with `-imfchan`) and the normal map (`norm`).
 */
export function buildPolygonObj(
  mesh: PolygonMesh,
  color: Vec3,
  name: string,
  textures: ObjTextureNames,
): { obj: string; mtl: string } {
  const lines = [`# ${GENERATOR}`, `mtllib ${name}.mtl`, `o ${name}`];
  for (let i = 0; i < mesh.positions.length; i += 3) lines.push(`v ${num(mesh.positions, i, 3)}`);
  for (let i = 0; i < mesh.uvs.length; i += 2) lines.push(`vt ${round(mesh.uvs[i]!)} ${round(1 - mesh.uvs[i + 1]!)}`);
  for (let i = 0; i < mesh.normals.length; i += 3) lines.push(`vn ${num(mesh.normals, i, 3)}`);
  lines.push('usemtl material');
  let offset = 0;
  for (const size of mesh.sizes) {
    const corners = Array.from(mesh.polygons.subarray(offset, offset + size), (v) => `${v + 1}/${v + 1}/${v + 1}`);
    lines.push(`f ${corners.join(' ')}`);
    offset += size;
  }
  return { obj: `${lines.join('\n')}\n`, mtl: buildPolygonMtl(color, textures) };
}

/** The MTL of buildPolygonObj: the base colour, and the textures it names. */
export function buildPolygonMtl(color: Vec3, textures: ObjTextureNames): string {
  const mtl = [
    `# ${GENERATOR}`,
    'newmtl material',
    `Kd ${color.map(round).join(' ')}`,
    'Ka 0 0 0',
    'Ks 0 0 0',
    'd 1',
    'illum 1',
    ...(textures.baseColor ? [`map_Kd ${textures.baseColor}`] : []),
    ...(textures.metallicRoughness
      ? [`map_Pr -imfchan g ${textures.metallicRoughness}`, `map_Pm -imfchan b ${textures.metallicRoughness}`]
      : []),
    ...(textures.normal ? [`norm ${textures.normal}`] : []),
  ];
  return `${mtl.join('\n')}\n`;
}
