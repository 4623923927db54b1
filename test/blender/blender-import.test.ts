import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO, getBounds, type Document } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningWebHost } from '../../main/host/web-host.ts';
import { readFbxCharacter } from '../../main/formats/fbx-read.ts';
import { formatOfBytes } from '../../shared/file-format.ts';
import { LIBRARY_CLIPS } from '../engine/library.ts';
import { readFbxNodes } from '../export/fbx-nodes.ts';
import { tempDir } from '../host/helpers.ts';
import { sampleJobs, startTestHost, webHostClient } from '../host/web-host-client.ts';
import { HAS_BLENDER, runAddonScript, warnIfNoBlender } from './blender.ts';

warnIfNoBlender('test/blender/blender-import.test.ts');

/** A cap for a hung Blender, not a speed bar: Blender starts slowly on a loaded 2-core machine. */
const BLENDER_CAP_MS = 15 * 60_000;

const data = tempDir('blender-import');
const dataDir = join(data.path, 'data');
let host: RunningWebHost;
/** The prompts animated on the character (the engine's library also has Walk and Jump: other names, other case). */
const PROMPTS = ['walk', 'jump'];
const client = webHostClient(() => host);
const { call, finished: succeeded } = client;

/** The cached GLB of an output, read with glTF-Transform. */
async function cachedGlb(sessionId: string, kind: string): Promise<Document> {
  const res = await fetch(`${host.origin}/cache/${encodeURIComponent(sessionId)}/${encodeURIComponent(kind)}`, {
    headers: { authorization: `Bearer ${host.token}` },
  });
  expect(res.status).toBe(200);
  return new NodeIO().readBinary(new Uint8Array(await res.arrayBuffer()));
}

