// The clips of an animated export in one GLB: the model (one mesh, one skin) of a base GLB, with the
// animations of every chosen clip's GLB copied onto its nodes (matched by name) and named by the clip
// (a prompt's text, a library clip's label). The mesh-animation service makes one GLB per clip, all of
// the same rig; engines want one file with every clip.
import { NodeIO, type Accessor, type Animation, type Document, type Node } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type { ExportClip } from '../../shared/export-options.ts';
import { ExportError, reason } from './errors.ts';

/** A clip that can go in the export: where its file is, its format, and which animation of it (default: its first). */
export interface ClipSource extends ExportClip {
  path: string;
  /**
   * The file's format, as shared/file-format.ts found it (the service's clips are FBX, each the whole character
   * with its one take). Omitted: a GLB the caller made or checked itself.
   */
  format?: 'glb' | 'fbx';
  /** The animation's name inside the file, for a file holding several (the session's animation). */
  animation?: string;
}

export interface MergedClips {
  glb: Uint8Array;
  /** The animations written, in order, by name. */
  clips: string[];
  /** Chosen clips that could not be written, with the reason. */
  skipped: { name: string; why: string }[];
}

/**
 * Which of the clips `wanted` names (by id, key or name; `library` every library clip and `all` every clip,
 * unless a clip is called so); all when `wanted` is undefined. Unknown names are an error.
 */
export function chooseClips(clips: readonly ClipSource[], wanted: readonly string[] | undefined): ClipSource[] {
  if (wanted === undefined) return [...clips];
  const named = (c: ClipSource, w: string) => c.id === w || c.id.slice(c.id.indexOf(':') + 1) === w || c.name === w;
  const group = (c: ClipSource, w: string) =>
    !clips.some((d) => named(d, w)) && (w === 'all' || (w === 'library' && c.source === 'library'));
  const matches = (c: ClipSource, w: string) => named(c, w) || group(c, w);
  const unknown = wanted.filter((w) => !clips.some((c) => matches(c, w)) && w !== 'all' && w !== 'library');
  if (unknown.length > 0) {
    const known = clips.map((c) => `"${c.name}"`).join(', ') || 'none';
    throw new ExportError('bad-input', {
      file: 'clips',
      why: `names clips the job does not have (${unknown.map((u) => `"${u}"`).join(', ')})`,
      fix: `Choose among: ${known}`,
    });
  }
  return clips.filter((c) => wanted.some((w) => matches(c, w)));
}

/**
 * The base GLB with exactly the given clips as its animations. `read` gives a file's bytes; `file` names the
 * base in errors. A clip whose animation targets a node the base does not have (by name) is skipped.
 */
export async function mergeClips(
  base: { path: string; bytes: Uint8Array },
  clips: readonly ClipSource[],
  read: (path: string) => Promise<Uint8Array>,
): Promise<MergedClips> {
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const load = async (path: string, bytes: Uint8Array) => {
    try {
      return await io.readBinary(bytes);
    } catch (error) {
      throw new ExportError('unreadable-glb', {
        file: path,
        why: `cannot be read to gather the clips (${reason(error)})`,
        fix: 'Download the job again, or export it without its clips',
        cause: error,
      });
    }
  };
  const doc = await load(base.path, base.bytes);
  for (const animation of doc.getRoot().listAnimations()) disposeAnimation(animation);
  const nodes = nodesByName(doc);
  const written: string[] = [];
  const skipped: MergedClips['skipped'] = [];
  const docs = new Map<string, Promise<Document>>();
  for (const clip of clips) {
    if (!docs.has(clip.path))
      docs.set(
        clip.path,
        read(clip.path).then((bytes) => load(clip.path, bytes)),
      );
    const source = await docs.get(clip.path)!;
    const animations = source.getRoot().listAnimations();
    const animation =
      clip.animation === undefined ? animations[0] : animations.find((a) => a.getName() === clip.animation);
    if (!animation) {
      skipped.push({
        name: clip.name,
        why:
          clip.animation === undefined ? 'its file has no animation' : `its file has no animation "${clip.animation}"`,
      });
      continue;
    }
    const missing = animation
      .listChannels()
      .map((c) => c.getTargetNode()?.getName() ?? '')
      .find((n) => !nodes.has(n));
    if (missing !== undefined) {
      skipped.push({ name: clip.name, why: `it moves a bone the model does not have ("${missing}")` });
      continue;
    }
    copyAnimation(doc, animation, unique(clip.name, written), nodes);
    written.push(unique(clip.name, written));
  }
  return { glb: await io.writeBinary(doc), clips: written, skipped };
}

const unique = (name: string, taken: readonly string[]) => {
  let candidate = name || 'clip';
  for (let n = 2; taken.includes(candidate); n++) candidate = `${name || 'clip'} (${n})`;
  return candidate;
};

/** Nodes by name; a name held by several nodes is not a reliable target and is left out. */
function nodesByName(doc: Document): Map<string, Node> {
  const map = new Map<string, Node>();
  const twice = new Set<string>();
  for (const node of doc.getRoot().listNodes()) {
    if (map.has(node.getName())) twice.add(node.getName());
    map.set(node.getName(), node);
  }
  for (const name of twice) map.delete(name);
  return map;
}

function copyAnimation(doc: Document, from: Animation, name: string, nodes: Map<string, Node>): void {
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const copy = (a: Accessor) =>
    doc
      .createAccessor(a.getName())
      .setType(a.getType())
      .setArray(a.getArray()!.slice())
      .setNormalized(a.getNormalized())
      .setBuffer(buffer);
  const accessors = new Map<Accessor, Accessor>();
  const copied = (a: Accessor) => accessors.get(a) ?? accessors.set(a, copy(a)).get(a)!;
  const animation = doc.createAnimation(name);
  for (const channel of from.listChannels()) {
    const sampler = channel.getSampler()!;
    const s = doc
      .createAnimationSampler()
      .setInput(copied(sampler.getInput()!))
      .setOutput(copied(sampler.getOutput()!))
      .setInterpolation(sampler.getInterpolation());
    animation.addSampler(s);
    animation.addChannel(
      doc
        .createAnimationChannel()
        .setTargetNode(nodes.get(channel.getTargetNode()!.getName())!)
        .setTargetPath(channel.getTargetPath()!)
        .setSampler(s),
    );
  }
}

/** Removes an animation with its samplers and the accessors nothing else uses. */
function disposeAnimation(animation: Animation): void {
  const accessors = new Set<Accessor>();
  for (const sampler of animation.listSamplers()) {
    for (const a of [sampler.getInput(), sampler.getOutput()]) if (a) accessors.add(a);
    sampler.dispose();
  }
  for (const channel of animation.listChannels()) channel.dispose();
  animation.dispose();
  for (const a of accessors) if (a.listParents().every((p) => p.propertyType === 'Root')) a.dispose();
}
