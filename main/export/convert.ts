// An FBX, or an OBJ with its MTL and textures, made from a (transformed) GLB: every mesh of its default scene
// in world space, with its material's base colour and base-colour texture, written by main/formats/. Only a
// static model can be converted: a rig and its clips have no place in these writers, so an animated model
// is refused with the reason (the UI and the CLI show it) rather than written without its animation.
import { NodeIO, type Document, type Material, type mat4, type Node, type Primitive } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type { ExportFormat } from '../../shared/export-options.ts';
import { writeFbx } from '../formats/fbx.ts';
import { writeObj, type ObjGroup, type ObjMaterial } from '../formats/obj.ts';
import { ExportError, reason } from './errors.ts';
import type { FileKind } from './presets.ts';

const CREATOR = 'Asset Studio export';
const TRIANGLES = 4;
/** Image types FBX and OBJ importers read. */
const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': '.png', 'image/jpeg': '.jpg' };

export interface ConvertedFile {
  kind: FileKind;
  /** A name as a service names its files (`model.obj`, `model.mtl`, `model_1.png`): the export renames them. */
  name: string;
  data: Uint8Array;
}

/** Why a GLB cannot be written as `format` by conversion; undefined when it can. */
export function conversionRefusal(doc: Document, format: Exclude<ExportFormat, 'glb'>): string | undefined {
  const root = doc.getRoot();
  const label = format.toUpperCase();
  if (root.listSkins().length > 0 || root.listAnimations().length > 0) {
    return `${label} is not written with transforms for animated models: the transforms are baked into the GLB, and an ${label} made from it would lose the rig and its clips (export the GLB, or the ${label} without transforms)`;
  }
  const prims = meshNodes(doc).flatMap(({ node }) => node.getMesh()!.listPrimitives());
  if (prims.length === 0) return `${label} cannot be made from this model: it has no mesh`;
  if (prims.some((p) => p.getMode() !== TRIANGLES))
    return `${label} cannot be made from this model: it has points or lines, not only triangles`;
  const materials = new Set(prims.map((p) => p.getMaterial()));
  if (format === 'fbx' && materials.size > 1)
    return `FBX is made here with one material, and this model has ${materials.size}: export the GLB or the OBJ`;
  for (const m of materials) {
    const mime = m?.getBaseColorTexture()?.getMimeType();
    if (mime && !IMAGE_EXTENSIONS[mime])
      return `${label} cannot carry this model's ${mime} texture (importers read PNG and JPEG): export the GLB`;
  }
  return undefined;
}

/** The files of `format` made from the GLB; throws ExportError `bad-format` with conversionRefusal's reason. */
export async function convertGlb(
  glb: Uint8Array,
  format: Exclude<ExportFormat, 'glb'>,
  file: string,
): Promise<ConvertedFile[]> {
  let doc: Document;
  try {
    doc = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(glb);
  } catch (error) {
    throw new ExportError('unreadable-glb', {
      file,
      why: `cannot be read to make the ${format.toUpperCase()} (${reason(error)})`,
      fix: 'Export the GLB, or check it with a glTF validator',
      cause: error,
    });
  }
  const refusal = conversionRefusal(doc, format);
  if (refusal)
    throw new ExportError('bad-format', {
      file: `${format.toUpperCase()} of ${file}`,
      why: `is not written: ${refusal}`,
      fix: 'Choose GLB, or export without transforms',
    });
  const { groups, materials, textures } = worldGroups(doc);
  if (format === 'obj') {
    const { obj, mtl } = writeObj('model', groups, materials, CREATOR);
    return [
      { kind: 'obj', name: 'model.obj', data: Buffer.from(obj) },
      { kind: 'mtl', name: 'model.mtl', data: Buffer.from(mtl) },
      ...textures.map((t) => ({ kind: 'texture' as const, name: t.name, data: t.data })),
    ];
  }
  return [{ kind: 'fbx', name: 'model.fbx', data: fbxOf(groups, materials, textures) }];
}

interface Texture {
  name: string;
  data: Uint8Array;
}

export function meshNodes(doc: Document): { node: Node; world: mat4 }[] {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const out: { node: Node; world: mat4 }[] = [];
  for (const root of scene?.listChildren() ?? [])
    root.traverse((node) => void (node.getMesh() && out.push({ node, world: node.getWorldMatrix() })));
  return out;
}

/** Every primitive in world space, one group each, with the materials (and their texture files) they use. */
export function worldGroups(doc: Document): { groups: ObjGroup[]; materials: ObjMaterial[]; textures: Texture[] } {
  const materials: ObjMaterial[] = [];
  const textures: Texture[] = [];
  const index = new Map<Material | null, number>();
  const materialOf = (m: Material | null): number => {
    const known = index.get(m);
    if (known !== undefined) return known;
    const [r, g, b, a] = m?.getBaseColorFactor() ?? [0.8, 0.8, 0.8, 1];
    const material: ObjMaterial = { name: `material_${materials.length}`, color: [r, g, b], opacity: a };
    const texture = m?.getBaseColorTexture();
    const image = texture?.getImage();
    if (texture && image) {
      const name = `model${textures.length === 0 ? '' : `_${textures.length}`}${IMAGE_EXTENSIONS[texture.getMimeType()] ?? '.png'}`;
      textures.push({ name, data: image });
      material.texture = name;
    }
    materials.push(material);
    index.set(m, materials.length - 1);
    return materials.length - 1;
  };
  const groups: ObjGroup[] = [];
  for (const { node, world } of meshNodes(doc)) {
    for (const prim of node.getMesh()!.listPrimitives())
      groups.push(groupOf(prim, world, materialOf(prim.getMaterial())));
  }
  return { groups, materials, textures };
}

