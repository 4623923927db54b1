// Reading a GLB or glTF input with glTF Transform: every triangle primitive of the default scene, merged into
// one mesh in world space (node transforms baked; a skinned mesh in its rest pose; morph targets at the mesh's
// default weights), so the result sits at the input's place and size. Draco (draco3dgltf) and meshopt
// (meshoptimizer's decoder) geometry is decoded; base colours and base-colour textures are kept per material.
import {
  type Accessor,
  type Document,
  type JSONDocument,
  Logger,
  type Material,
  type mat4,
  type Node,
  NodeIO,
  type Primitive,
} from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type { SourceMaterial, TriangleMesh } from './mesh.ts';
import { UnreadableMesh } from './unreadable.ts';

const TRIANGLES = 4;
const TRIANGLE_STRIP = 5;
const TRIANGLE_FAN = 6;
const TEXTURE_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
const DEFAULT_COLOR: SourceMaterial['color'] = [0.8, 0.8, 0.8, 1];

let dracoDecoder: Promise<unknown> | undefined;

/** Reads a GLB (`format` glb) or a glTF JSON file whose buffers and images are embedded (data URIs). */
export async function readGltf(bytes: Uint8Array, format: 'glb' | 'gltf'): Promise<TriangleMesh> {
  const io = new NodeIO().setLogger(new Logger(Logger.Verbosity.ERROR)).registerExtensions(ALL_EXTENSIONS);
  const jsonDoc = await toJsonDocument(io, bytes, format);
  const used = (jsonDoc.json.extensionsUsed ?? []) as string[];
  // The decoders are loaded when a file needs them (each compiles its WebAssembly).
  if (used.includes('KHR_draco_mesh_compression')) {
    dracoDecoder ??= import('draco3dgltf').then(({ default: draco3d }) => draco3d.createDecoderModule());
    io.registerDependencies({ 'draco3d.decoder': await dracoDecoder });
  }
  if (used.includes('EXT_meshopt_compression') || used.includes('KHR_meshopt_compression')) {
    const { MeshoptDecoder } = await import('meshoptimizer/decoder');
    await MeshoptDecoder.ready;
    io.registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
  }
  let doc: Document;
  try {
    doc = await io.readJSON(jsonDoc);
  } catch (error) {
    throw new UnreadableMesh(
      `is a ${format === 'glb' ? 'GLB' : 'glTF'} file that cannot be read (${(error as Error).message})`,
    );
  }
  return mergeScene(doc);
}

async function toJsonDocument(io: NodeIO, bytes: Uint8Array, format: 'glb' | 'gltf'): Promise<JSONDocument> {
  let jsonDoc: JSONDocument;
  try {
    jsonDoc =
      format === 'glb'
        ? await io.binaryToJSON(bytes)
        : { json: JSON.parse(Buffer.from(bytes).toString('utf8')), resources: {} };
  } catch (error) {
    const message = (error as Error).message;
    if (/external/i.test(message)) throw externalFiles();
    throw new UnreadableMesh(`is not a readable ${format === 'glb' ? 'GLB' : 'glTF'} file (${message})`);
  }
  const external = [...(jsonDoc.json.buffers ?? []), ...(jsonDoc.json.images ?? [])].filter(
    (item) => typeof item.uri === 'string' && !item.uri.startsWith('data:') && !(item.uri in jsonDoc.resources),
  );
  if (external.length > 0) throw externalFiles(external.map((item) => item.uri!));
  return jsonDoc;
}

const externalFiles = (names: string[] = []) =>
  new UnreadableMesh(
    `names files beside it${names.length > 0 ? ` (${names.slice(0, 3).join(', ')})` : ''}, which the engine does not fetch: send a GLB, or a glTF whose buffers and images are embedded as data URIs`,
  );

