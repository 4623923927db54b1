// Animation of an uploaded character on the embedded engine, over HTTP: real rigged FBX files (Quaternius'
// Male_Casual, the Kenney character of ufbx's tests) become a front render with the 17 joints on it and GLBs
// of that mesh, skin and skeleton with procedural clips; a mesh with no bones that is not a standing humanoid is refused at upload (rigging: test/engine/rigging/).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { fbxBones } from '../../shared/fbx-bones.ts';
import { JOINT_NAMES } from '../../shared/contract/index.ts';
import { realFixture } from '../fixtures.ts';
import { accessorData, nodePosition, readGlb, type Gltf } from './animation-glb-pose.ts';
import {
  animatedPrompts,
  animationReady,
  download,
  expectError,
  expectPng,
  expectSuccess,
  submitTexts,
  uploadAnimationFile,
  useTestEngine,
} from './helpers.ts';
import { LIBRARY_CLIPS } from './library.ts';
import { validator } from '../gltf-validator.ts';

const engine = useTestEngine({ animationFiles: 'glb' }); // the GLB's poses are checked here; FBX: animation-fbx.test.ts

const upload = (bytes: Uint8Array, name: string) => uploadAnimationFile(engine, bytes, name);
/** Reading a 2 MB FBX takes seconds of CPU on a loaded machine: a cap for a hung session, not a speed bar. */
const finished = (code: string) => animationReady(engine, code, 180_000);
const glbOf = async (url: string) => readGlb((await download(url)).bytes);

interface Character {
  file: string;
  /** Bone names of the 17 joints' bones, as the file spells them. */
  bones: {
    hips: string;
    head: string;
    lAnkle: string;
    rAnkle: string;
    lWrist: string;
    rWrist: string;
    lShoulder: string;
    rShoulder: string;
  };
  triangles: number;
}
const CHARACTERS: Character[] = [
  {
    file: 'Male_Casual.fbx',
    bones: {
      hips: 'Hips',
      head: 'Head',
      lAnkle: 'Foot.L',
      rAnkle: 'Foot.R',
      lWrist: 'Palm.L',
      rWrist: 'Palm.R',
      lShoulder: 'UpperArm.L',
      rShoulder: 'UpperArm.R',
    },
    triangles: 1854,
  },
  {
    file: 'maya_kenney_character_7700_binary.fbx',
    bones: {
      hips: 'Hips',
      head: 'Head',
      lAnkle: 'LeftFoot',
      rAnkle: 'RightFoot',
      lWrist: 'LeftHand',
      rWrist: 'RightHand',
      lShoulder: 'LeftArm',
      rShoulder: 'RightArm',
    },
    triangles: 1604,
  },
];

const triangles = (file: { gltf: Gltf; bin: Buffer }) =>
  file.gltf.meshes[0]!.primitives.reduce((n, p) => n + file.gltf.accessors[p.indices]!.count / 3, 0);
const duration = (file: { gltf: Gltf; bin: Buffer }, clip: number) => {
  const sampler = file.gltf.animations![clip]!.samplers[0]!;
  return file.gltf.accessors[sampler.input]!.max![0]!;
};

