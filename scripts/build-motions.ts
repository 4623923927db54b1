// Builds the engine's compact motion library, main/engine/motions/data/cmu-clips.json, from the CMU
// motion-capture clips in ../shared/motions (BVH, 30 fps, descriptions in index.json; licence and credit in its
// README). Run: node scripts/build-motions.ts [motions folder]. The raw BVH files are not shipped.
//
// Each clip is reduced to what retargeting needs, independent of the source skeleton's bone axes:
// - per frame and per body joint, the joint's world orientation as a frame built from two directions of the
//   body, "primary" (along the bone: shoulder to elbow, hip to knee…) and "secondary" (across it: the limb's
//   hinge axis for arms and legs, the body's left for the pelvis, chest and neck), in a canonical space where
//   the clip's first frame faces +Z with its left on +X (main/engine/motions/retarget.ts builds the same frames
//   from the target's rest pose and maps one onto the other: rest-pose correction by construction);
//   quantised to int16 (x, y, z, w × 32767);
// - per frame, the hips' travel on the ground (x, z) from the first frame, and how high the lower foot is above
//   the clip's ground, both in leg lengths (float32), so root motion scales to the character's legs.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { axisAngle, basisQuat, conj, dot, mul, normalize, rotate, sub, type V3 } from '../main/formats/rig-math.ts';
import { MOTION_DATA_CREDIT } from '../shared/credits.ts';
import { parseBvh, worldPose, type Bvh, type WorldPose } from './motions/bvh.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = resolve(process.argv[2] ?? join(ROOT, '..', 'shared', 'motions'));
const OUT = join(ROOT, 'main', 'engine', 'motions', 'data', 'cmu-clips.json');
/** The clips' ids, CMU descriptions, tags and lengths alone, for matching prompts without loading the frames. */
const INDEX_OUT = join(ROOT, 'main', 'engine', 'motions', 'data', 'cmu-index.json');

interface IndexRecord {
  file: string;
  description: string;
  tags: string[];
  subject: number;
  trial: number;
  fps: number;
}

/** The body joints a clip drives, in the order of its data (the engine reads the order from the file). */
const MOTION_JOINTS = [
  'Pelvis',
  'Torso',
  'Neck',
  'L_Shoulder',
  'L_Elbow',
  'R_Shoulder',
  'R_Elbow',
  'L_Hip',
  'L_Knee',
  'L_Ankle',
  'R_Hip',
  'R_Knee',
  'R_Ankle',
] as const;
type MotionJoint = (typeof MOTION_JOINTS)[number];

const J = (side: 'L' | 'R', part: string) => `CC_Base_${side}_${part}`;

/** Per motion joint: the source joints of its primary direction (from → to). */
const PRIMARY: Record<MotionJoint, [string, string]> = {
  Pelvis: ['CC_Base_Hip', 'CC_Base_Spine02'],
  Torso: ['CC_Base_Spine02', 'CC_Base_NeckTwist01'],
  Neck: ['CC_Base_NeckTwist01', 'CC_Base_Head'],
  L_Shoulder: [J('L', 'Upperarm'), J('L', 'Forearm')],
  L_Elbow: [J('L', 'Forearm'), J('L', 'Hand')],
  R_Shoulder: [J('R', 'Upperarm'), J('R', 'Forearm')],
  R_Elbow: [J('R', 'Forearm'), J('R', 'Hand')],
  L_Hip: [J('L', 'Thigh'), J('L', 'Calf')],
  L_Knee: [J('L', 'Calf'), J('L', 'Foot')],
  L_Ankle: [J('L', 'Foot'), J('L', 'ToeBase')],
  R_Hip: [J('R', 'Thigh'), J('R', 'Calf')],
  R_Knee: [J('R', 'Calf'), J('R', 'Foot')],
  R_Ankle: [J('R', 'Foot'), J('R', 'ToeBase')],
};

/** The hinges: the lower bone whose local rotation finds the axis, and the bones that carry it as "secondary". */
const HINGES: { lower: string; carriers: MotionJoint[]; sign: 1 | -1 }[] = [
  { lower: J('L', 'Calf'), carriers: ['L_Hip', 'L_Knee', 'L_Ankle'], sign: 1 },
  { lower: J('R', 'Calf'), carriers: ['R_Hip', 'R_Knee', 'R_Ankle'], sign: 1 },
  { lower: J('L', 'Forearm'), carriers: ['L_Shoulder', 'L_Elbow'], sign: 1 },
  { lower: J('R', 'Forearm'), carriers: ['R_Shoulder', 'R_Elbow'], sign: 1 },
];

const indexOf = (bvh: Bvh, name: string): number => {
  const i = bvh.joints.findIndex((j) => j.name === name);
  if (i < 0) throw new Error(`joint ${name} not in the BVH`);
  return i;
};

/**
 * The hinge axis of a joint, in the lower bone's own frame: the mean rotation axis of its local rotations,
 * weighted by angle (a knee or elbow turns about one axis), signed so that bending is a positive turn.
 */
function hingeAxis(clips: { bvh: Bvh; poses: WorldPose[] }[], lower: string): V3 {
  const sum: V3 = [0, 0, 0];
  let first: V3 | undefined;
  for (const { bvh, poses } of clips) {
    const i = indexOf(bvh, lower);
    const parent = bvh.joints[i]!.parent;
    for (const pose of poses) {
      const local = mul(conj(pose.rotation[parent]!), pose.rotation[i]!);
      const w = Math.min(1, Math.abs(local[3]));
      const angle = 2 * Math.acos(w);
      if (angle < 0.3) continue;
      let axis = normalize([local[0], local[1], local[2]]);
      if (local[3] < 0) axis = [-axis[0], -axis[1], -axis[2]];
      first ??= axis;
      const s = dot(axis, first) < 0 ? -1 : 1;
      for (let k = 0; k < 3; k++) sum[k]! += s * angle * axis[k]!;
    }
  }
  return normalize(sum);
}

