// glTF 2.0 binary (GLB) writer for the seeded mesh, with an optional embedded PNG base-colour texture.
// glTF has no quads: with `quads` the faces are the quads' triangle pairs.
import { BinaryBody, bounds, dataAccessor, GL, writeGlb } from '../../formats/glb.ts';
import { buildMesh, GENERATOR, type MeshOptions } from './mesh.ts';
import { renderTexture } from './pictures.ts';

export interface GlbOptions extends MeshOptions {
  /** Embed a PNG base-colour texture; otherwise the material has a plain seeded colour. */
  texture?: boolean;
}

/** The sampler of every texture the engine writes: linear, mipmapped, clamped at the edges. */
export const LINEAR_CLAMPED = {
  magFilter: GL.LINEAR,
  minFilter: GL.LINEAR_MIPMAP_LINEAR,
  wrapS: GL.CLAMP_TO_EDGE,
  wrapT: GL.CLAMP_TO_EDGE,
};

/** The GLB of `gltf` (its asset the engine's), with `accessors` and the bufferViews and buffer of `bin`. */
export function engineGlb(gltf: object, accessors: object[], bin: BinaryBody): Buffer {
  return writeGlb(gltf, accessors, bin, GENERATOR);
}

/**
 * The GLB of one node and mesh named 'model': one primitive of meshAccessors' POSITION, NORMAL, TEXCOORD_0 and
 * indices (`attributes` more) with material 0, and `materials` (textures, samplers, images too) as given.
 */
export function modelGlb(
  bin: BinaryBody,
  accessors: object[],
  attributes: Record<string, number>,
  materials: object,
): Buffer {
  const gltf = {
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: 'model', mesh: 0 }],
    meshes: [
      {
        name: 'model',
        primitives: [{ attributes: { POSITION: 0, NORMAL: 1, TEXCOORD_0: 2, ...attributes }, indices: 3, material: 0 }],
      },
    ],
    ...materials,
  };
  return engineGlb(gltf, accessors, bin);
}

/** The accessors of a triangle mesh: POSITION 0, NORMAL 1, TEXCOORD_0 2 and its indices 3, written into `bin`. */
export function meshAccessors(
  bin: BinaryBody,
  mesh: { positions: Float32Array; normals: Float32Array; uvs: Float32Array },
  triangles: Uint32Array,
  { min, max }: { min: number[]; max: number[] },
): Record<string, unknown>[] {
  const vertexCount = mesh.positions.length / 3;
  // The largest index value is reserved (primitive restart), so uint16 holds at most 65535 vertices.
  const indices = vertexCount <= 0xffff ? Uint16Array.from(triangles) : triangles;
  return [
    dataAccessor(bin, mesh.positions, 'VEC3', GL.ARRAY_BUFFER, { min, max }),
    dataAccessor(bin, mesh.normals, 'VEC3', GL.ARRAY_BUFFER),
    dataAccessor(bin, mesh.uvs, 'VEC2', GL.ARRAY_BUFFER),
    dataAccessor(bin, indices, 'SCALAR', GL.ELEMENT_ARRAY_BUFFER),
  ];
}

export function buildGlb(opts: GlbOptions): Buffer {
  const mesh = buildMesh(opts);
  const bin = new BinaryBody();
  const accessors = meshAccessors(bin, mesh, mesh.triangles, bounds(mesh.positions));
  const textured = opts.texture
    ? {
        textures: [{ sampler: 0, source: 0 }],
        samplers: [LINEAR_CLAMPED],
        images: [{ bufferView: bin.add(renderTexture(opts.seed)), mimeType: 'image/png' }],
      }
    : {};
  return modelGlb(
    bin,
    accessors,
    {},
    {
      materials: [
        {
          name: 'material',
          pbrMetallicRoughness: {
            ...(opts.texture ? { baseColorTexture: { index: 0 } } : { baseColorFactor: [...mesh.color, 1] }),
            metallicFactor: 0,
            roughnessFactor: 0.8,
          },
        },
      ],
      ...textured,
    },
  );
}
