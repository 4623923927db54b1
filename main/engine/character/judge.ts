// Is an animation upload a character the engine can animate? An FBX (or the FBX files of a zip) is judged
// from its bytes (fbx-bones.ts, milliseconds): a rigged humanoid is animated on its own skeleton; a mesh with
// no bones (an upload, or a model this engine generated) is rigged once read (rigging/, where what is not a
// humanoid standing upright is refused with why); a skeleton that is not a humanoid, bones with no skin or a
// zip of several static props is refused with why. The engine never animates a stand-in figure in the user's
// model's place.
import { open } from 'node:fs/promises';
import yauzl from 'yauzl';
import { humanoidOf } from '../../../shared/skeleton-names.ts';
import { bufferReader, fbxArrayProblem, fileReader } from '../../files/fbx-arrays.ts';
import { checkFbxZipSizes, InputProblem } from '../input-check.ts';
import { fbxBones, fbxBonesOfPiece, isBinaryFbx, mergeBones, type FbxBones } from '../../../shared/fbx-bones.ts';

export type Judgement =
  /** A rigged humanoid: `entry` is its path in the zip (undefined for an FBX upload). */
  | { kind: 'character'; entry?: string; bones: number }
  /** A mesh with no skeleton, to be rigged (rigging/auto-rig.ts) once read. */
  | { kind: 'mesh'; entry?: string }
  /** Why it cannot be animated, completing "<the upload> …". */
  | { kind: 'refused'; reason: string };

const MAX_ENTRY_BYTES = 512 * 2 ** 20;
/** Pelvis, head, and two bones each for hips, knees, ankles, shoulders, elbows, wrists could not be fewer. */
const MIN_BODY_BONES = 14;

export async function judgeUpload(path: string, format: 'fbx' | 'zip'): Promise<Judgement> {
  if (format === 'fbx') {
    const arrays = await fileArrayProblem(path); // declared array sizes, before a reader inflates any (FBX bombs)
    if (arrays !== undefined) return { kind: 'refused', reason: arrays };
    return judgeFbx(await readPieces(path));
  }
  try {
    await checkFbxZipSizes(path, MAX_ENTRY_BYTES); // declared sizes, before any entry is inflated (zip bombs)
  } catch (error) {
    if (error instanceof InputProblem) return { kind: 'refused', reason: error.reason };
    throw error;
  }
  const entries = await fbxEntries(path);
  if (entries.length === 0)
    return { kind: 'refused', reason: 'holds no FBX file: put the rigged character (an .fbx file) in the zip' };
  for (const { name, bytes } of entries) {
    const arrays = await fbxArrayProblem(bufferReader(bytes), bytes.length);
    if (arrays !== undefined) return { kind: 'refused', reason: `holds ${name}, which ${arrays}` };
  }
  const judged = entries.map(({ name, bytes }) => ({ name, judgement: judgeFbx(bytes) }));
  const character = judged.find((j) => j.judgement.kind === 'character');
  if (character)
    return { kind: 'character', entry: character.name, bones: (character.judgement as { bones: number }).bones };
  const meshes = judged.filter((j) => j.judgement.kind === 'mesh');
  if (meshes.length === 1 && judged.length === 1) return { kind: 'mesh', entry: meshes[0]!.name };
  const rigged = judged.filter((j) => j.judgement.kind === 'refused');
  if (rigged.length === 0) {
    return {
      kind: 'refused',
      reason:
        `holds ${entries.length} FBX files and none has a skeleton: they are static props (no bones), and the local engine rigs one character at a time. ` +
        'Upload one character: an FBX of a humanoid standing upright (the engine rigs it), or a rigged humanoid (an FBX with its armature and skin, e.g. from Mixamo or Blender)',
    };
  }
  return {
    kind: 'refused',
    reason: `holds no humanoid character: ${rigged[0]!.name} ${rigged[0]!.judgement.reason ?? ''}`,
  };
}

type Refusable =
  | { kind: 'character'; bones: number; reason?: undefined }
  | { kind: 'mesh'; reason?: undefined }
  | { kind: 'refused'; reason: string };

/** Why an FBX file's arrays cannot be read within MAX_FBX_ARRAY_BYTES (from their headers), if they cannot. */
async function fileArrayProblem(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    return await fbxArrayProblem(fileReader(handle), (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

/** An FBX file's head and bones, read 16 MiB at a time (overlapping by 1 KiB), so a large upload is never held whole. */
async function readPieces(path: string): Promise<{ head: Buffer; found: FbxBones }> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const piece = Buffer.alloc(Math.min(size, PIECE + OVERLAP));
    const parts: FbxBones[] = [];
    let head = Buffer.alloc(0);
    let binary = false;
    for (let at = 0; at < size; at += PIECE) {
      const { bytesRead } = await handle.read(piece, 0, Math.min(piece.length, size - at), at);
      const bytes = piece.subarray(0, bytesRead);
      if (at === 0) {
        head = Buffer.from(bytes.subarray(0, 64 * 1024));
        binary = isBinaryFbx(bytes);
      }
      parts.push(fbxBonesOfPiece(bytes, binary));
    }
    return { head, found: mergeBones(parts) };
  } finally {
    await handle.close();
  }
}

const PIECE = 16 * 2 ** 20;
const OVERLAP = 1024;

function judgeFbx(file: Buffer | { head: Buffer; found: FbxBones }): Refusable {
  const found = Buffer.isBuffer(file) ? fbxBones(file) : file.found;
  if (found.bones.length === 0) {
    // A mesh with no skeleton (a model this engine generated too): rigged once read, if it is a standing humanoid.
    if (found.mesh) return { kind: 'mesh' };
    return {
      kind: 'refused',
      reason:
        'has no skeleton and no mesh, so there is nothing to animate. Export the FBX with its mesh (and its armature and skin, if it is rigged)',
    };
  }
  if (!found.skinned)
    return {
      kind: 'refused',
      reason: `has ${found.bones.length} bones but no skin binds its mesh to them, so nothing would move. Export the FBX with the mesh's armature modifier (skin) included`,
    };
  const { missing } = humanoidOf(found.bones);
  // Names no table knows: a skeleton big enough for a body is looked at by where its bones are once it is read (rig.ts).
  if (missing.length > 0 && found.bones.length < MIN_BODY_BONES) {
    const shown = found.bones.slice(0, 6).join(', ') + (found.bones.length > 6 ? ', …' : '');
    return {
      kind: 'refused',
      reason:
        `has a skeleton (${found.bones.length} bones: ${shown}) that is not a humanoid: no bone was found for ${missing.join(', ')}, and a body needs ${MIN_BODY_BONES} bones at least. ` +
        'The local engine animates humanoid rigs (bones named like Mixamo, Unreal, Unity, Blender Rigify or Quaternius ones, e.g. Hips, LeftUpLeg, thigh_l, UpperArm.L, or placed like a body)',
    };
  }
  return { kind: 'character', bones: found.bones.length };
}

/** The FBX files of a zip (not macOS's resource forks), read whole. */
export async function fbxEntries(path: string, only?: string): Promise<{ name: string; bytes: Buffer }[]> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  const out: { name: string; bytes: Buffer }[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      if (
        !/\.fbx$/i.test(entry.fileName) ||
        entry.fileName.startsWith('__MACOSX/') ||
        entry.uncompressedSize > MAX_ENTRY_BYTES
      )
        continue;
      if (only !== undefined && entry.fileName !== only) continue;
      const stream = await zip.openReadStreamPromise(entry);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      out.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
    }
  } finally {
    zip.close();
  }
  return out;
}
