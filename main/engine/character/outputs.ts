// The downloadable files of an uploaded character, made from its stored JSON (make-files.ts) when first
// asked for: the FBX (as the service delivers them) and the GLB with the clips named (library labels or prompt texts, each read by motion-words.ts),
// and a static USDZ of its mesh.
import type { CharacterModel, SkinnedCharacter, TakeTrack } from '../../formats/character.ts';
import { writeSkinnedFbx } from '../../formats/fbx-skinned.ts';
import { writeSkinnedGlb } from '../../formats/skinned-glb.ts';
import { motionOfText } from '../motion-words.ts';
import { chooseMotion, isChoice } from '../motions/match.ts';
import { sampleMotion } from '../motions/sample.ts';
import { GENERATOR } from '../outputs/mesh.ts';
import type { PolygonMesh } from '../outputs/polygon-mesh.ts';
import { buildPolygonUsdz } from '../usdz.ts';
import { type ClipKeys, sampleClip } from './clip-keys.ts';
import { hangLimbs, isRig, rigOf, type Rig } from './rig.ts';

function parse(json: Buffer): CharacterModel {
  return humanHeight(JSON.parse(json.toString('utf8')) as CharacterModel);
}

/** A standing character's height, metres, when its size is not a person's (a unit mix-up, below or above these). */
const HUMAN = { min: 0.5, max: 3, height: 1.8 };

/**
 * The character at a person's size, as the animation service delivers its characters: one whose file makes it
 * shorter than 0.5 m or taller than 3 m (Male_Casual.fbx is 4.84 m: an armature scaled 100 times in a file in
 * centimetres) is scaled to 1.8 m tall, bones with it; any other keeps its size.
 */
function humanHeight(model: CharacterModel): CharacterModel {
  let low = Infinity;
  let high = -Infinity;
  for (let k = 1; k < model.positions.length; k += 3) {
    low = Math.min(low, model.positions[k]!);
    high = Math.max(high, model.positions[k]!);
  }
  const height = high - low;
  if (!(height > 0) || (height >= HUMAN.min && height <= HUMAN.max)) return model;
  const f = HUMAN.height / height;
  return {
    ...model,
    positions: model.positions.map((x) => x * f),
    bones: model.bones.map((b) => ({ ...b, t: [b.t[0] * f, b.t[1] * f, b.t[2] * f] })),
  };
}

/**
 * The stored character ready to move (rig.ts hangLimbs), named after its file, with a take per clip it can play
 * (named by the library label or the prompt's text; names motion-words.ts does not read are left out), keyed from
 * clip-keys.ts: the driven bones' rotations and the pelvis's position. The GLB and the FBX are written from it.
 */
function animatedCharacter(json: Buffer, clips: string[]): SkinnedCharacter {
  const stored = parse(json);
  const rig = rigOf(stored);
  if (!isRig(rig)) throw new Error(`the stored character ${stored.source} ${rig.problem}`);
  const model = hangLimbs(stored, rig);
  const takes = clips.flatMap((name) => {
    const keys = keysOfName(model, rig, name);
    if (!keys) return [];
    const tracks = keys.driven.map(
      (bone): TakeTrack => ({
        bone,
        rotations: keys.rotations.get(bone)!,
        ...(bone === keys.pelvis ? { translations: keys.hips } : {}),
      }),
    );
    if (!keys.driven.includes(keys.pelvis)) tracks.push({ bone: keys.pelvis, translations: keys.hips });
    return [{ name, times: keys.times, tracks }];
  });
  return { ...model, name: model.source.replace(/^.*[\\/]/, '').replace(/\.fbx$/i, '') || 'character', takes };
}

/**
 * The keys of a clip by its name: a library label (Idle, Walk…) is its procedural clip (motion-words.ts); any other
 * text the closest motion of the catalogue (motions/match.ts), as the prompt's answer said it would play.
 */
function keysOfName(model: CharacterModel, rig: Rig, name: string): ClipKeys | undefined {
  if (LIBRARY_LABELS.has(name)) {
    const spec = motionOfText(name);
    return spec && sampleClip(model, rig, spec);
  }
  const choice = chooseMotion(name);
  return isChoice(choice) ? sampleMotion(model, rig, choice) : undefined;
}

const LIBRARY_LABELS = new Set(['Idle', 'Walk', 'Run', 'Jump', 'Wave', 'Sit']);

/**
 * The program named in the FBX's header: the uploaded character with its skeleton (its own, or the one the engine
 * fitted). Not the engine's GENERATOR, which marks a model the engine generated (judge.ts).
 */
const FBX_CREATOR = 'Asset Studio animation (local engine)';

/** The character as GLB with a clip per name (the library label or the prompt's text). */
export function characterGlb(json: Buffer, clips: string[]): Buffer {
  return writeSkinnedGlb(animatedCharacter(json, clips), GENERATOR);
}

/** The character as FBX with a take per clip, as the service delivers it. */
export function characterFbx(json: Buffer, clips: string[]): Buffer {
  return writeSkinnedFbx(animatedCharacter(json, clips), FBX_CREATOR);
}

export function characterUsdz(json: Buffer): Buffer {
  const model = parse(json);
  const polygons = Uint32Array.from(model.parts.flatMap((p) => p.indices));
  const count = model.positions.length / 3;
  const mesh: PolygonMesh = {
    positions: Float32Array.from(model.positions),
    normals: Float32Array.from(model.normals),
    uvs: new Float32Array(count * 2),
    polygons,
    sizes: new Uint8Array(polygons.length / 3).fill(3),
    weld: Uint32Array.from({ length: count }, (_, i) => i),
  };
  const main = model.parts.reduce((a, b) => (b.indices.length > a.indices.length ? b : a), model.parts[0]!);
  return buildPolygonUsdz(mesh, { color: main.color });
}
