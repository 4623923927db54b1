// The retopology's OBJ: quads as 4-vertex faces and triangles as 3-vertex ones, texture coordinates and
// per-corner normals, one `usemtl` group per material; its MTL gives each material's base colour and, when
// the input had one, its base-colour texture, written beside the OBJ under the names the MTL uses
// (`<name>.png`, then `<name>_1.jpg`…; an image shared by several materials is written once).
import { GENERATOR } from '../outputs/mesh.ts';
import type { FaceMesh } from '../../mesh/mesh.ts';
import { cornerNormals } from './normals.ts';

export interface ObjFiles {
  obj: string;
  mtl: string;
  /** The texture images the MTL names, each to be written as `file` beside the OBJ. */
  textures: { file: string; bytes: Uint8Array }[];
}

/** `name` is the base name of the files: `<name>.obj` names `<name>.mtl`. */
export function writeObj(mesh: FaceMesh, name: string): ObjFiles {
  const used = new Set(mesh.materialOf);
  const materialNames = uniqueNames(mesh.materials.map((m) => m.name));
  const textures: ObjFiles['textures'] = [];
  const textureFile = new Map<Uint8Array, string>();
  const mtl = [`# ${GENERATOR}`];
  mesh.materials.forEach((material, i) => {
    if (!used.has(i)) return;
    const [r, g, b, a] = material.color;
    mtl.push(
      '',
      `newmtl ${materialNames[i]}`,
      `Kd ${round(r)} ${round(g)} ${round(b)}`,
      'Ka 0 0 0',
      'Ks 0 0 0',
      `d ${round(a)}`,
      'illum 1',
    );
    if (material.texture !== undefined && mesh.uvs !== undefined) {
      let file = textureFile.get(material.texture.bytes);
      if (file === undefined) {
        file = `${textures.length === 0 ? name : `${name}_${textures.length}`}.${material.texture.extension}`;
        textureFile.set(material.texture.bytes, file);
        textures.push({ file, bytes: material.texture.bytes });
      }
      mtl.push(`map_Kd ${file}`);
    }
  });

  const { normals, ofCorner } = cornerNormals(mesh);
  const lines = [
    `# ${GENERATOR}: retopology, ${mesh.quads.length / 4} quads and ${mesh.triangles.length / 3} triangles`,
    `mtllib ${name}.mtl`,
    `o ${name}`,
  ];
  const { positions, uvs } = mesh;
  for (let i = 0; i < positions.length; i += 3)
    lines.push(`v ${round(positions[i]!)} ${round(positions[i + 1]!)} ${round(positions[i + 2]!)}`);
  // OBJ texture coordinates grow upwards, glTF ones downwards.
  if (uvs !== undefined)
    for (let i = 0; i < uvs.length; i += 2) lines.push(`vt ${round(uvs[i]!)} ${round(1 - uvs[i + 1]!)}`);
  for (let i = 0; i < normals.length; i += 3) lines.push(`vn ${normals[i]} ${normals[i + 1]} ${normals[i + 2]}`);

  // Faces grouped by material; corners numbered as cornerNormals counts them (quads first, then triangles).
  const groups = new Map<number, string[]>();
  const corner = (v: number, c: number) =>
    uvs === undefined ? `${v + 1}//${ofCorner[c]! + 1}` : `${v + 1}/${v + 1}/${ofCorner[c]! + 1}`;
  const addFace = (face: Uint32Array, firstCorner: number) => {
    const material = mesh.materialOf[face[0]!]!;
    let group = groups.get(material);
    if (group === undefined) groups.set(material, (group = []));
    group.push(`f ${Array.from(face, (v, k) => corner(v, firstCorner + k)).join(' ')}`);
  };
  let c = 0;
  for (let q = 0; q < mesh.quads.length; q += 4, c += 4) addFace(mesh.quads.subarray(q, q + 4), c);
  for (let t = 0; t < mesh.triangles.length; t += 3, c += 3) addFace(mesh.triangles.subarray(t, t + 3), c);
  for (const [material, faces] of [...groups].sort(([a], [b]) => a - b))
    lines.push(`usemtl ${materialNames[material]}`, ...faces);
  return { obj: `${lines.join('\n')}\n`, mtl: `${mtl.join('\n')}\n`, textures };
}

/** Material names as OBJ and MTL can carry them (one word each), made unique. */
function uniqueNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((raw, i) => {
    const base = raw.trim().replace(/\s+/g, '_') || `material_${i}`;
    let name = base;
    for (let n = 1; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return name;
  });
}

const round = (x: number) => String(Math.round(x * 1e6) / 1e6);
