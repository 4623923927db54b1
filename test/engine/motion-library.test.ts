// Free text to the closest motion, over HTTP against the embedded engine (main/engine/motions): 30 varied game
// prompts are each played as a motion of the right kind (its name and kind in the answer's "played as: …") on a
// real character (Quaternius' Male_Casual.fbx), and its bones move as that kind implies (a walk swings the legs and
// travels, a sit lowers the hips, a clap brings the hands together…); nonsense is refused with why. A retargeted
// motion-capture walk keeps its feet on the floor and scales its root motion to the character's leg length.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { mocapClip } from '../../main/engine/motions/library.ts';
import { realFixture } from '../fixtures.ts';
import { type Gltf, readGlb, worldMatrices } from './animation-glb-pose.ts';
import {
  animatedPrompts,
  animationReady,
  download,
  expectSuccess,
  submitTexts,
  uploadAnimationFile,
  useTestEngine,
} from './helpers.ts';

const engine = useTestEngine({ animationFiles: 'glb' });

type V3 = [number, number, number];
type Glb = { gltf: Gltf; bin: Buffer };

/** Each prompt with the kind of motion it must be played as. */
const PROMPTS: [text: string, kind: string][] = [
  ['dance salsa', 'dance'],
  ['do a backflip', 'acrobatics'],
  ['pick up a box', 'pick up'],
  ['zombie walk', 'walk'],
  ['A person lies on their back, moving their legs in a cycling motion in the air.', 'cycle'],
  ['sword slash', 'sword'],
  ['climb a ladder', 'climb'],
  ['swim', 'swim'],
  ['walk forward', 'walk'],
  ['run away from the monster', 'run'],
  ['jump over a fence', 'jump'],
  ['wave hello', 'wave'],
  ['sit down on a chair', 'sit'],
  ['punch the enemy', 'fight'],
  ['kick the ball', 'kick'],
  ['clap hands', 'clap'],
  ['bow to the audience', 'bow'],
  ['salute the captain', 'salute'],
  ['point at the door', 'point'],
  ['crouch behind cover', 'crouch'],
  ['crawl on the floor', 'crawl'],
  ['look around nervously', 'look'],
  ['fall down and get up', 'fall'],
  ['throw a grenade', 'throw'],
  ['celebrate a victory', 'cheer'],
  ['stretch and yawn', 'idle'],
  ['do push-ups', 'exercise'],
  ['dribble a basketball', 'sports'],
  ['sneak slowly', 'walk'],
  ['hike up a rocky trail', 'walk'],
];
const NONSENSE = ['qwzx blorp', '...', 'the'];

const BONES = {
  hips: 'Hips',
  head: 'Head',
  lAnkle: 'Foot.L',
  rAnkle: 'Foot.R',
  lWrist: 'Palm.L',
  rWrist: 'Palm.R',
  lShoulder: 'UpperArm.L',
  rShoulder: 'UpperArm.R',
};
type Bone = keyof typeof BONES;

/** One clip read back: each bone's world position (and the head's up axis) at `samples` times over the clip. */
interface Track {
  rest: Record<Bone, V3>;
  /** The head's world rotation (3×3, column-major) at rest and in each frame. */
  restHead: number[];
  frames: Record<Bone, V3>[];
  head: number[][];
  duration: number;
}

function track(glb: Glb, samples = 48): Track {
  const index = Object.fromEntries(
    Object.entries(BONES).map(([k, name]) => [k, glb.gltf.nodes.findIndex((n) => n.name === name)]),
  ) as Record<Bone, number>;
  for (const [k, i] of Object.entries(index)) if (i < 0) throw new Error(`no bone ${k}`);
  const at = (m: number[][]) =>
    Object.fromEntries(Object.entries(index).map(([k, i]) => [k, [m[i]![12]!, m[i]![13]!, m[i]![14]!]])) as Record<
      Bone,
      V3
    >;
  const rotation = (m: number[][]): number[] => {
    const h = m[index.head]!;
    return [0, 4, 8].flatMap((c) => {
      const n = Math.hypot(h[c]!, h[c + 1]!, h[c + 2]!);
      return [h[c]! / n, h[c + 1]! / n, h[c + 2]! / n];
    });
  };
  const sampler = glb.gltf.animations![0]!.samplers[0]!;
  const duration = glb.gltf.accessors[sampler.input]!.max![0]!;
  const restM = worldMatrices(glb);
  const frames: Record<Bone, V3>[] = [];
  const head: number[][] = [];
  for (let k = 0; k < samples; k++) {
    const m = worldMatrices(glb, 0, (k / (samples - 1)) * duration);
    frames.push(at(m));
    head.push(rotation(m));
  }
  return { rest: at(restM), restHead: rotation(restM), frames, head, duration };
}

