// glTF 2.0 binary (GLB) of a polygon mesh and its material: quads become triangle pairs (glTF has no quads);
// textures are embedded PNGs (base colour, and for PBR metallic-roughness and a normal map).
import { BinaryBody, bounds, dataAccessor, GL } from '../../formats/glb.ts';
import { LINEAR_CLAMPED, meshAccessors, modelGlb } from './glb.ts';
import { type MeshMaterial, type PolygonMesh, triangulate, uvTangents } from './polygon-mesh.ts';

export function buildPolygonGlb(mesh: PolygonMesh, material: MeshMaterial): Buffer {
  const triangles = triangulate(mesh);
  const bin = new BinaryBody();
  const accessors = meshAccessors(bin, mesh, triangles, bounds(mesh.positions));
  // A normal map needs a tangent space; it is given rather than left to each viewer to generate.
  const tangents =
    material.normal !== undefined
      ? accessors.push(dataAccessor(bin, uvTangents(mesh, triangles), 'VEC4', GL.ARRAY_BUFFER)) - 1
      : undefined;
  const images: { bufferView: number; mimeType: string }[] = [];
  const texture = (png: Buffer | undefined) => {
    if (png === undefined) return undefined;
    images.push({ bufferView: bin.add(png), mimeType: 'image/png' });
    return { index: images.length - 1 };
  };
  const baseColorTexture = texture(material.baseColor);
  const metallicRoughnessTexture = texture(material.metallicRoughness);
  const normalTexture = texture(material.normal);
  const pbrMetallicRoughness = {
    ...(baseColorTexture ? { baseColorTexture } : { baseColorFactor: [...material.color.map(srgbToLinear), 1] }),
    ...(metallicRoughnessTexture
      ? { metallicRoughnessTexture, metallicFactor: 1, roughnessFactor: 1 }
      : { metallicFactor: 0, roughnessFactor: 0.8 }),
  };
  return modelGlb(bin, accessors, tangents !== undefined ? { TANGENT: tangents } : {}, {
    materials: [{ name: 'material', pbrMetallicRoughness, ...(normalTexture && { normalTexture }) }],
    ...(images.length > 0 && {
      textures: images.map((_, i) => ({ sampler: 0, source: i })),
      samplers: [LINEAR_CLAMPED],
      images,
    }),
  });
}

/** glTF factors are linear; colours measured on a picture are sRGB. */
export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
