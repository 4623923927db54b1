// The FBX check before an animation upload: the picked file is opened in a small viewer from the File
// itself (nothing is uploaded) and its box is compared with the service's reference pose: a character
// standing up (Y up), facing forward (+Z), so taller than it is deep, and wider (arms) than deep (said of a
// humanoid character only: a chair or a prop has no such pose to compare). Its
// skeleton is read from its bytes (shared/fbx-bones.ts) and its bone names matched to the 17 body joints
// (shared/skeleton-names.ts, the table the engine uses): no bones, or not a humanoid, is warned about. A zip
// is checked by the FBX files inside it: a zip of static props (no FBX with bones) is warned about.
import { fbxBones } from '../../shared/fbx-bones.ts';
import { humanoidOf } from '../../shared/skeleton-names.ts';
import { loadBabylon } from './load-babylon.ts';
import type { ModelStats } from './types.ts';
import { fbxFilesOfZip } from './zip-fbx.ts';

export interface FbxCheck {
  /** The model's facts; undefined for a zip (not shown in 3D). */
  stats?: ModelStats;
  bones: number;
  warnings: string[];
}

/** As the engine: a skeleton with fewer bones cannot be a body (character/judge.ts). */
const MIN_BODY_BONES = 14;

/**
 * A mesh with no bones (a generated model among them), said before anything is sent, true of what happens (#32
 * item 1): it is rigged before it is animated; the local engine rigs one humanoid standing upright itself and
 * refuses another shape with why (it never animates a stand-in figure in its place).
 */
export const NO_BONES_WARNING =
  "It has no bones (no skeleton), so it is rigged before it is animated: the local engine rigs one humanoid standing upright (feet apart, arms away from the body) by itself, a procedural stand-in for the service's rigging, and refuses another shape with why (it never animates a stand-in figure instead of your model). To choose the rig yourself, rig it first (e.g. with Mixamo's auto-rigger or Blender's Rigify) and export it with its armature.";

/** What the bone names say about animating the file: nothing when it is a rigged humanoid. */
export function skeletonWarnings(bones: string[], skinned: boolean): string[] {
  if (bones.length === 0) {
    return [NO_BONES_WARNING];
  }
  const { missing } = humanoidOf(bones);
  const warnings: string[] = [];
  if (missing.length > 0 && bones.length >= MIN_BODY_BONES) {
    warnings.push(
      `Its ${bones.length} bones are not named like a humanoid rig the engine knows (no bone named for ${missing.join(', ')}): the local engine will look for the body's joints by where the bones are, and refuses the upload if it finds no two legs, two arms and a head.`,
    );
  } else if (missing.length > 0) {
    warnings.push(
      `Its skeleton (${bones.length} ${bones.length === 1 ? 'bone' : 'bones'}) is not a humanoid: no bone for ${missing.join(', ')}. Only humanoid rigs named like Mixamo, Unreal, Unity, Rigify or Quaternius ones (Hips, LeftUpLeg, thigh_l, UpperArm.L…) can be animated.`,
    );
  }
  if (!skinned)
    warnings.push('Its bones bind no mesh (no skin): nothing would move. Export it with the armature modifier (skin).');
  return warnings;
}

/** The check of a zip: the FBX files in it, judged by their skeletons (the first rigged humanoid wins). */
export async function checkZip(file: Blob): Promise<FbxCheck> {
  const entries = await fbxFilesOfZip(file);
  if (entries.length === 0)
    return { bones: 0, warnings: ['The zip holds no FBX file: put the rigged character (an .fbx file) in it.'] };
  const judged = entries.map((e) => ({ name: e.name, ...fbxBones(e.bytes) }));
  const character = judged.find((j) => j.bones.length > 0 && skeletonWarnings(j.bones, j.skinned).length === 0);
  if (character) return { bones: character.bones.length, warnings: [] };
  if (judged.every((j) => j.bones.length === 0)) {
    return {
      bones: 0,
      warnings: [
        `The zip holds ${entries.length === 1 ? 'one FBX file' : `${entries.length} FBX files`} and none has bones: ${entries.length === 1 ? 'a static mesh' : 'static props'} cannot be animated, and the local engine refuses the upload with that reason. Upload one rigged humanoid character.`,
      ],
    };
  }
  const rigged = judged.find((j) => j.bones.length > 0)!;
  return {
    bones: rigged.bones.length,
    warnings: skeletonWarnings(rigged.bones, rigged.skinned).map((w) => `${rigged.name}: ${w}`),
  };
}

/**
 * What looks wrong about a character's orientation, in words (empty when it matches the reference pose). Said
 * only of a character, a model whose bones name a humanoid's joints: only there do its proportions say how it
 * lies. Any other model (a generated chair, a prop, a quadruped) may well be wider or deeper than tall, and
 * its skeleton's warnings already say why it cannot be animated as it is.
 */
export function poseWarnings(stats: ModelStats, bones: readonly string[]): string[] {
  const warnings = stats.meshes === 0 ? ['It has no mesh.'] : [];
  if (!humanoidOf(bones).humanoid) return warnings;
  const [x, y, z] = stats.size;
  const box = `${fmt(x)} × ${fmt(y)} × ${fmt(z)}`;
  if (y < 0.6 * Math.max(x, z))
    warnings.unshift(
      `This character is ${Math.max(x, z) > x ? 'much deeper' : 'much wider'} than tall (${box}): it probably lies down, e.g. exported Z up. Export it Y up, standing, facing forward (+Z).`,
    );
  else if (z > 1.3 * x)
    warnings.unshift(
      `This character is deeper than wide (${box}): it may face sideways. Turn it to face forward (+Z), like the reference pose.`,
    );
  return warnings;
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));

export interface FbxChecker {
  check(file: File): Promise<FbxCheck>;
  dispose(): void;
}

/** A small viewer on the canvas that opens picked files (Babylon is loaded on first use). */
export async function createFbxChecker(canvas: HTMLCanvasElement): Promise<FbxChecker> {
  const { createViewer } = await loadBabylon();
  const viewer = createViewer(canvas);
  return {
    async check(file) {
      if (/\.zip$/i.test(file.name)) return checkZip(file);
      const stats = await viewer.load({ files: [file] });
      const skeleton = fbxBones(new Uint8Array(await file.arrayBuffer()));
      return {
        stats,
        bones: Math.max(viewer.boneCount(), skeleton.bones.length),
        warnings: [...skeletonWarnings(skeleton.bones, skeleton.skinned), ...poseWarnings(stats, skeleton.bones)],
      };
    },
    dispose: () => viewer.dispose(),
  };
}
