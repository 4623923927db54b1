// What the engine-fit check needs to know of a model, measured once from its glTF document: triangles, box,
// origin, surfaces (world and UV area, for texel density), textures and their sizes, attributes present, broken
// triangles, names and skin weights. Plain data (it crosses from the worker thread); check.ts judges it.
import type { Accessor, Document, Material, Node, Primitive } from '@gltf-transform/core';

const TRIANGLES = 4;
const TRIANGLE_STRIP = 5;
const TRIANGLE_FAN = 6;

export interface TextureFact {
  /** The texture's name, else its slot and material ("baseColor of Body"). */
  name: string;
  /** baseColor, normal, metallicRoughness, occlusion, emissive. */
  slot: string;
  width: number;
  height: number;
}

export interface ModelFacts {
  triangles: number;
  /** The box of every triangle in world space (metres: glTF's unit), Y up. */
  min: [number, number, number];
  max: [number, number, number];
  /** Surface of the triangles in world space, m². */
  worldArea: number;
  /**
   * For texel density: the sum over textured triangles of their UV area (0..1 squared) times the pixels of
   * the largest texture of their material, and the world area of those triangles (m²).
   */
  texelPixels: number;
  texelWorldArea: number;
  /** The centre of the surface (area-weighted), for the facing guess. */
  surfaceCentre: [number, number, number];
  textures: TextureFact[];
  /** Primitives without TEXCOORD_0: how many, and how many of them have a textured material. */
  withoutUvs: number;
  texturedWithoutUvs: number;
  withoutNormals: number;
  primitives: number;
  /** Triangles of no area (repeated index or collinear corners). */
  degenerate: number;
  /** Edges (corners welded by position) shared by more than two triangles. */
  nonManifoldEdges: number;
  /** Names of nodes, meshes, materials, textures and animations, as an engine would import them. */
  names: string[];
  /** The most joints with a weight above zero on one vertex (0: no skin). */
  maxBonesPerVertex: number;
  skinned: boolean;
  /** MSFT_lod or meshes named `_LOD1..`: the model carries its own LODs. */
  hasLods: boolean;
}

/** Measures the model's facts from its default scene (every node when it has none). */
export function modelFacts(doc: Document): ModelFacts {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const nodes: Node[] = [];
  if (scene !== undefined) scene.traverse((node) => void nodes.push(node));
  else nodes.push(...root.listNodes());

  const acc = new Measure();
  const texturePixels = new Map<unknown, number>();
  for (const material of root.listMaterials()) {
    let largest = 0;
    for (const t of texturesOf(material)) {
      const size = t.texture.getSize();
      if (size) largest = Math.max(largest, size[0] * size[1]);
    }
    texturePixels.set(material, largest);
  }
  for (const node of nodes) {
    const mesh = node.getMesh();
    if (mesh === null) continue;
    const matrix = node.getSkin() === null ? node.getWorldMatrix() : undefined;
    for (const primitive of mesh.listPrimitives()) acc.primitive(primitive, matrix, texturePixels);
  }

  const textures: TextureFact[] = [];
  const seen = new Set<unknown>();
  for (const material of root.listMaterials()) {
    for (const { slot, texture } of texturesOf(material)) {
      if (seen.has(texture)) continue;
      seen.add(texture);
      const [width, height] = texture.getSize() ?? [0, 0];
      textures.push({
        name: texture.getName() || `${slot} of ${material.getName() || 'a material'}`,
        slot,
        width,
        height,
      });
    }
  }
  const names = [
    ...root.listNodes().map((n) => n.getName()),
    ...root.listMeshes().map((m) => m.getName()),
    ...root.listMaterials().map((m) => m.getName()),
    ...root.listAnimations().map((a) => a.getName()),
  ].filter((n) => n !== '');
  const used = root.listExtensionsUsed().map((e) => e.extensionName);
  return {
    ...acc.result(),
    textures,
    names: [...new Set(names)],
    skinned: root.listSkins().length > 0,
    hasLods: used.includes('MSFT_lod') || root.listMeshes().some((m) => /_LOD[1-9]$/i.test(m.getName())),
  };
}

