// Models made for the game-ready tests and the LOD bench: a bumpy UV sphere (a seam where u wraps, open poles
// welded) of about `triangles` triangles, with a PBR material whose maps (base colour, normal, metallic/roughness)
// are `mapSize` pixels, made with sharp. `radiusAt` is its true surface, to measure a simplified mesh's error.
import { Document, NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';

/** The sphere's true radius in a direction (unit vector): 1 with bumps of 5 %. */
export function radiusAt(x: number, y: number, z: number): number {
  return 1 + 0.05 * Math.sin(6 * x) * Math.sin(6 * y) * Math.sin(6 * z);
}

export interface SphereOptions {
  triangles: number;
  mapSize?: number;
  /** Skinned on two joints (one bone at the root, one at the top) with a clip. */
  skinned?: boolean;
}

export async function sphereGlb(options: SphereOptions): Promise<Uint8Array> {
  const doc = sphereDocument(options);
  if (options.mapSize) await addPbrMaps(doc, options.mapSize);
  return new NodeIO().writeBinary(doc);
}

export function sphereDocument({ triangles, skinned }: SphereOptions): Document {
  // rings × segments quads, two triangles each.
  const segments = Math.max(8, Math.round(Math.sqrt(triangles)));
  const rings = Math.max(4, Math.round(triangles / segments / 2));
  const count = (rings + 1) * (segments + 1);
  const pos = new Float32Array(count * 3);
  const nor = new Float32Array(count * 3);
  const uv = new Float32Array(count * 2);
  for (let r = 0; r <= rings; r++) {
    const theta = (Math.PI * r) / rings;
    for (let s = 0; s <= segments; s++) {
      const phi = (2 * Math.PI * s) / segments;
      const d = [Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi)] as const;
      const rad = radiusAt(d[0], d[1], d[2]);
      const v = r * (segments + 1) + s;
      pos.set([d[0] * rad, d[1] * rad, d[2] * rad], v * 3);
      nor.set(d, v * 3);
      uv.set([s / segments, r / rings], v * 2);
    }
  }
  const idx = new Uint32Array(rings * segments * 6);
  let k = 0;
  for (let r = 0; r < rings; r++)
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s;
      const b = a + segments + 1;
      idx.set([a, b, a + 1, a + 1, b, b + 1], k);
      k += 6;
    }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(pos).setBuffer(buffer))
    .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(nor).setBuffer(buffer))
    .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uv).setBuffer(buffer))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(idx).setBuffer(buffer))
    .setMaterial(doc.createMaterial('material'));
  const mesh = doc.createMesh('sphere').addPrimitive(prim);
  const node = doc.createNode('sphere').setMesh(mesh);
  const scene = doc.createScene().addChild(node);
  doc.getRoot().setDefaultScene(scene);
  if (skinned) {
    const joints = new Uint8Array(count * 4);
    const weights = new Float32Array(count * 4);
    for (let v = 0; v < count; v++) {
      const up = (pos[v * 3 + 1]! + 1) / 2;
      joints.set([0, 1, 0, 0], v * 4);
      weights.set([1 - Math.min(1, Math.max(0, up)), Math.min(1, Math.max(0, up)), 0, 0], v * 4);
    }
    prim
      .setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(buffer))
      .setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buffer));
    const root = doc.createNode('root');
    const top = doc.createNode('top').setTranslation([0, 1, 0]);
    root.addChild(top);
    scene.addChild(root);
    const ibm = new Float32Array([
      1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
    ]);
    const skin = doc
      .createSkin('skin')
      .addJoint(root)
      .addJoint(top)
      .setSkeleton(root)
      .setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
    node.setSkin(skin);
    const sampler = doc
      .createAnimationSampler()
      .setInput(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Float32Array([0, 1]))
          .setBuffer(buffer),
      )
      .setOutput(
        doc
          .createAccessor()
          .setType('VEC3')
          .setArray(new Float32Array([0, 1, 0, 0, 1.5, 0]))
          .setBuffer(buffer),
      );
    doc
      .createAnimation('stretch')
      .addSampler(sampler)
      .addChannel(doc.createAnimationChannel().setTargetNode(top).setTargetPath('translation').setSampler(sampler));
  }
  return doc;
}

/** A base colour, a normal and a metallic/roughness map of `size` pixels on the sphere's material. */
async function addPbrMaps(doc: Document, size: number): Promise<void> {
  const make = async (r: number, g: number, b: number) =>
    new Uint8Array(
      await sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer(),
    );
  const material = doc.getRoot().listMaterials()[0]!;
  const tex = async (name: string, rgb: [number, number, number]) =>
    doc
      .createTexture(name)
      .setImage(await make(...rgb))
      .setMimeType('image/png')
      .setURI(`${name}.png`);
  material
    .setBaseColorTexture(await tex('mesh_basecolor', [200, 120, 40]))
    .setNormalTexture(await tex('mesh_normal', [128, 128, 255]))
    .setMetallicRoughnessTexture(await tex('mesh_metallic_roughness', [0, 153, 255]));
}
