// Small GLBs for the engine-fit check's tests, built with glTF Transform: a box of a given size and place,
// each face split into k×k quads, with or without UVs, normals, a texture of a given size, a skin.
import { Document, NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';

export interface BoxOptions {
  /** Width (X), height (Y), depth (Z) in metres. */
  size?: [number, number, number];
  /** Where the box's centre is. */
  centre?: [number, number, number];
  /** Quads along each face's side (triangles = 12 k²). */
  k?: number;
  uvs?: boolean;
  normals?: boolean;
  /** A base-colour texture of this many pixels. */
  texture?: [number, number];
  name?: string;
  /** Joints with a weight on every vertex (a skin of that many joints). */
  bones?: number;
  /** Extra triangles: one with a repeated corner, and a fin on one of the box's edges (three triangles on it). */
  broken?: boolean;
}

export async function boxDocument(o: BoxOptions = {}): Promise<Document> {
  const [w, h, d] = o.size ?? [1, 1, 1];
  const [cx, cy, cz] = o.centre ?? [0, 0, 0];
  const k = o.k ?? 1;
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  for (const axis of [0, 1, 2]) {
    for (const sign of [1, -1]) {
      const u = (axis + 1) % 3;
      const v = (axis + 2) % 3;
      const base = positions.length / 3;
      for (let i = 0; i <= k; i++) {
        for (let j = 0; j <= k; j++) {
          const p = [0, 0, 0];
          p[axis] = sign * 0.5;
          p[u] = i / k - 0.5;
          p[v] = j / k - 0.5;
          positions.push(cx + p[0]! * w, cy + p[1]! * h, cz + p[2]! * d);
          const n = [0, 0, 0];
          n[axis] = sign;
          normals.push(...n);
          uvs.push(i / k, j / k);
        }
      }
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) {
          const a = base + i * (k + 1) + j;
          const [b, c, e] = [a + k + 1, a + k + 2, a + 1];
          if (sign > 0) indices.push(a, b, c, a, c, e);
          else indices.push(a, c, b, a, e, c);
        }
      }
    }
  }
  if (o.broken) {
    // A triangle with a repeated corner; and a fin: a third triangle on the edge of the first face's first quad.
    indices.push(0, 0, 1);
    const fin = positions.length / 3;
    positions.push(cx, cy + h * 3, cz);
    normals.push(0, 1, 0);
    uvs.push(0, 0);
    indices.push(0, 1, fin);
  }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (
    type: 'VEC2' | 'VEC3' | 'VEC4' | 'SCALAR',
    array: Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>,
  ) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array(positions)))
    .setIndices(accessor('SCALAR', new Uint32Array(indices)));
  if (o.normals !== false) prim.setAttribute('NORMAL', accessor('VEC3', new Float32Array(normals)));
  if (o.uvs !== false) prim.setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array(uvs)));
  const material = doc.createMaterial('Body');
  if (o.texture) {
    const [tw, th] = o.texture;
    const png = await sharp({ create: { width: tw, height: th, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    material.setBaseColorTexture(doc.createTexture('colour').setImage(new Uint8Array(png)).setMimeType('image/png'));
  }
  prim.setMaterial(material);
  const mesh = doc.createMesh(o.name ?? 'Box').addPrimitive(prim);
  const node = doc.createNode(o.name ?? 'Box').setMesh(mesh);
  const scene = doc.createScene('Scene').addChild(node);
  doc.getRoot().setDefaultScene(scene);
  if (o.bones !== undefined) {
    const count = positions.length / 3;
    const joints = new Uint16Array(count * 4);
    const weights = new Float32Array(count * 4);
    const skin = doc.createSkin('Skin');
    for (let j = 0; j < Math.max(o.bones, 1); j++) {
      const bone = doc.createNode(`bone_${j}`);
      scene.addChild(bone);
      skin.addJoint(bone);
    }
    for (let v = 0; v < count; v++) {
      for (let s = 0; s < 4; s++) {
        joints[v * 4 + s] = Math.min(s, o.bones - 1);
        weights[v * 4 + s] = s < o.bones ? 1 / o.bones : 0;
      }
    }
    prim.setAttribute('JOINTS_0', accessor('VEC4', joints)).setAttribute('WEIGHTS_0', accessor('VEC4', weights));
    node.setSkin(skin);
  }
  return doc;
}

export async function boxGlb(o: BoxOptions = {}): Promise<Uint8Array> {
  return new NodeIO().writeBinary(await boxDocument(o));
}
