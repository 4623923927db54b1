// Automatic rigging over HTTP: an animation upload with no skeleton is rigged by the engine and animated — a
// character whose skin and bones were dropped (uploaded as a file), and the engine's own model of a picture of
// a person (by the URL of its image-to-3D FBX, as "Animate this model" sends it); a chair is refused with why.
import { readFileSync } from 'node:fs';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFbxAnimated } from '../../../main/formats/fbx-read.ts';
import { encodePng } from '../../../main/formats/png.ts';
import { decodeImage } from '../../../main/images/decode-image.ts';
import { buildZip } from '../../../main/engine/outputs/index.ts';
import { quatAngle } from './angles.ts';
import { realFixture } from '../../fixtures.ts';
import {
  animationReady,
  call,
  download,
  endedImageTo3d,
  expectError,
  expectSuccess,
  uploadAnimationFile,
  useServedFiles,
  useTestEngine,
} from '../helpers.ts';
import { boxes, CHAIR, unriggedFbx, unriggedModel } from './meshes.ts';

// Each request on a connection of its own: this file reads FBX files with Babylon.js on the engine's thread for
// seconds at a time, after which a kept-alive connection the engine has just closed would be reused (ECONNRESET).
const before = getGlobalDispatcher();
beforeAll(() => setGlobalDispatcher(new Agent({ pipelining: 0 })));
afterAll(() => setGlobalDispatcher(before));

const engine = useTestEngine();
const pictures = useServedFiles('image/png');

/** Reading and rigging take seconds of CPU on a loaded machine: a cap for a hung session, not a speed bar. */
const ready = (code: string) => animationReady(engine, code, 240_000);

/** How far a bone's rotation swings over a take: the largest angle between two of its keys. */
function swing(take: { tracks: { bone: number; rotations?: ArrayLike<number> }[] }, bone: number): number {
  const r = take.tracks.find((t) => t.bone === bone)?.rotations;
  if (r === undefined) return 0;
  let most = 0;
  for (let k = 4; k < r.length; k += 4) most = Math.max(most, quatAngle(r, 0, r, k));
  return most;
}

async function expectRiggedAndAnimated(session: Record<string, any>): Promise<void> {
  expect(session.status, session.error).toBe('predefined_done');
  const mesh = (await download(session.mesh_url)).bytes;
  expect(mesh.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
  const { model } = await readFbxAnimated(mesh, 'mesh.fbx');
  const names = model.bones.map((b) => b.name);
  for (const bone of ['Hips', 'Spine', 'Head', 'LeftUpLeg', 'RightLeg', 'LeftArm', 'RightHand'])
    expect(names).toContain(`mixamorig:${bone}`);
  // Skin weights on every vertex: four influences at most, summing to 1, every bone of the body bending some.
  const bent = new Set<number>();
  for (let v = 0; v < model.positions.length / 3; v++) {
    const w = model.weights.slice(v * 4, v * 4 + 4);
    expect(w.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 4);
    for (let k = 0; k < 4; k++) if (w[k]! > 0.5) bent.add(model.joints[v * 4 + k]!);
  }
  for (const bone of ['LeftUpLeg', 'LeftLeg', 'RightUpLeg', 'RightLeg', 'LeftForeArm', 'RightForeArm', 'Head'])
    expect(bent.has(names.indexOf(`mixamorig:${bone}`)), bone).toBe(true);
  // The library's walk swings the legs.
  const animated = await readFbxAnimated((await download(session.animation_url)).bytes, 'animation.fbx');
  const walk = animated.takes.find((t) => t.name === 'Walk');
  expect(walk).toBeDefined();
  for (const leg of ['LeftUpLeg', 'RightUpLeg', 'LeftLeg'])
    expect(swing(walk!, names.indexOf(`mixamorig:${leg}`)), leg).toBeGreaterThan(0.3);
  // The 17 joints on its render: a standing body.
  const j = session.animation_joint_dict as Record<string, [number, number]>;
  expect(j.Head![1]).toBeLessThan(j.Neck![1]);
  expect(j.Neck![1]).toBeLessThan(j.Pelvis![1]);
  expect(j.Pelvis![1]).toBeLessThan(j.L_Knee![1]);
  expect(j.L_Knee![1]).toBeLessThan(j.L_Ankle![1]);
  expect(j.R_Wrist![0]).toBeLessThan(j.L_Wrist![0]);
}

/** A picture of a person standing, arms a little out, legs apart, on white (the engine models its silhouette). */
function personPicture(): Buffer {
  const size = 512;
  const rgba = new Uint8Array(size * size * 4).fill(255);
  const capsules: [number, number, number, number, number][] = [
    [256, 80, 256, 80, 40], // head
    [256, 120, 256, 140, 16], // neck
    [256, 150, 256, 280, 50], // torso
    [222, 160, 150, 300, 15], // right arm (the picture's left)
    [290, 160, 362, 300, 15],
    [232, 280, 214, 480, 20], // legs
    [280, 280, 298, 480, 20],
    [214, 480, 204, 490, 18], // feet
    [298, 480, 308, 490, 18],
  ];
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const inside = capsules.some(([ax, ay, bx, by, r]) => {
        const dx = bx - ax;
        const dy = by - ay;
        const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1)));
        return Math.hypot(x - ax - t * dx, y - ay - t * dy) <= r;
      });
      if (inside) rgba.set([60, 90, 160, 255], (y * size + x) * 4);
    }
  return encodePng(size, size, rgba);
}