function texturesOf(material: Material) {
  const slots = [
    ['baseColor', material.getBaseColorTexture()],
    ['normal', material.getNormalTexture()],
    ['metallicRoughness', material.getMetallicRoughnessTexture()],
    ['occlusion', material.getOcclusionTexture()],
    ['emissive', material.getEmissiveTexture()],
  ] as const;
  return slots.flatMap(([slot, texture]) => (texture ? [{ slot, texture }] : []));
}

type Vec3 = [number, number, number];

/** Sums what the triangles of every primitive say. */
class Measure {
  triangles = 0;
  min: Vec3 = [Infinity, Infinity, Infinity];
  max: Vec3 = [-Infinity, -Infinity, -Infinity];
  worldArea = 0;
  texelPixels = 0;
  texelWorldArea = 0;
  centre: Vec3 = [0, 0, 0];
  withoutUvs = 0;
  texturedWithoutUvs = 0;
  withoutNormals = 0;
  primitives = 0;
  degenerate = 0;
  maxBones = 0;
  /** Edge (two welded corner keys) → triangles using it. */
  edges = new Map<string, number>();

  primitive(primitive: Primitive, matrix: number[] | undefined, texturePixels: Map<unknown, number>): void {
    const mode = primitive.getMode();
    const position = primitive.getAttribute('POSITION');
    if (position === null || (mode !== TRIANGLES && mode !== TRIANGLE_STRIP && mode !== TRIANGLE_FAN)) return;
    this.primitives += 1;
    const uv = primitive.getAttribute('TEXCOORD_0');
    const pixels = texturePixels.get(primitive.getMaterial()) ?? 0;
    if (uv === null) {
      this.withoutUvs += 1;
      if (pixels > 0) this.texturedWithoutUvs += 1;
    }
    if (primitive.getAttribute('NORMAL') === null) this.withoutNormals += 1;
    this.bones(primitive);
    const p = worldPoints(position, matrix);
    const t = uv === null ? undefined : floats(uv, 2);
    const tri = triangleList(primitive, mode, position.getCount());
    for (let i = 0; i + 2 < tri.length; i += 3) {
      const [a, b, c] = [tri[i]!, tri[i + 1]!, tri[i + 2]!];
      this.triangles += 1;
      for (const v of [a, b, c]) {
        for (let k = 0; k < 3; k++) {
          const x = p[v * 3 + k]!;
          if (x < this.min[k]!) this.min[k] = x;
          if (x > this.max[k]!) this.max[k] = x;
        }
      }
      const area = triangleArea(p, a, b, c);
      if (a === b || b === c || a === c || area <= 1e-12) {
        this.degenerate += 1;
        continue;
      }
      this.worldArea += area;
      for (let k = 0; k < 3; k++) this.centre[k]! += (area * (p[a * 3 + k]! + p[b * 3 + k]! + p[c * 3 + k]!)) / 3;
      if (t !== undefined && pixels > 0) {
        this.texelPixels += uvArea(t, a, b, c) * pixels;
        this.texelWorldArea += area;
      }
      const keys = [key(p, a), key(p, b), key(p, c)];
      for (let e = 0; e < 3; e++) {
        const [u, w] = [keys[e]!, keys[(e + 1) % 3]!];
        const edge = u < w ? `${u}|${w}` : `${w}|${u}`;
        this.edges.set(edge, (this.edges.get(edge) ?? 0) + 1);
      }
    }
  }

  bones(primitive: Primitive): void {
    const sets = primitive
      .listSemantics()
      .filter((s) => s.startsWith('WEIGHTS_'))
      .map((s) => primitive.getAttribute(s)!);
    if (sets.length === 0) return;
    const element: number[] = [];
    for (let v = 0; v < sets[0]!.getCount(); v++) {
      let n = 0;
      for (const weights of sets) {
        weights.getElement(v, element);
        for (const x of element) if (x > 1e-4) n += 1;
      }
      if (n > this.maxBones) this.maxBones = n;
    }
  }

