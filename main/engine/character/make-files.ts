// The files of an uploaded character, made once when its session starts: the FBX read (read-fbx.ts), rigged
// first when it has no skeleton (rigging/auto-rig.ts: a humanoid standing upright, else why not), its
// rig (rig.ts), and written into the file store: the character as JSON (the GLBs of its clips are made
// from it when first downloaded), its front view at the render's and the thumbnail's sizes, and the 17
// joints on that render.
import { readFile, stat } from 'node:fs/promises';

/** The FBX loader holds the file, as text of a data URL and parsed: larger characters are refused with why. */
const MAX_READ_BYTES = 256 * 2 ** 20;
import type { JointName } from '../../../shared/contract/animation.ts';
import type { FileStore } from '../file-store.ts';
import { fbxEntries } from './judge.ts';
import type { CharacterModel } from '../../formats/character.ts';
import { triangleCount } from './model.ts';
import { FbxUnreadable, readFbxCharacter } from './read-fbx.ts';
import { isRig, rigOf } from './rig.ts';
import { autoRig, NotHumanoid } from '../rigging/auto-rig.ts';
import { frontView, jointPixels, renderCharacter } from './render.ts';

export interface CharacterFiles {
  /** Keys in the file store. */
  model: string;
  render: string;
  thumbnail: string;
  joints: Record<JointName, [number, number]>;
  bones: number;
  triangles: number;
  /** Whether the engine rigged it (it had no skeleton). */
  rigged?: boolean;
}

export interface CharacterWork {
  /** The stored upload, and its format. */
  path: string;
  format: 'fbx' | 'zip';
  /** The FBX in the zip to read. */
  entry?: string;
  owner: string;
  renderSize: number;
  thumbnailSize: number;
}

/** Makes the files, or says why the character cannot be animated (completing "<the upload> …"). */
export async function makeCharacterFiles(
  files: FileStore,
  work: CharacterWork,
): Promise<CharacterFiles | { error: string }> {
  let bytes: Buffer;
  let source: string;
  if (work.format === 'zip') {
    const [entry] = await fbxEntries(work.path, work.entry);
    if (entry === undefined) return { error: `has no ${work.entry ?? 'FBX file'} any more` };
    ({ bytes, name: source } = entry);
  } else {
    const size = (await stat(work.path)).size;
    if (size > MAX_READ_BYTES)
      return {
        error: `is ${(size / 2 ** 20).toFixed(0)} MiB: the local engine reads characters of up to ${MAX_READ_BYTES / 2 ** 20} MiB (the service takes larger ones). Export it without embedded media, or with fewer polygons`,
      };
    bytes = await readFile(work.path);
    source = 'upload.fbx';
  }
  let model: CharacterModel;
  try {
    model = await readFbxCharacter(bytes, source);
  } catch (error) {
    if (error instanceof FbxUnreadable)
      return { error: `could not be read as an FBX file (${error.message}). Export it again from your 3D tool` };
    throw error;
  }
  const rigged = model.bones.length === 0;
  if (rigged) {
    try {
      model = autoRig(model).model;
    } catch (error) {
      if (error instanceof NotHumanoid) return { error: `has no skeleton and ${error.message}` };
      throw error;
    }
  }
  const rig = rigOf(model);
  if (!isRig(rig)) return { error: rig.problem };
  const view = frontView(model, rig, work.renderSize);
  const keys = {
    model: `${work.owner}/character.json`,
    render: `${work.owner}/render.png`,
    thumbnail: `${work.owner}/thumbnail.png`,
  };
  await files.put(keys.model, Buffer.from(JSON.stringify(model)));
  await files.put(keys.render, renderCharacter(model, view));
  await files.put(keys.thumbnail, renderCharacter(model, frontView(model, rig, work.thumbnailSize)));
  return {
    ...keys,
    joints: jointPixels(rig, view),
    bones: model.bones.length,
    triangles: triangleCount(model),
    ...(rigged ? { rigged } : {}),
  };
}