describe.each(CHARACTERS)('an uploaded character: $file', ({ file, bones, triangles: expectedTriangles }) => {
  const bytes = readFileSync(realFixture('fbx', file));
  let session: Record<string, any>;
  beforeAll(async () => {
    const uploaded = expectSuccess('uploadAnimationMesh', await upload(bytes, file));
    session = await finished(uploaded.session_code);
    expect(session.status).toBe('predefined_done');
  }, 240_000);

  it('renders its front view with the 17 joints in body order, its left on the image right', async () => {
    const render = await download(session.render_url);
    expectPng(render.bytes);
    expect(render.bytes.readUInt32BE(16)).toBe(512);
    const j = session.animation_joint_dict as Record<string, [number, number]>;
    expect(Object.keys(j)).toEqual([...JOINT_NAMES]);
    for (const [x, y] of Object.values(j)) expect(x > 0 && x < 512 && y > 0 && y < 512).toBe(true);
    // Image y grows downwards: the head above the neck, above the pelvis, above the knees, above the ankles.
    expect(j.Head![1]).toBeLessThan(j.Nose![1]);
    expect(j.Nose![1]).toBeLessThan(j.Neck![1]);
    expect(j.Neck![1]).toBeLessThan(j.Torso![1]);
    expect(j.Torso![1]).toBeLessThan(j.L_Knee![1]);
    expect(j.Pelvis![1]).toBeLessThan(j.L_Knee![1]);
    for (const s of ['L', 'R']) {
      expect(j[`${s}_Hip`]![1]).toBeLessThan(j[`${s}_Knee`]![1]);
      expect(j[`${s}_Knee`]![1]).toBeLessThan(j[`${s}_Ankle`]![1]);
      expect(j[`${s}_Shoulder`]![1]).toBeLessThan(j[`${s}_Hip`]![1]);
    }
    // Facing the camera: its left side is on the image's right, its right side on the left, of the body's middle.
    for (const part of ['Hip', 'Knee', 'Ankle', 'Shoulder', 'Elbow', 'Wrist']) {
      expect(j[`L_${part}`]![0], part).toBeGreaterThan(j.Pelvis![0]);
      expect(j[`R_${part}`]![0], part).toBeLessThan(j.Pelvis![0]);
    }
  });

  it('exports its mesh, skin and all its bones as a valid GLB with the six library clips', async () => {
    const limbNodes = fbxBones(bytes).bones;
    for (const url of [session.mesh_url, session.animation_url]) {
      const bytesOfGlb = (await download(url)).bytes;
      const report = await validator.validateBytes(new Uint8Array(bytesOfGlb), {
        maxIssues: 20,
        writeTimestamp: false,
      });
      expect(report.issues.messages).toEqual([]);
      const glb = readGlb(bytesOfGlb);
      const joints = glb.gltf.skins[0]!.joints.map((n) => glb.gltf.nodes[n]!.name);
      // Every bone of the file (its LimbNodes; the armature's root node too when it has one).
      expect(joints).toEqual(expect.arrayContaining(limbNodes));
      expect(joints.length - limbNodes.length).toBeLessThanOrEqual(1);
      expect(triangles(glb)).toBe(expectedTriangles);
    }
    const animated = await glbOf(session.animation_url);
    expect(animated.gltf.animations!.map((a) => a.name)).toEqual(LIBRARY_CLIPS);
    expect(session.animation_library.map((a: { label: string }) => a.label)).toEqual(LIBRARY_CLIPS);
    expect((await glbOf(session.mesh_url)).gltf.animations).toBeUndefined();
  });

  it('moves the bones each clip should: walking swings the legs in turn, jumping lifts and sitting lowers the hips', async () => {
    const glb = await glbOf(session.animation_url);
    const clip = (name: string) => glb.gltf.animations!.findIndex((a) => a.name === name);
    const forward = (bone: string, c: number, t: number) => nodePosition(glb, bone, c, t)[2];
    const walk = clip('Walk');
    const T = duration(glb, walk);
    // A quarter of the loop in, the left foot is ahead of the right; three quarters in, the right is ahead.
    expect(forward(bones.lAnkle, walk, T / 4) - forward(bones.rAnkle, walk, T / 4)).toBeGreaterThan(
      0.05 * heightOf(glb, bones),
    );
    expect(forward(bones.rAnkle, walk, (3 * T) / 4) - forward(bones.lAnkle, walk, (3 * T) / 4)).toBeGreaterThan(
      0.05 * heightOf(glb, bones),
    );
    const hipsY = (c: number | undefined, t = 0) => nodePosition(glb, bones.hips, c, t)[1];
    expect(hipsY(clip('Jump'), duration(glb, clip('Jump')) / 2)).toBeGreaterThan(
      hipsY(undefined) + 0.1 * heightOf(glb, bones),
    );
    expect(hipsY(clip('Sit'), duration(glb, clip('Sit')) / 2)).toBeLessThan(
      hipsY(undefined) - 0.1 * heightOf(glb, bones),
    );
    // Standing still: the feet stay on the floor and the head where it was.
    const idle = clip('Idle');
    expect(Math.abs(nodePosition(glb, bones.head, idle, 1)[1] - nodePosition(glb, bones.head)[1])).toBeLessThan(
      0.05 * heightOf(glb, bones),
    );
  });

  it('animates several prompts as several clips: the left hand waves when asked, nonsense is refused', async () => {
    const texts = ['wave with the left hand', 'slowly walk', 'sit down on a chair', 'jog', 'qwzx blorp'];
    const submitted = await submitTexts(engine, session.session_code, texts);
    expect(submitted.responses.map((r: { isError: boolean }) => r.isError)).toEqual([false, false, false, false, true]);
    expect(submitted.responses[4].message).toMatch(/qwzx blorp.*none of its words.*names or relates to a motion.*walk/);
    const done = await animatedPrompts(engine, session.session_code, 4, 120_000);
    const byText = new Map(done.prompts.map((p: { text: string; mesh_url: string; usdz_url: string }) => [p.text, p]));
    const wave = await glbOf((byText.get('wave with the left hand') as { mesh_url: string }).mesh_url);
    expect(wave.gltf.animations!.map((a) => a.name)).toEqual(['wave with the left hand']);
    const t = duration(wave, 0) / 4;
    const y = (bone: string, c?: number) => nodePosition(wave, bone, c, t)[1];
    expect(y(bones.lWrist, 0)).toBeGreaterThan(y(bones.lShoulder, 0)); // the left hand up
    expect(y(bones.rWrist, 0)).toBeLessThan(y(bones.rShoulder, 0)); // the right one down
    // "slowly walk" is a slower walk than the library's; "jog" a run; each its own GLB.
    const slow = await glbOf((byText.get('slowly walk') as { mesh_url: string }).mesh_url);
    const library = await glbOf(session.animation_url);
    expect(duration(slow, 0)).toBeGreaterThan(
      duration(
        library,
        library.gltf.animations!.findIndex((a) => a.name === 'Walk'),
      ),
    );
    const jog = await glbOf((byText.get('jog') as { mesh_url: string }).mesh_url);
    expect(jog.gltf.animations![0]!.name).toBe('jog');
    expect(accessorData(jog, jog.gltf.skins[0]!.inverseBindMatrices)).toHaveLength(
      16 * jog.gltf.skins[0]!.joints.length,
    );
    const usdz = await download((byText.get('jog') as { usdz_url: string }).usdz_url);
    expect(usdz.headers.get('content-type')).toBe('model/vnd.usdz+zip');
  });
});