  result() {
    const none = this.triangles === 0;
    const area = this.worldArea || 1;
    return {
      triangles: this.triangles,
      min: none ? ([0, 0, 0] as Vec3) : this.min,
      max: none ? ([0, 0, 0] as Vec3) : this.max,
      worldArea: this.worldArea,
      texelPixels: this.texelPixels,
      texelWorldArea: this.texelWorldArea,
      surfaceCentre: this.centre.map((c) => c / area) as Vec3,
      withoutUvs: this.withoutUvs,
      texturedWithoutUvs: this.texturedWithoutUvs,
      withoutNormals: this.withoutNormals,
      primitives: this.primitives,
      degenerate: this.degenerate,
      nonManifoldEdges: [...this.edges.values()].filter((n) => n > 2).length,
      maxBonesPerVertex: this.maxBones,
    };
  }
}

/** A corner's position as a key, to 0.1 mm: corners split only by their UV or normal are one corner. */
function key(p: Float64Array, v: number): string {
  return `${Math.round(p[v * 3]! * 1e4)},${Math.round(p[v * 3 + 1]! * 1e4)},${Math.round(p[v * 3 + 2]! * 1e4)}`;
}

function triangleArea(p: Float64Array, a: number, b: number, c: number): number {
  const ux = p[b * 3]! - p[a * 3]!;
  const uy = p[b * 3 + 1]! - p[a * 3 + 1]!;
  const uz = p[b * 3 + 2]! - p[a * 3 + 2]!;
  const vx = p[c * 3]! - p[a * 3]!;
  const vy = p[c * 3 + 1]! - p[a * 3 + 1]!;
  const vz = p[c * 3 + 2]! - p[a * 3 + 2]!;
  return Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 2;
}

function uvArea(t: Float64Array, a: number, b: number, c: number): number {
  const ux = t[b * 2]! - t[a * 2]!;
  const uy = t[b * 2 + 1]! - t[a * 2 + 1]!;
  const vx = t[c * 2]! - t[a * 2]!;
  const vy = t[c * 2 + 1]! - t[a * 2 + 1]!;
  return Math.abs(ux * vy - uy * vx) / 2;
}

function floats(accessor: Accessor, size: number): Float64Array {
  const out = new Float64Array(accessor.getCount() * size);
  const element: number[] = [];
  for (let i = 0; i < accessor.getCount(); i++) {
    accessor.getElement(i, element);
    for (let k = 0; k < size; k++) out[i * size + k] = element[k] ?? 0;
  }
  return out;
}

/** Positions in world space (a skinned mesh: as stored, its bind pose). */
function worldPoints(position: Accessor, m: number[] | undefined): Float64Array {
  const p = floats(position, 3);
  if (m === undefined) return p;
  for (let i = 0; i < p.length; i += 3) {
    const [x, y, z] = [p[i]!, p[i + 1]!, p[i + 2]!];
    p[i] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    p[i + 1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    p[i + 2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
  }
  return p;
}

/** The primitive's triangles as a list of corner indices (strips and fans unrolled). */
function triangleList(primitive: Primitive, mode: number, count: number): Uint32Array {
  const indices = primitive.getIndices();
  const order =
    indices === null ? Uint32Array.from({ length: count }, (_, i) => i) : Uint32Array.from(indices.getArray() ?? []);
  if (mode === TRIANGLES) return order;
  const out: number[] = [];
  for (let i = 2; i < order.length; i++) {
    if (mode === TRIANGLE_FAN) out.push(order[0]!, order[i - 1]!, order[i]!);
    else if (i % 2 === 0) out.push(order[i - 2]!, order[i - 1]!, order[i]!);
    else out.push(order[i - 1]!, order[i - 2]!, order[i]!);
  }
  return Uint32Array.from(out);
}