/** Every triangle of the default scene (or of every node when there is no scene), in world space. */
function mergeScene(doc: Document): TriangleMesh {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const nodes: Node[] = [];
  if (scene !== undefined) scene.traverse((node) => void nodes.push(node));
  else nodes.push(...root.listNodes());

  const parts: Part[] = [];
  const materials: SourceMaterial[] = [];
  const materialIndex = new Map<Material | null, number>();
  const materialOf = (material: Material | null): number => {
    let index = materialIndex.get(material);
    if (index === undefined) {
      index = materials.length;
      materialIndex.set(material, index);
      materials.push(sourceMaterial(material, index));
    }
    return index;
  };

  for (const node of nodes) {
    const mesh = node.getMesh();
    if (mesh === null) continue;
    const weights = node.getWeights().length > 0 ? node.getWeights() : mesh.getWeights();
    for (const primitive of mesh.listPrimitives()) {
      const mode = primitive.getMode();
      if (mode !== TRIANGLES && mode !== TRIANGLE_STRIP && mode !== TRIANGLE_FAN) continue;
      const position = primitive.getAttribute('POSITION');
      if (position === null || position.getCount() === 0) continue;
      const material = primitive.getMaterial();
      const texCoord = material?.getBaseColorTextureInfo()?.getTexCoord() ?? 0;
      const uv = primitive.getAttribute(`TEXCOORD_${texCoord}`) ?? primitive.getAttribute('TEXCOORD_0');
      const positions = worldPositions(node, primitive, position, weights);
      const listed = triangleList(primitive, mode, position.getCount());
      const indices = positions.flipped ? flipped(listed) : listed;
      parts.push({
        positions: positions.values,
        uvs: uv === null ? undefined : floats(uv, 2),
        indices,
        material: materialOf(material),
      });
    }
  }
  if (parts.length === 0 || parts.every((part) => part.indices.length === 0)) {
    throw new UnreadableMesh(
      'holds no triangles (no mesh, or only points and lines): give a model with a triangle mesh',
    );
  }
  return concatenate(parts, materials);
}

interface Part {
  positions: Float32Array;
  uvs: Float32Array | undefined;
  indices: Uint32Array;
  material: number;
}

function concatenate(parts: Part[], materials: SourceMaterial[]): TriangleMesh {
  if (parts.length === 1) {
    const [{ positions, uvs, indices, material }] = parts as [Part];
    return { positions, uvs, materialOf: new Uint16Array(positions.length / 3).fill(material), materials, indices };
  }
  const vertexCount = parts.reduce((sum, part) => sum + part.positions.length / 3, 0);
  const indexCount = parts.reduce((sum, part) => sum + part.indices.length, 0);
  const withUvs = parts.some((part) => part.uvs !== undefined);
  const positions = new Float32Array(vertexCount * 3);
  const uvs = withUvs ? new Float32Array(vertexCount * 2) : undefined;
  const materialOf = new Uint16Array(vertexCount);
  const indices = new Uint32Array(indexCount);
  let vertex = 0;
  let index = 0;
  for (const part of parts) {
    const count = part.positions.length / 3;
    positions.set(part.positions, vertex * 3);
    if (part.uvs !== undefined) uvs!.set(part.uvs, vertex * 2);
    materialOf.fill(part.material, vertex, vertex + count);
    for (let i = 0; i < part.indices.length; i++) indices[index + i] = part.indices[i]! + vertex;
    vertex += count;
    index += part.indices.length;
  }
  return { positions, uvs, materialOf, materials, indices };
}

function sourceMaterial(material: Material | null, index: number): SourceMaterial {
  if (material === null) return { name: `material_${index}`, color: [...DEFAULT_COLOR] };
  const [r, g, b, a] = material.getBaseColorFactor();
  const source: SourceMaterial = { name: material.getName() || `material_${index}`, color: [r, g, b, a] };
  const texture = material.getBaseColorTexture();
  const image = texture?.getImage();
  const extension = TEXTURE_EXTENSIONS[texture?.getMimeType() ?? ''];
  if (texture && image && extension !== undefined)
    source.texture = { bytes: image, mimeType: texture.getMimeType(), extension };
  return source;
}

/**
 * The primitive's positions in world space: morph targets applied at `weights`, then the node's world matrix,
 * or for a skinned node its rest pose (each vertex by its joints' world matrices and inverse bind matrices,
 * as glTF skins it: the node's own transform does not apply). `flipped` when the transform mirrors.
 */