function groupOf(prim: Primitive, world: mat4, material: number): ObjGroup {
  const position = prim.getAttribute('POSITION')!;
  const count = position.getCount();
  const normal = prim.getAttribute('NORMAL');
  const uv = prim.getAttribute('TEXCOORD_0');
  const indices = prim.getIndices();
  const triangles = indices
    ? Uint32Array.from({ length: indices.getCount() }, (_, i) => indices.getScalar(i))
    : Uint32Array.from({ length: count }, (_, i) => i);
  const positions = new Float32Array(count * 3);
  const normals = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  const v = [0, 0, 0];
  const t = [0, 0];
  // Normals go through the inverse transpose; for the rotations and uniform scales of a baked model that is the matrix itself, normalised.
  const flip = determinant(world) < 0;
  for (let i = 0; i < count; i++) {
    position.getElement(i, v);
    positions.set(apply(world, v, 1), 3 * i);
    if (normal) {
      normal.getElement(i, v);
      normals.set(normalise(apply(inverseTranspose(world), v, 0)), 3 * i);
    }
    if (uv) {
      uv.getElement(i, t);
      uvs.set(t, 2 * i);
    }
  }
  if (flip)
    for (let k = 0; k < triangles.length; k += 3)
      [triangles[k + 1], triangles[k + 2]] = [triangles[k + 2]!, triangles[k + 1]!];
  if (!normal) faceNormals(positions, triangles, normals);
  return { material, positions, normals, uvs, triangles };
}

/** Normals of a mesh that has none: each vertex the sum of its triangles' normals. */
function faceNormals(p: Float32Array, tris: Uint32Array, out: Float32Array): void {
  for (let k = 0; k < tris.length; k += 3) {
    const [a, b, c] = [tris[k]!, tris[k + 1]!, tris[k + 2]!];
    const u = [0, 1, 2].map((j) => p[3 * b + j]! - p[3 * a + j]!);
    const w = [0, 1, 2].map((j) => p[3 * c + j]! - p[3 * a + j]!);
    const n = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
    for (const vtx of [a, b, c]) for (let j = 0; j < 3; j++) out[3 * vtx + j] = out[3 * vtx + j]! + n[j]!;
  }
  for (let i = 0; i < out.length; i += 3) out.set(normalise([out[i]!, out[i + 1]!, out[i + 2]!]), i);
}

function apply(m: mat4 | number[], v: number[], w: number): number[] {
  return [0, 1, 2].map((r) => m[r]! * v[0]! + m[4 + r]! * v[1]! + m[8 + r]! * v[2]! + w * m[12 + r]!);
}

function normalise(v: number[]): number[] {
  const n = Math.hypot(v[0]!, v[1]!, v[2]!);
  return n > 0 ? v.map((x) => x / n) : [0, 1, 0];
}

function determinant(m: mat4): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
}

/** The inverse transpose of the upper 3x3 (column-major, in a 16-array), up to a positive factor: the cofactor matrix. */
function inverseTranspose(m: mat4): number[] {
  const c = (r0: number, c0: number) => {
    const rows = [0, 1, 2].filter((r) => r !== r0);
    const cols = [0, 1, 2].filter((k) => k !== c0);
    const at = (r: number, k: number) => m[k * 4 + r]!;
    return (
      (at(rows[0]!, cols[0]!) * at(rows[1]!, cols[1]!) - at(rows[0]!, cols[1]!) * at(rows[1]!, cols[0]!)) *
      ((r0 + c0) % 2 === 0 ? 1 : -1)
    );
  };
  const out = new Array<number>(16).fill(0);
  const sign = determinant(m) < 0 ? -1 : 1;
  for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) out[k * 4 + r] = sign * c(r, k);
  return out;
}

/** One FBX geometry of every group (FBX here carries one material: conversionRefusal saw to it). */
function fbxOf(groups: ObjGroup[], materials: ObjMaterial[], textures: Texture[]): Buffer {
  const { positions, normals, uvs, polygonVertexIndex } = mergedGroups(groups);
  const material = materials[0]!;
  const texture = textures.find((t) => t.name === material.texture);
  return writeFbx(
    {
      positions,
      normals,
      uvs,
      polygonVertexIndex,
      material: {
        color: material.color,
        ...(texture && { texture: { png: Buffer.from(texture.data), fileName: texture.name } }),
      },
    },
    CREATOR,
  );
}

/** The groups as one FBX geometry's arrays (polygons with FBX's end marker). */
export function mergedGroups(groups: readonly ObjGroup[]): {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  polygonVertexIndex: Int32Array;
} {
  const total = groups.reduce((n, g) => n + g.positions.length / 3, 0);
  const positions = new Float32Array(total * 3);
  const normals = new Float32Array(total * 3);
  const uvs = new Float32Array(total * 2);
  const polygons: number[] = [];
  let base = 0;
  for (const g of groups) {
    positions.set(g.positions, base * 3);
    normals.set(g.normals, base * 3);
    uvs.set(g.uvs, base * 2);
    for (let k = 0; k < g.triangles.length; k += 3)
      polygons.push(base + g.triangles[k]!, base + g.triangles[k + 1]!, ~(base + g.triangles[k + 2]!));
    base += g.positions.length / 3;
  }
  return { positions, normals, uvs, polygonVertexIndex: Int32Array.from(polygons) };
}
