// The motion-capture clips the engine ships (data/cmu-clips.json, made by scripts/build-motions.ts from the CMU
// Graphics Lab Motion Capture Database: see the README for the credit), decoded when first used.
import * as z from 'zod';
import data from './data/cmu-clips.json' with { type: 'json' };
import type { Quat } from '../../formats/rig-math.ts';

const clipFile = z.object({
  credit: z.string(),
  joints: z.array(z.string()),
  clips: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      tags: z.array(z.string()),
      fps: z.number().positive(),
      frames: z.number().int().positive(),
      rotations: z.string(),
      root: z.string(),
    }),
  ),
});

/** One clip: per frame, each joint's orientation (primary/secondary frame, canonical space) and its root. */
export interface MocapClip {
  id: string;
  description: string;
  tags: string[];
  fps: number;
  frames: number;
  /** The joints whose frames are stored, in order. */
  joints: string[];
  /** The orientation of joint `j` at frame `f`. */
  frame(f: number, j: number): Quat;
  /** Ground travel of the hips from the first frame (x, z) and the lower foot's lift, in leg lengths. */
  root(f: number): [x: number, z: number, lift: number];
}

export const MOCAP_CREDIT = clipFile.shape.credit.parse(data.credit);

let parsed: z.infer<typeof clipFile> | undefined;
const decoded = new Map<string, MocapClip>();

function file(): z.infer<typeof clipFile> {
  parsed ??= clipFile.parse(data);
  return parsed;
}

/** The ids, descriptions and tags of every shipped clip (no frames decoded). */
export function mocapIndex(): { id: string; description: string; tags: string[]; seconds: number }[] {
  return file().clips.map((c) => ({ id: c.id, description: c.description, tags: c.tags, seconds: c.frames / c.fps }));
}

export function mocapClip(id: string): MocapClip {
  const known = decoded.get(id);
  if (known) return known;
  const { joints, clips } = file();
  const c = clips.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no motion-capture clip ${id} in the engine's library`);
  const rot = Buffer.from(c.rotations, 'base64');
  const rotations = new Int16Array(rot.buffer.slice(rot.byteOffset, rot.byteOffset + rot.byteLength));
  const rt = Buffer.from(c.root, 'base64');
  const roots = new Float32Array(rt.buffer.slice(rt.byteOffset, rt.byteOffset + rt.byteLength));
  if (rotations.length !== c.frames * joints.length * 4 || roots.length !== c.frames * 3)
    throw new Error(`the engine's motion clip ${id} is damaged (its data does not hold ${c.frames} frames)`);
  const clip: MocapClip = {
    id: c.id,
    description: c.description,
    tags: c.tags,
    fps: c.fps,
    frames: c.frames,
    joints,
    frame(f, j) {
      const k = (f * joints.length + j) * 4;
      const q: Quat = [
        rotations[k]! / 32767,
        rotations[k + 1]! / 32767,
        rotations[k + 2]! / 32767,
        rotations[k + 3]! / 32767,
      ];
      const n = Math.hypot(...q) || 1;
      return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
    },
    root(f) {
      return [roots[f * 3]!, roots[f * 3 + 1]!, roots[f * 3 + 2]!];
    },
  };
  decoded.set(id, clip);
  return clip;
}