const dist = (a: V3, b: V3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const rel = (f: Record<Bone, V3>, b: Bone): V3 => [f[b][0] - f.hips[0], f[b][1] - f.hips[1], f[b][2] - f.hips[2]];
const max = (xs: number[]) => Math.max(...xs);
const min = (xs: number[]) => Math.min(...xs);

/** How a motion of each kind must move the body, `h` the character's height. */
function expectMoves(kind: string, t: Track, h: number): void {
  const hipsY = t.frames.map((f) => f.hips[1] - t.rest.hips[1]);
  const travel = Math.hypot(
    t.frames.at(-1)!.hips[0] - t.frames[0]!.hips[0],
    t.frames.at(-1)!.hips[2] - t.frames[0]!.hips[2],
  );
  /** How far a bone moves from where it is at rest, relative to the hips. */
  const reach = (b: Bone) => max(t.frames.map((f) => dist(rel(f, b), rel(t.rest, b))));
  const raised = (wrist: Bone, shoulder: Bone) => max(t.frames.map((f) => f[wrist][1] - f[shoulder][1]));
  const legs = max([reach('lAnkle'), reach('rAnkle')]);
  const arms = max([reach('lWrist'), reach('rWrist')]);
  // The angle of the head's turn from rest: trace(Rrestᵀ R) = 1 + 2 cos θ.
  const headTurn = max(
    t.head.map((r) => Math.acos(Math.min(1, (r.reduce((sum, x, k) => sum + x * t.restHead[k]!, 0) - 1) / 2))),
  );
  // The feet take turns ahead of each other along the way the hips travel.
  const alternates = () => {
    const dx = t.frames.at(-1)!.hips[0] - t.frames[0]!.hips[0];
    const dz = t.frames.at(-1)!.hips[2] - t.frames[0]!.hips[2];
    const n = Math.hypot(dx, dz) || 1;
    const ahead = t.frames.map((f) => ((f.lAnkle[0] - f.rAnkle[0]) * dx + (f.lAnkle[2] - f.rAnkle[2]) * dz) / n);
    return max(ahead) > 0.05 * h && min(ahead) < -0.05 * h;
  };
  switch (kind) {
    case 'walk':
    case 'run':
    case 'sports':
      expect(travel, 'root translation').toBeGreaterThan(0.3 * h);
      expect(alternates(), 'the legs swing in turn').toBe(true);
      break;
    case 'jump':
    case 'cheer':
      expect(max(hipsY), 'the hips rise').toBeGreaterThan(0.03 * h);
      break;
    case 'sit':
    case 'crouch':
    case 'fall':
    case 'crawl':
    case 'swim':
    case 'cycle':
    case 'exercise':
      expect(min(hipsY), 'the hips go down').toBeLessThan(-0.15 * h);
      break;
    case 'wave':
    case 'salute':
      expect(max([raised('lWrist', 'lShoulder'), raised('rWrist', 'rShoulder')]), 'a hand up').toBeGreaterThan(0);
      break;
    case 'climb':
      expect(max([raised('lWrist', 'lShoulder'), raised('rWrist', 'rShoulder')]), 'hands up to climb').toBeGreaterThan(
        0,
      );
      expect(legs, 'the legs step up').toBeGreaterThan(0.1 * h);
      break;
    case 'clap':
      expect(min(t.frames.map((f) => dist(f.lWrist, f.rWrist))), 'the hands meet').toBeLessThan(
        0.5 * dist(t.rest.lWrist, t.rest.rWrist),
      );
      break;
    case 'kick':
      expect(max(t.frames.map((f) => max([f.lAnkle[1], f.rAnkle[1]]) - t.rest.lAnkle[1])), 'a foot up').toBeGreaterThan(
        0.2 * h,
      );
      break;
    case 'bow':
    case 'pick up':
      expect(min(t.frames.map((f) => f.head[1] - t.rest.head[1])), 'the head goes down').toBeLessThan(-0.1 * h);
      break;
    case 'look':
      expect(headTurn, 'the head turns').toBeGreaterThan(0.3);
      break;
    case 'idle':
      expect(arms + legs, 'it moves').toBeGreaterThan(0.02 * h);
      expect(travel, 'it stays where it is').toBeLessThan(0.1 * h);
      break;
    default: // dance, acrobatics, sword, fight, throw, point: the arms move a lot
      expect(arms, 'the arms move').toBeGreaterThan(0.2 * h);
  }
}

describe('free text to the closest motion, on Male_Casual.fbx', () => {
  let session: Record<string, any>;
  let answers: { text: string; message: string; isError: boolean }[];
  let done: { prompts: { text: string; mesh_url: string; status: string }[] };
  beforeAll(async () => {
    const bytes = readFileSync(realFixture('fbx', 'Male_Casual.fbx'));
    const uploaded = expectSuccess('uploadAnimationMesh', await uploadAnimationFile(engine, bytes, 'Male_Casual.fbx'));
    session = await animationReady(engine, uploaded.session_code, 180_000);
    expect(session.status).toBe('predefined_done');
    answers = (await submitTexts(engine, session.session_code, [...PROMPTS.map(([t]) => t), ...NONSENSE])).responses;
    done = await animatedPrompts(engine, session.session_code, PROMPTS.length, 300_000);
  }, 420_000);

  it('answers each game prompt with the motion it plays ("played as: …", of the right kind)', () => {
    for (const [i, [text, kind]] of PROMPTS.entries()) {
      expect(answers[i]!.text).toBe(text);
      expect(answers[i]!.isError, `${text}: ${answers[i]!.message}`).toBe(false);
      expect(answers[i]!.message, text).toMatch(new RegExp(`played as: .+, kind ${kind}\\b`));
    }
    // A zombie walk is the closest walk, and the answer says what the library lacks.
    expect(answers[3]!.message).toMatch(/played as: walk .*closest walk to "zombie walk".*no motion for "zombie"/);
  });

  it('refuses nonsense with why', () => {
    const refused = answers.slice(PROMPTS.length);
    expect(refused.map((r) => r.isError)).toEqual([true, true, true]);
    expect(refused[0]!.message).toMatch(/qwzx, blorp.*names or relates to no motion|none of its words \(qwzx, blorp\)/);
    expect(refused[1]!.message).toMatch(/no words that describe a motion/);
    expect(refused[2]!.message).toMatch(/no words that describe a motion/);
    expect(done.prompts.map((p) => p.text)).toEqual(PROMPTS.map(([t]) => t));
  });

  it('moves the bones as each kind of motion implies', async () => {
    const failures: string[] = [];
    for (const [text, kind] of PROMPTS) {
      const prompt = done.prompts.find((p) => p.text === text)!;
      const glb = readGlb((await download(prompt.mesh_url)).bytes);
      expect(glb.gltf.animations!.map((a) => a.name)).toEqual([text]);
      const t = track(glb);
      const h = t.rest.head[1] - Math.min(t.rest.lAnkle[1], t.rest.rAnkle[1]);
      try {
        expectMoves(kind, t, h);
        if (kind === 'crouch') {
          // Crouched, the feet stay flat on the floor: the toes' end no lower than at rest.
          const toe = glb.gltf.nodes.findIndex((n) => n.name === 'Foot.L_end');
          const rest = worldMatrices(glb)[toe]![13]!;
          const lowest = min(
            Array.from({ length: 12 }, (_, k) => worldMatrices(glb, 0, (k / 11) * t.duration)[toe]![13]! - rest),
          );
          expect(lowest, 'the toes stay above the floor').toBeGreaterThan(-0.02 * h);
        }
      } catch (error) {
        failures.push(`${text} (${kind}): ${(error as Error).message.split('\n')[0]}`);
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('keeps a retargeted walk on the floor and scales its root motion to the leg length', async () => {
    const prompt = done.prompts.find((p) => p.text === 'walk forward')!;
    const glb = readGlb((await download(prompt.mesh_url)).bytes);
    const clip = mocapClip('cmu-07_01');
    const t = track(glb, clip.frames);
    const h = t.rest.head[1] - Math.min(t.rest.lAnkle[1], t.rest.rAnkle[1]);
    // The lower foot's height above its rest height: near 0 all through the clip (no floating, no sinking).
    const lowest = t.frames.map((f) => Math.min(f.lAnkle[1] - t.rest.lAnkle[1], f.rAnkle[1] - t.rest.rAnkle[1]));
    expect(min(lowest)).toBeGreaterThan(-0.01 * h);
    expect(max(lowest)).toBeLessThan(0.04 * h);
    // Root motion: the hips travel as many of this character's leg lengths as the captured walk did of its own.
    const legs = glb.gltf.nodes.filter((n) => /^UpperLeg\.[LR]$/.test(n.name ?? ''));
    expect(legs).toHaveLength(2);
    const rest = worldMatrices(glb);
    const hipY = legs.map((n) => rest[glb.gltf.nodes.indexOf(n)]![13]!);
    const floor = min([t.rest.lAnkle[1], t.rest.rAnkle[1]]) - groundClearance(glb);
    const leg = (hipY[0]! + hipY[1]!) / 2 - floor;
    const [x0, z0] = clip.root(0);
    const [x1, z1] = clip.root(clip.frames - 1);
    const travel = Math.hypot(
      t.frames.at(-1)!.hips[0] - t.frames[0]!.hips[0],
      t.frames.at(-1)!.hips[2] - t.frames[0]!.hips[2],
    );
    expect(travel / leg).toBeCloseTo(Math.hypot(x1 - x0, z1 - z0), 1);
    expect(travel).toBeGreaterThan(1); // a 2.6 s walk of a 1.8 m character: metres, not centimetres
  });
});

/** The ankles' height above the mesh's lowest point at rest (the floor). */
function groundClearance(glb: Glb): number {
  const rest = worldMatrices(glb);
  const ankle = glb.gltf.nodes.findIndex((n) => n.name === BONES.lAnkle);
  const lowest = min(
    glb.gltf.meshes[0]!.primitives.map(
      (p) => (glb.gltf.accessors[p.attributes.POSITION!] as { min?: number[] }).min![1]!,
    ),
  );
  return rest[ankle]![13]! - lowest;
}
