// The service's FBX clips (each the character with one take) read once (a few kept: the export panel plans again at
// every change of its options, and reading a character's FBX takes about a second), their takes gathered on the
// first clip's bones, and for Unity written as Unity's convention has them: one model FBX (the character, its mesh,
// skin and rig, no take) and one animation FBX per clip named `<Model>@<clip>.fbx`, holding the rig and the take
// only: Unity's importer finds the model's rig in it by the bones' names and makes one AnimationClip of each file,
// instead of a full mesh per clip. With a profile, the model is brought within its triangle budget first.
import { readFile, stat } from 'node:fs/promises';
import type { CharacterModel, SkinnedCharacter, Take } from '../formats/character.ts';
import { readFbxAnimated } from '../formats/fbx-read.ts';
import { writeSkinnedFbx } from '../formats/fbx-skinned.ts';
import { readSkinnedGlb } from '../formats/glb-skinned.ts';
import { writeSkinnedGlb } from '../formats/skinned-glb.ts';
import type { ClipSource } from './clips.ts';
import { ExportError, ioError, reason } from './errors.ts';
import { gameReadyFiles, type ProfileStep } from './gameready-files.ts';
import type { Prepared, PreparedFile } from './prepare.ts';

const CREATOR = 'Asset Studio export';

type Read = Awaited<ReturnType<typeof readFbxAnimated>>;
const readClips = new Map<string, Promise<Read>>();
const KEPT_CLIPS = 24;

/** An FBX clip read (by path and file identity: size, modification time), from the few kept when it was lately. */
export async function readFbxClip(path: string): Promise<Read> {
  const info = await stat(path).catch((error: unknown) => Promise.reject(ioError(path, 'reading a clip', error)));
  const key = `${path}\n${info.size}\n${info.mtimeMs}`;
  let read = readClips.get(key);
  if (read === undefined) {
    read = readFile(path)
      .catch((error: unknown) => Promise.reject(ioError(path, 'reading a clip', error)))
      .then((bytes) => readFbxAnimated(bytes, path))
      .catch((error: unknown) => {
        readClips.delete(key);
        if (error instanceof ExportError) throw error;
        throw new ExportError('unreadable-glb', {
          file: path,
          why: `cannot be read as an animated FBX to make the GLB (${reason(error)})`,
          fix: 'Download the job again, or export FBX',
          cause: error,
        });
      });
    readClips.set(key, read);
    while (readClips.size > KEPT_CLIPS) readClips.delete(readClips.keys().next().value!);
  }
  return read;
}

/**
 * Every clip's take on `base`'s bones (by name), named after the clip (made unique); a clip whose file has no such
 * take, or that moves a bone the model does not have, is added to `skipped` with why.
 */
export async function gatherTakes(
  base: CharacterModel,
  clips: readonly ClipSource[],
  skipped: { name: string; why: string }[],
): Promise<{ takes: Take[]; written: string[] }> {
  const boneIndex = new Map(base.bones.map((b, i) => [b.name, i]));
  const takes: Take[] = [];
  const written: string[] = [];
  for (const clip of clips) {
    const { model, takes: found } = await readFbxClip(clip.path);
    const take = clip.animation === undefined ? found[0] : found.find((t) => t.name === clip.animation);
    if (!take) {
      skipped.push({
        name: clip.name,
        why: clip.animation === undefined ? 'its file has no animation' : `its file has no take "${clip.animation}"`,
      });
      continue;
    }
    const missing = model.bones.find((b) => !boneIndex.has(b.name));
    if (missing) {
      skipped.push({ name: clip.name, why: `it moves a bone the model does not have ("${missing.name}")` });
      continue;
    }
    let name = clip.name || 'clip';
    for (let n = 2; written.includes(name); n++) name = `${clip.name || 'clip'} (${n})`;
    written.push(name);
    takes.push({
      name,
      times: take.times,
      tracks: take.tracks.map((t) => ({ ...t, bone: boneIndex.get(model.bones[t.bone]!.name)! })),
    });
  }
  return { takes, written };
}

/** Unity's model FBX and `<Model>@<clip>.fbx` animation files of FBX clips (see the module comment). */
export async function unityClipFiles<F extends PreparedFile>(
  files: readonly F[],
  clips: readonly ClipSource[],
  skipped: { name: string; why: string }[],
  step: Omit<ProfileStep, 'format'> | undefined,
): Promise<Prepared<F>> {
  const first = clips[0];
  if (first === undefined)
    throw new ExportError('nothing-to-export', {
      file: 'the clips',
      why: 'none is chosen',
      fix: 'Choose at least one clip',
    });
  const base = (await readFbxClip(first.path)).model;
  const { takes, written } = await gatherTakes(base, clips, skipped);
  const name = first.name || 'character';
  let character: SkinnedCharacter = { ...base, name, takes: [] };
  let gameReady: Prepared<F>['gameReady'];
  if (step !== undefined) {
    const ready = await gameReadyFiles(writeSkinnedGlb(character, CREATOR), first.path, {
      ...step,
      format: 'glb',
      lods: false,
    });
    const reduced = await readSkinnedGlb(ready.files[0]!.data, first.path);
    if (reduced !== undefined && sameBones(reduced, character)) character = { ...reduced, name, takes: [] };
    gameReady = ready.report;
  }
  const model: PreparedFile = {
    kind: 'fbx',
    path: first.path,
    name: 'model.fbx',
    data: writeSkinnedFbx(character, CREATOR),
  };
  const animations = takes.map(
    (take): PreparedFile => ({
      kind: 'fbx',
      path: first.path,
      name: `${take.name}.fbx`,
      clip: take.name,
      clipFile: 'at',
      data: writeSkinnedFbx({ ...character, takes: [take] }, CREATOR, { rigOnly: true }),
    }),
  );
  return {
    files: [...files.filter((f) => f.kind !== 'fbx' && f.kind !== 'glb'), ...([model, ...animations] as F[])],
    replaced: [],
    clips: { written, skipped },
    note: `One model FBX and one animation FBX per clip (${animations.length}) named <Model>@<clip>.fbx: Unity's convention, each clip plays on the model's rig`,
    ...(gameReady && { gameReady }),
  };
}

const sameBones = (a: { bones: { name: string }[] }, b: { bones: { name: string }[] }) =>
  a.bones.length === b.bones.length && a.bones.every((bone, i) => bone.name === b.bones[i]!.name);