function worldPositions(
  node: Node,
  primitive: Primitive,
  position: Accessor,
  weights: number[],
): { values: Float32Array; flipped: boolean } {
  const targets = primitive
    .listTargets()
    .filter((target, t) => (weights[t] ?? 0) !== 0 && target.getAttribute('POSITION') !== null);
  const local = targets.length > 0 ? Float32Array.from(floats(position, 3)) : floats(position, 3);
  primitive.listTargets().forEach((target, t) => {
    const weight = weights[t] ?? 0;
    const delta = target.getAttribute('POSITION');
    if (weight === 0 || delta === null) return;
    const d = floats(delta, 3);
    for (let i = 0; i < local.length; i++) local[i] = local[i]! + weight * d[i]!;
  });

  const skin = node.getSkin();
  const joints = primitive.getAttribute('JOINTS_0');
  const skinWeights = primitive.getAttribute('WEIGHTS_0');
  if (skin !== null && joints !== null && skinWeights !== null) {
    const inverseBind = skin.getInverseBindMatrices();
    const ibm = inverseBind === null ? undefined : floats(inverseBind, 16);
    const jointMatrices = skin
      .listJoints()
      .map((joint, j) =>
        multiply(joint.getWorldMatrix(), ibm === undefined ? IDENTITY : Array.from(ibm.subarray(j * 16, j * 16 + 16))),
      );
    const jointIds = joints.getArray()!;
    const jointWeights = floats(skinWeights, 4);
    const out = new Float32Array(local.length);
    for (let v = 0; v < local.length / 3; v++) {
      let total = 0;
      for (let k = 0; k < 4; k++) {
        const w = jointWeights[v * 4 + k]!;
        const m = jointMatrices[jointIds[v * 4 + k]!];
        if (w === 0 || m === undefined) continue;
        addTransformed(out, v, m, local, w);
        total += w;
      }
      if (total === 0) addTransformed(out, v, node.getWorldMatrix(), local, 1);
      else if (Math.abs(total - 1) > 1e-6) for (let k = 0; k < 3; k++) out[v * 3 + k] = out[v * 3 + k]! / total;
    }
    return { values: out, flipped: false };
  }

  const m = node.getWorldMatrix();
  if (m.every((x, i) => x === IDENTITY[i])) return { values: local, flipped: false };
  const out = new Float32Array(local.length);
  for (let v = 0; v < local.length / 3; v++) addTransformed(out, v, m, local, 1);
  return { values: out, flipped: determinant3(m) < 0 };
}

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** out[v] += w · (m × p[v]), m column-major. */
function addTransformed(out: Float32Array, v: number, m: ArrayLike<number>, p: Float32Array, w: number): void {
  const x = p[v * 3]!;
  const y = p[v * 3 + 1]!;
  const z = p[v * 3 + 2]!;
  for (let k = 0; k < 3; k++)
    out[v * 3 + k] = out[v * 3 + k]! + w * (m[k]! * x + m[4 + k]! * y + m[8 + k]! * z + m[12 + k]!);
}

function multiply(a: mat4 | number[], b: number[]): number[] {
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r]! += a[k * 4 + r]! * b[c * 4 + k]!;
  return out;
}

const determinant3 = (m: mat4) =>
  m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);

/** An accessor's values as floats (normalized integers decoded as glTF says). */
function floats(accessor: Accessor, size: number): Float32Array {
  const array = accessor.getArray();
  if (array === null) return new Float32Array(accessor.getCount() * size);
  if (array instanceof Float32Array && accessor.getElementSize() === size) return array;
  const out = new Float32Array(accessor.getCount() * size);
  const element: number[] = [];
  for (let i = 0; i < accessor.getCount(); i++) {
    accessor.getElement(i, element);
    for (let k = 0; k < size; k++) out[i * size + k] = element[k] ?? 0;
  }
  return out;
}

/** The primitive's triangles as a list (strips and fans unrolled, unindexed primitives indexed); may be the accessor's own array. */
function triangleList(primitive: Primitive, mode: number, vertexCount: number): Uint32Array {
  const given = primitive.getIndices()?.getArray();
  const order =
    given instanceof Uint32Array
      ? given
      : given
        ? Uint32Array.from(given)
        : Uint32Array.from({ length: vertexCount }, (_, i) => i);
  if (mode === TRIANGLES) return order.subarray(0, order.length - (order.length % 3));
  const count = Math.max(0, order.length - 2);
  const out = new Uint32Array(count * 3);
  for (let i = 0; i < count; i++) {
    if (mode === TRIANGLE_FAN) out.set([order[0]!, order[i + 1]!, order[i + 2]!], i * 3);
    else if (i % 2 === 0) out.set([order[i]!, order[i + 1]!, order[i + 2]!], i * 3);
    else out.set([order[i + 1]!, order[i]!, order[i + 2]!], i * 3);
  }
  return out;
}

/** The triangles wound the other way (a copy: the list may be the accessor's own array). */
function flipped(indices: Uint32Array): Uint32Array {
  const out = indices.slice();
  for (let t = 0; t < out.length; t += 3) {
    out[t + 1] = indices[t + 2]!;
    out[t + 2] = indices[t + 1]!;
  }
  return out;
}