/** The cached bytes of an output. */
async function cachedBytes(sessionId: string, kind: string): Promise<Buffer> {
  const res = await fetch(`${host.origin}/cache/${encodeURIComponent(sessionId)}/${encodeURIComponent(kind)}`, {
    headers: { authorization: `Bearer ${host.token}` },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** An animated file's clips and triangles, GLB or FBX (the service's format, the engine's default). */
async function animatedFacts(bytes: Buffer): Promise<{ clips: string[]; triangles: number }> {
  if (formatOfBytes(bytes.subarray(0, 32)) === 'fbx') {
    const stacks = readFbxNodes(bytes)
      .find((n) => n.name === 'Objects')!
      .children.filter((n) => n.name === 'AnimationStack');
    const model = await readFbxCharacter(bytes, 'animation.fbx');
    return {
      clips: stacks.map((n) => String(n.props[1]).split('\0')[0]!),
      triangles: model.parts.reduce((n, p) => n + p.indices.length / 3, 0),
    };
  }
  const doc = await new NodeIO().readBinary(new Uint8Array(bytes));
  return {
    clips: doc
      .getRoot()
      .listAnimations()
      .map((a) => a.getName()),
    triangles: triangles(doc),
  };
}

function triangles(doc: Document): number {
  let count = 0;
  for (const mesh of doc.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives())
      count += (prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')!.getCount()) / 3;
  return count;
}

describe.skipIf(!HAS_BLENDER)('the Blender add-on in headless Blender', () => {
  let modelJob: any;
  let animationJob: any;
  let retopologyJob: any;
  let promptsJob: any;
  let facts: any;
  let blenderOutput = '';

  beforeAll(async () => {
    host = await startTestHost(dataDir);
    // Followed to success only: their outputs are not fetched into the cache before the add-on asks for them.
    const jobs = await sampleJobs(client, PROMPTS, client.finished);
    ({ chair: modelJob, animation: animationJob, prompts: promptsJob, retopology: retopologyJob } = jobs);

    // The model job by its local id, the animation job by its session code: both are accepted.
    const run = await runAddonScript(
      'blender_import.py',
      data.path,
      [modelJob.id, animationJob.remoteId, retopologyJob.id, promptsJob.id],
      { capMs: BLENDER_CAP_MS, env: { ASSET_STUDIO_DATA_DIR: dataDir } },
    );
    ({ facts, output: blenderOutput } = run);
  }, BLENDER_CAP_MS + 300_000);

  afterAll(async () => {
    await host?.close();
    data.remove();
  });

  it('installs and enables the add-on from the built zip', () => {
    expect(facts.addon).toMatchObject({ name: 'Asset Studio', blender: [3, 4, 0] });
    expect(facts.addon.file).toContain(join(data.path, 'blender-scripts', 'addons', 'asset_studio'));
  });

  it('imports the image-to-3D job: its meshes, every triangle, its texture, at the cursor, Z up', async () => {
    const glb = await cachedGlb(modelJob.remoteId, 'glb');
    const imported = facts.model;
    expect(imported.result).toEqual(['FINISHED']);
    expect(imported.objects.filter((o: any) => o.type === 'MESH')).toHaveLength(glb.getRoot().listMeshes().length);
    for (const o of imported.objects) expect(o).toMatchObject({ job: modelJob.id, session: modelJob.remoteId });
    expect(imported.triangles).toBe(triangles(glb));
    const textures = glb.getRoot().listTextures();
    expect(textures.length).toBeGreaterThan(0);
    expect(imported.images.map((i: any) => i.size)).toEqual(textures.map((t) => t.getSize()).sort());
    expect(imported.images.every((i: any) => i.packed)).toBe(true);
    // glTF is Y up in metres; Blender is Z up in metres: the height becomes Z. By default the pivot is at the
    // bottom centre, as the app's exports to game engines place it: the model stands on the floor at the cursor
    // (x = 2), the roots there too; the service's model has its origin at its centre, half of it below the floor.
    const bounds = getBounds(glb.getRoot().listScenes()[0]!);
    expect(bounds.min[1]!).toBeLessThan(-0.1); // the file's model reaches below its origin
    const closeTo = (a: number, b: number) => expect(a).toBeCloseTo(b, 3);
    closeTo(imported.bounds.min[2], 0);
    closeTo(imported.bounds.max[2], bounds.max[1]! - bounds.min[1]!);
    closeTo((imported.bounds.min[0] + imported.bounds.max[0]) / 2, 2);
    closeTo((imported.bounds.min[1] + imported.bounds.max[1]) / 2, 0);
    closeTo(imported.bounds.max[0] - imported.bounds.min[0], bounds.max[0]! - bounds.min[0]!);
    closeTo(imported.bounds.max[1] - imported.bounds.min[1], bounds.max[2]! - bounds.min[2]!);
    for (const root of imported.roots) expect(root.location[0]).toBeCloseTo(2, 5);
  });

  it("keeps the file's own origin when asked (pivot AS_IS): the centre of the model's box, as the service made it", async () => {
    const glb = await cachedGlb(modelJob.remoteId, 'glb');
    const imported = facts.model_as_is;
    expect(imported.result).toEqual(['FINISHED']);
    expect(imported.triangles).toBe(triangles(glb));
    const bounds = getBounds(glb.getRoot().listScenes()[0]!);
    const closeTo = (a: number, b: number) => expect(a).toBeCloseTo(b, 3);
    closeTo(imported.bounds.min[2], bounds.min[1]!);
    closeTo(imported.bounds.max[2], bounds.max[1]!);
    closeTo(imported.bounds.min[0], bounds.min[0]! + 6);
    closeTo(imported.bounds.max[1], -bounds.min[2]!);
    for (const root of imported.roots) expect(root.location[0]).toBeCloseTo(6, 5);
  });

  it('keeps the size in metres in a scene whose unit is the centimetre', async () => {
    const bounds = getBounds((await cachedGlb(modelJob.remoteId, 'glb')).getRoot().listScenes()[0]!);
    const imported = facts.centimetres;
    expect(imported.triangles).toBe(facts.model.triangles);
    expect(imported.bounds.max[2] - imported.bounds.min[2]).toBeCloseTo((bounds.max[1]! - bounds.min[1]!) * 100, 2);
    // Standing on the floor, its bottom centre at the cursor (0, 300, 0).
    expect((imported.bounds.max[1] + imported.bounds.min[1]) / 2).toBeCloseTo(300, 2);
    expect(imported.bounds.min[2]).toBeCloseTo(0, 2);
  });

  it("imports a retopology job's OBJ, also in metres in a scene measured in centimetres", async () => {
    const bounds = getBounds((await cachedGlb(modelJob.remoteId, 'glb')).getRoot().listScenes()[0]!);
    const imported = facts.retopology;
    expect(imported.result).toEqual(['FINISHED']);
    expect(imported.objects.map((o: any) => o.type)).toEqual(['MESH']);
    expect(imported.objects[0]).toMatchObject({ job: retopologyJob.id, session: retopologyJob.remoteId });
    expect(imported.triangles).toBeGreaterThan(0);
    // The engine remeshes the model's own shape at its size: about as tall, in metres (here 100 units a metre).
    const height = (imported.bounds.max[2] - imported.bounds.min[2]) / 100;
    expect(Math.abs(height - (bounds.max[1]! - bounds.min[1]!))).toBeLessThan(0.1 * (bounds.max[1]! - bounds.min[1]!));
    // A static model: standing on the floor, its bottom centre at the cursor (0, -300, 0).
    expect((imported.bounds.max[1] + imported.bounds.min[1]) / 2).toBeCloseTo(-300, 2);
    expect(imported.bounds.min[2]).toBeCloseTo(0, 2);
  });

  /** Blender names a glTF animation's action `<clip>` or `<clip>_<object>`, an FBX take's `<armature>|<clip>`. */
  const actionOf = (actions: string[], clip: string) =>
    actions.some((a) => a === clip || a.startsWith(`${clip}_`) || a.endsWith(`|${clip}`));

  it('imports the animation job with every clip as an action when asked (clips="ALL"), kept when the file is saved', async () => {
    // FBX as the service delivers it (the engine's default): the session's model holds the library's clips.
    const { clips, triangles: count } = await animatedFacts(await cachedBytes(animationJob.remoteId, 'animation'));
    expect(clips).toEqual(LIBRARY_CLIPS);
    const imported = facts.animation;
    expect(imported.result).toEqual(['FINISHED']);
    expect(imported.objects.filter((o: any) => o.type === 'ARMATURE')).toHaveLength(1);
    expect(imported.triangles).toBe(count);
    for (const clip of [...clips, ...PROMPTS]) expect(actionOf(imported.actions, clip), clip).toBe(true);
    expect(imported.actions).toHaveLength(clips.length + PROMPTS.length);
    expect(imported.actions_kept).toBe(true);
  });

  it("imports an animated job with its prompts' clips by default, each an action named after its prompt, and no library clip", async () => {
    // The default of the app's export (UI and CLI): the host applies it, the add-on names no clips.
    const imported = facts.prompts;
    expect(imported.result).toEqual(['FINISHED']);
    expect(imported.objects.filter((o: any) => o.type === 'ARMATURE')).toHaveLength(1);
    for (const o of imported.objects) expect(o).toMatchObject({ job: promptsJob.id, session: animationJob.remoteId });
    for (const prompt of PROMPTS) expect(actionOf(imported.actions, prompt), imported.actions.join(', ')).toBe(true);
    for (const clip of LIBRARY_CLIPS) expect(actionOf(imported.actions, clip), imported.actions.join(', ')).toBe(false);
    expect(imported.actions).toHaveLength(PROMPTS.length);
    expect(imported.triangles).toBe(facts.animation.triangles);
    expect(imported.actions_kept).toBe(true);
  });

  it("downloads into this user's private folder under the temp folder (0700), not a shared fixed one", () => {
    const folder = join(data.path, `asset-studio-blender-${process.getuid!()}`);
    for (const f of [folder, join(folder, 'models'), join(folder, 'thumbnails')].filter(existsSync))
      expect(statSync(f).mode & 0o777, f).toBe(0o700);
    expect(readdirSync(join(folder, 'models')).length).toBeGreaterThan(0);
    expect(existsSync(join(data.path, 'asset-studio-blender'))).toBe(false);
  });

  it("does not make the add-on's download folder the next export's folder", async () => {
    const settings = await call('settings.get', {});
    expect(settings.export.projectDir).toBeUndefined();
  });

  it('is disabled cleanly: nothing of it is left registered', () => {
    expect(facts.disabled).toEqual({ errors: [], properties_left: [] });
  });

  it('reports a job that does not exist in words', () => {
    expect(facts.missing).toMatch(/Asset Studio has no job "SESSION_not_a_job_here"/);
  });

  it('sends the selected object back as an animation upload, followed in the panel', async () => {
    expect(facts.sent).toEqual(['FINISHED']);
    expect(facts.followed).toMatchObject({ kind: 'animation_session' });
    const job = await call('jobs.get', { id: facts.followed.job });
    expect(job.label).toMatch(/from Blender/);
    const done = await succeeded(job.id);
    expect(done.kind).toBe('animation_session');
    expect(blenderOutput).not.toContain(host.token);
  });

  it("sends an imported model for retopology: the new job's original is the job it came from", async () => {
    expect(facts.retopology_sent).toEqual(['FINISHED']);
    expect(facts.retopology_followed).toMatchObject({ kind: 'v3_session' });
    const found = await call('jobs.original', { id: facts.retopology_followed.job });
    expect(found.original).toMatchObject({ jobId: modelJob.id, kind: 'glb' });
  });
});