function build(): void {
  const index = JSON.parse(readFileSync(join(SOURCE, 'index.json'), 'utf8')) as IndexRecord[];
  const clips = index.map((rec) => {
    const bvh = parseBvh(readFileSync(join(SOURCE, rec.file), 'utf8'));
    return { rec, bvh, poses: bvh.frames.map((f) => worldPose(bvh, f)) };
  });
  // One skeleton (the CC4 Motion Dummy) in every clip: the hinge axes are found once from all of them. The
  // sign: a knee bends the shin backward, an elbow the forearm forward, each a positive turn about its axis.
  const hinge = new Map<string, V3>();
  for (const h of HINGES) {
    const axis = hingeAxis(clips, h.lower);
    hinge.set(h.lower, axis);
  }
  const out = clips.map(({ rec, bvh, poses }) => encodeClip(rec, bvh, poses, hinge));
  const json = {
    source:
      'CMU Graphics Lab Motion Capture Database (mocap.cs.cmu.edu), BVH retarget by DragonForgedTheArtist/IClone-CMU-Mocap; built by scripts/build-motions.ts',
    credit: MOTION_DATA_CREDIT,
    joints: MOTION_JOINTS,
    clips: out,
  };
  writeFileSync(OUT, `${JSON.stringify(json)}\n`);
  const shipped = out.map(({ id, description, tags, fps, frames }) => ({
    id,
    description,
    tags,
    seconds: frames / fps,
  }));
  writeFileSync(INDEX_OUT, `${JSON.stringify(shipped, null, 1)}\n`);
  const frames = out.reduce((n, c) => n + c.frames, 0);
  console.log(
    `${out.length} clips, ${frames} frames, ${(JSON.stringify(json).length / 2 ** 20).toFixed(2)} MiB → ${OUT}`,
  );
}

function encodeClip(rec: IndexRecord, bvh: Bvh, poses: WorldPose[], hinge: Map<string, V3>) {
  const at = (pose: WorldPose, name: string) => pose.position[indexOf(bvh, name)]!;
  const rot = (pose: WorldPose, name: string) => pose.rotation[indexOf(bvh, name)]!;
  // Canonical space: the first frame's left (across the thighs) turned onto +X about the vertical.
  const across = sub(at(poses[0]!, J('L', 'Thigh')), at(poses[0]!, J('R', 'Thigh')));
  const yaw = axisAngle([0, 1, 0], -Math.atan2(-across[2], across[0]));
  const canon = (v: V3) => rotate(yaw, v);
  const start = at(poses[0]!, 'CC_Base_Hip');
  const segment = (a: string, b: string) => Math.hypot(...sub(at(poses[0]!, b), at(poses[0]!, a)));
  const ankleY = poses.map((p) => Math.min(at(p, J('L', 'Foot'))[1], at(p, J('R', 'Foot'))[1])).sort((a, b) => a - b);
  const ground = ankleY[Math.floor(ankleY.length * 0.03)]!;
  const leg = segment(J('L', 'Thigh'), J('L', 'Calf')) + segment(J('L', 'Calf'), J('L', 'Foot')) + ground;
  const hingeOf = new Map<MotionJoint, string>();
  for (const h of HINGES) for (const c of h.carriers) hingeOf.set(c, h.lower);
  const quats = new Int16Array(poses.length * MOTION_JOINTS.length * 4);
  const root = new Float32Array(poses.length * 3);
  poses.forEach((pose, f) => {
    const left = canon(sub(at(pose, J('L', 'Thigh')), at(pose, J('R', 'Thigh'))));
    const shoulders = canon(sub(at(pose, J('L', 'Upperarm')), at(pose, J('R', 'Upperarm'))));
    MOTION_JOINTS.forEach((joint, j) => {
      const [from, to] = PRIMARY[joint];
      const primary = canon(sub(at(pose, to), at(pose, from)));
      const lower = hingeOf.get(joint);
      // A limb's hinge axis is carried by the lower bone of the hinge (the shin, the forearm): the upper bone's
      // own rotation places it there too when the joint is straight, as the lower bone's rest in it.
      const secondary =
        lower !== undefined
          ? canon(rotate(rot(pose, lower), hinge.get(lower)!))
          : joint === 'Pelvis'
            ? left
            : shoulders;
      const q = basisQuat(primary, secondary);
      for (let k = 0; k < 4; k++) quats[(f * MOTION_JOINTS.length + j) * 4 + k] = Math.round(q[k]! * 32767);
    });
    const hip = canon(sub(at(pose, 'CC_Base_Hip'), start));
    const lift = Math.min(at(pose, J('L', 'Foot'))[1], at(pose, J('R', 'Foot'))[1]) - ground;
    root.set([hip[0] / leg, hip[2] / leg, Math.max(0, lift) / leg], f * 3);
  });
  return {
    id: rec.file.replace(/\.bvh$/, '').replace(/^cmu_/, 'cmu-'),
    description: rec.description,
    tags: rec.tags,
    fps: Math.round(1 / bvh.frameTime),
    frames: poses.length,
    rotations: Buffer.from(quats.buffer).toString('base64'),
    root: Buffer.from(root.buffer).toString('base64'),
  };
}

build();