/** The character's height, from its head bone over its lower ankle at rest. */
function heightOf(glb: { gltf: Gltf; bin: Buffer }, bones: Character['bones']): number {
  return (
    nodePosition(glb, bones.head)[1] - Math.min(nodePosition(glb, bones.lAnkle)[1], nodePosition(glb, bones.rAnkle)[1])
  );
}

/** The FBX with every model renamed `b0xx…` (same lengths, so the binary stays valid): names no table knows. */
function renamed(bytes: Buffer): Buffer {
  let n = 0;
  const model = new RegExp(`([A-Za-z][\\w.]*)${String.fromCharCode(0, 1)}Model`, 'g');
  const text = bytes
    .toString('latin1')
    .replace(
      model,
      (whole, name: string) =>
        `b${(n++).toString(36)}${'x'.repeat(40)}`.slice(0, name.length) + whole.slice(name.length),
    );
  return Buffer.from(text, 'latin1');
}

describe('a rig whose bone names no table knows', () => {
  it('finds the joints by where the bones are: the same joints as by their names', async () => {
    const bytes = readFileSync(realFixture('fbx', 'maya_kenney_character_7700_binary.fbx'));
    const named = await finished(expectSuccess('uploadAnimationMesh', await upload(bytes, 'kenney.fbx')).session_code);
    const unnamed = await finished(
      expectSuccess('uploadAnimationMesh', await upload(renamed(bytes), 'renamed.fbx')).session_code,
    );
    expect(unnamed.status).toBe('predefined_done');
    const glb = await glbOf(unnamed.animation_url);
    expect(glb.gltf.nodes.some((node) => node.name === 'LeftUpLeg')).toBe(false);
    // The pelvis, the head and the limbs' joints (not Torso, Neck and Nose).
    for (const joint of JOINT_NAMES.filter((j) => !['Torso', 'Neck', 'Nose'].includes(j))) {
      expect(unnamed.animation_joint_dict[joint], joint).toEqual(named.animation_joint_dict[joint]);
    }
  }, 240_000);
});

describe('meshes that cannot be animated', () => {
  it.each([
    [
      'blender_282_suzanne_7400_binary.fbx',
      'fbx',
      /blender_282_suzanne_7400_binary\.fbx has no skeleton and is not a humanoid standing upright, so the local engine cannot rig it: it stands on one piece/,
    ],
    ['max_transformed_skin_6100_binary.fbx', 'fbx', /skeleton \(5 bones: Bone001.*not a humanoid/],
    ['Platformer Kit (1.0).zip', 'zip', /holds 59 FBX files and none has a skeleton: they are static props/],
  ])('refuses %s at upload with why', async (name, folder, message) => {
    const answer = await upload(readFileSync(realFixture(folder, name)), name);
    expectError(answer, 400, 'file');
    expect(answer.body.message).toMatch(message);
  });
});