describe('automatic rigging of an animation upload with no skeleton', () => {
  it('rigs and animates a character whose skin and bones were dropped (Male_Casual, written again as a plain FBX)', async () => {
    const fbx = unriggedFbx(await unriggedModel());
    const uploaded = expectSuccess('uploadAnimationMesh', await uploadAnimationFile(engine, fbx, 'casual-mesh.fbx'));
    const session = await ready(uploaded.session_code);
    await expectRiggedAndAnimated(session);
    expect(session.image_to_3d_session_code).toBe(''); // an uploaded file comes from no image-to-3D session
  }, 300_000);

  it("rigs and animates the engine's own model of a picture of a person, by its FBX's URL", async () => {
    pictures.served.set('/person.png', personPicture());
    const { done } = await endedImageTo3d(
      engine,
      { image_url: pictures.url('/person.png'), resolution: 'low_poly' },
      240_000,
    );
    expect(done.session_status).toBe('complete');
    const created = expectSuccess(
      'uploadAnimationMesh',
      await call(engine, 'uploadAnimationMesh', { json: { mesh_url: done.mesh_url_fbx } }),
    );
    const session = await ready(created.session_code);
    await expectRiggedAndAnimated(session);
    // The animation session names the image-to-3D session its mesh came from, as the service's does.
    expect(session.image_to_3d_session_code).toBe(done.session_code);
    // Every joint on the body in its render (blue, where the backdrop is grey): the shoulders too, which sloped
    // shoulders left in the air above the body before they were brought down into it.
    const render = decodeImage((await download(session.render_url)).bytes);
    for (const [joint, [x, y]] of Object.entries(session.animation_joint_dict as Record<string, [number, number]>)) {
      const at = (Math.round(y) * render.width + Math.round(x)) * 4;
      expect(render.data[at + 2]! - render.data[at]!, `${joint} at ${x}, ${y}`).toBeGreaterThan(30);
    }
  }, 300_000);

  it("refuses the engine's model of a chair (by URL: the session fails) and a chair's FBX file (400), with why", async () => {
    const why =
      /has no skeleton and is not a humanoid standing upright, so the local engine cannot rig it: .+\. The local engine rigs one humanoid standing upright.+upload the rigged FBX\.$/;
    pictures.served.set('/chair.png', readFileSync(realFixture('images', 'chair.png')));
    const { done } = await endedImageTo3d(
      engine,
      { image_url: pictures.url('/chair.png'), resolution: 'low_poly' },
      240_000,
    );
    const byUrl = expectSuccess(
      'uploadAnimationMesh',
      await call(engine, 'uploadAnimationMesh', { json: { mesh_url: done.mesh_url_fbx } }),
    );
    const failed = await ready(byUrl.session_code);
    expect(failed).toMatchObject({ status: 'init_failed', mesh_url: '', animation_library: [] });
    expect(failed.error).toMatch(why);
    // A file is rigged before it is answered: refused at once, no session made.
    const file = await uploadAnimationFile(engine, unriggedFbx(boxes(CHAIR)), 'chair.fbx');
    expectError(file, 400, 'file: chair.fbx has no skeleton', "like a chair's or a table's legs");
    expect(file.body.message).toMatch(why);
    // A zip holding it: its one FBX is rigged (and refused) the same way.
    const zip = buildZip([{ name: 'models/chair.fbx', data: unriggedFbx(boxes(CHAIR)) }]);
    const zipped = await uploadAnimationFile(engine, zip, 'chair.zip');
    expectError(zipped, 400, 'file: chair.zip has no skeleton', "like a chair's or a table's legs");
  }, 300_000);
});
