// The retopology's GLB (the `glb_url` of its output asset, beside the OBJ): the same vertices, quads split into
// two triangles each (glTF has no quads), one primitive per material with its base colour and, when the input
// had one, its base-colour texture. Written with glTF Transform.
import { Document, Logger, NodeIO, type Texture } from '@gltf-transform/core';
import { GENERATOR } from '../outputs/mesh.ts';
import { type FaceMesh, faceTriangles } from '../../mesh/mesh.ts';

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

export async function writeGlb(mesh: FaceMesh, name: string): Promise<Uint8Array> {
  const doc = new Document();
  doc.setLogger(new Logger(Logger.Verbosity.ERROR));
  doc.getRoot().getAsset().generator = GENERATOR;
  const buffer = doc.createBuffer();
  const position = doc
    .createAccessor('POSITION')
    .setType('VEC3')
    .setArray(new Float32Array(mesh.positions))
    .setBuffer(buffer);
  const uv =
    mesh.uvs === undefined
      ? undefined
      : doc.createAccessor('TEXCOORD_0').setType('VEC2').setArray(new Float32Array(mesh.uvs)).setBuffer(buffer);

  // Triangles per material.
  const byMaterial = new Map<number, number[]>();
  const triangles = faceTriangles(mesh);
  for (let t = 0; t < triangles.length; t += 3) {
    const m = mesh.materialOf[triangles[t]!] ?? 0;
    let list = byMaterial.get(m);
    if (list === undefined) byMaterial.set(m, (list = []));
    list.push(triangles[t]!, triangles[t + 1]!, triangles[t + 2]!);
  }

  const textures = new Map<Uint8Array, Texture>();
  const gltfMesh = doc.createMesh(name);
  for (const [index, triangles] of [...byMaterial.entries()].sort((a, b) => a[0] - b[0])) {
    const source = mesh.materials[index];
    const material = doc.createMaterial(source?.name ?? `material_${index}`);
    material
      .setBaseColorFactor(source?.color ?? [0.8, 0.8, 0.8, 1])
      .setMetallicFactor(0)
      .setRoughnessFactor(0.8);
    if (source?.texture !== undefined && uv !== undefined) {
      let texture = textures.get(source.texture.bytes);
      if (texture === undefined) {
        texture = doc
          .createTexture(`${name}_${textures.size}`)
          .setImage(source.texture.bytes)
          .setMimeType(MIME[source.texture.extension] ?? source.texture.mimeType);
        textures.set(source.texture.bytes, texture);
      }
      material.setBaseColorTexture(texture);
    }
    const indices = doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(triangles)).setBuffer(buffer);
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', position)
      .setIndices(indices)
      .setMaterial(material);
    if (uv !== undefined) primitive.setAttribute('TEXCOORD_0', uv);
    gltfMesh.addPrimitive(primitive);
  }
  const node = doc.createNode(name).setMesh(gltfMesh);
  doc.getRoot().setDefaultScene(doc.createScene().addChild(node));
  return new NodeIO().writeBinary(doc);
}
