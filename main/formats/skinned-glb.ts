// A skinned character with its clips as glTF 2.0 binary (GLB), from plain data: the mesh (a primitive per part)
// skinned to every bone (rest in the bind pose), and each clip an animation of the bones' rotations and
// positions. The export makes Godot's and a plain folder's GLB of the service's FBX clips with it
// (fbx-read.ts reads them).
import { Document, NodeIO, type Node } from '@gltf-transform/core';
import type { CharacterModel, SampledTake } from './fbx-read.ts';
import { inverseRigid, localRest } from './rig-math.ts';

export async function writeSkinnedGlb(
  model: CharacterModel,
  takes: readonly SampledTake[],
  name: string,
): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene(name);
  doc.getRoot().setDefaultScene(scene);
  const { bones } = model;
  const vertexCount = model.positions.length / 3;

  // ---- bones: local rest transforms from the world ones ----
  const nodes: Node[] = bones.map((b) => doc.createNode(b.name));
  const local = localRest(bones);
  for (const [i, b] of bones.entries()) {
    nodes[i]!.setTranslation(local[i]!.t).setRotation(local[i]!.r);
    if (b.parent >= 0) nodes[b.parent]!.addChild(nodes[i]!);
    else scene.addChild(nodes[i]!);
  }
  const ibm = new Float32Array(bones.length * 16);
  for (const [i, b] of bones.entries()) ibm.set(inverseRigid(b.r, b.t), i * 16);
  const skin = doc
    .createSkin('skeleton')
    .setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
  for (const node of nodes) skin.addJoint(node);

  // ---- the mesh ----
  const attribute = (type: 'VEC3' | 'VEC4', array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const position = attribute('VEC3', Float32Array.from(model.positions));
  const normal = attribute('VEC3', Float32Array.from(model.normals));
  const joints = attribute('VEC4', Uint16Array.from(model.joints));
  const weights = attribute('VEC4', Float32Array.from(model.weights));
  const mesh = doc.createMesh(name);
  for (const part of model.parts) {
    const wide = vertexCount > 65535;
    const indices = doc
      .createAccessor()
      .setType('SCALAR')
      .setArray(wide ? Uint32Array.from(part.indices) : Uint16Array.from(part.indices))
      .setBuffer(buffer);
    const material = doc
      .createMaterial(part.name)
      .setBaseColorFactor([...part.color.map((c) => Math.min(1, Math.max(0, c))), 1] as [
        number,
        number,
        number,
        number,
      ])
      .setMetallicFactor(0)
      .setRoughnessFactor(0.8);
    mesh.addPrimitive(
      doc
        .createPrimitive()
        .setAttribute('POSITION', position)
        .setAttribute('NORMAL', normal)
        .setAttribute('JOINTS_0', joints)
        .setAttribute('WEIGHTS_0', weights)
        .setIndices(indices)
        .setMaterial(material),
    );
  }
  scene.addChild(doc.createNode(name).setMesh(mesh).setSkin(skin));

  // ---- the clips ----
  for (const take of takes) {
    const animation = doc.createAnimation(take.name);
    const input = doc.createAccessor().setType('SCALAR').setArray(Float32Array.from(take.times)).setBuffer(buffer);
    for (const track of take.tracks) {
      const target = nodes[track.bone];
      if (!target) continue;
      for (const [path, type, values] of [
        ['rotation', 'VEC4', track.rotations],
        ['translation', 'VEC3', track.translations],
      ] as const) {
        if (values.length === 0) continue;
        const sampler = doc
          .createAnimationSampler()
          .setInput(input)
          .setOutput(doc.createAccessor().setType(type).setArray(Float32Array.from(values)).setBuffer(buffer))
          .setInterpolation('LINEAR');
        animation.addSampler(sampler);
        animation.addChannel(
          doc.createAnimationChannel().setTargetNode(target).setTargetPath(path).setSampler(sampler),
        );
      }
    }
  }
  return new NodeIO().writeBinary(doc);
}
