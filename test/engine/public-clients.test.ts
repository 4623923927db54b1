// Issue 22, "the engine as faithful as the public examples": what public clients of the service (the vendor's SDK
// in its releases, its docs' and eval scripts' requests) send and read, over real HTTP with raw fetch calls
// shaped as those clients send them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { encodePng, readGlbJson } from '../../main/engine/outputs/index.ts';
import { decodeImage } from '../../main/images/decode-image.ts';
import { OLDER_FLOW, olderStepState } from '../../shared/kinds/older-flow-status.ts';
import { KEY, pollUntil, startTestEngine, useTestEngine, type TestEngine } from './helpers.ts';
import { validator } from '../gltf-validator.ts';

const engine = useTestEngine();

const headers = { 'x-api-key': KEY, 'Content-Type': 'application/json' };
/** A small subject on a white ground, as the SDK sends a local file (`data:image/png;base64,`). */
function picture(): string {
  const size = 48;
  const data = new Uint8Array(size * size * 4).fill(255);
  for (let y = 12; y < 40; y++)
    for (let x = 16; x < 32; x++) {
      const o = (y * size + x) * 4;
      data[o] = 200;
      data[o + 1] = 40;
      data[o + 2] = 30;
    }
  return `data:image/png;base64,${encodePng(size, size, data).toString('base64')}`;
}
const IMAGE = picture();

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
async function get(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { 'x-api-key': KEY } });
  return { status: res.status, body: await res.json() };
}
const session = async (e: TestEngine, code: string) => (await get(`${e.url}/image-to-3d-sessions/${code}`)).body.data;

/** A create at the base address of `{ image_url: IMAGE, ...fields }`, as a public client sends it: answered 201. */
async function createAtBase(fields: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const created = await post(`${engine.url}/image-to-3d-sessions`, { image_url: IMAGE, ...fields });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created;
}

/** A GLB the glTF validator finds no error in. */
async function expectGlb(url: string): Promise<void> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(Buffer.from(bytes).subarray(0, 4).toString('latin1')).toBe('glTF');
  const report = await validator.validateBytes(bytes);
  expect(report.issues.numErrors, JSON.stringify(report.issues.messages)).toBe(0);
}

describe('list', () => {
  it('takes page=0 (skips none, as page=1)', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post(`${engine.url}/image-to-3d-sessions`, { image_url: IMAGE })).status).toBe(201);
    const zero = await get(`${engine.url}/image-to-3d-sessions?page=0&limit=2`);
    expect(zero.status, JSON.stringify(zero.body)).toBe(200);
    expect(zero.body.data).toMatchObject({ page: 0, skip: 0, limit: 2 });
    const one = await get(`${engine.url}/image-to-3d-sessions?page=1&limit=2`);
    expect(zero.body.data.results.map((r: any) => r.session_code)).toEqual(
      one.body.data.results.map((r: any) => r.session_code),
    );
    const negative = await get(`${engine.url}/image-to-3d-sessions?page=-1`);
    expect(negative.status).toBe(400);
    expect(negative.body.message).toContain('page');
    expect(negative.body.message).toContain('0 or more');
  });
});

describe('/v3 outputs', () => {
  it('image_to_3d: output.meshes[0] beside output.mesh, with the asset fields public clients read', async () => {
    // The vendor README's request.
    const created = await post(`${engine.url}/v3/sessions/`, { type: 'image_to_3d', input: { image: IMAGE } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.output.meshes).toHaveLength(1);
    expect(created.body.output.meshes[0]).toMatchObject({ status: 'incomplete', type: 'mesh' });
    expect(created.body.input.image).toMatchObject({ type: 'image', status: 'complete' });
    expect(created.body.output.segmented_image_url).toBe('');
    const done = await pollUntil(
      async () => (await get(`${engine.url}/v3/sessions/${created.body._id}`)).body,
      (s) => s.status !== 'incomplete',
    );
    expect(done.status).toBe('complete');
    const [mesh] = done.output.meshes;
    expect(mesh).toEqual(done.output.mesh);
    expect(mesh).toMatchObject({ _id: expect.stringMatching(/^ASSET_/), status: 'complete', type: 'mesh' });
    for (const field of ['glb_url', 'obj_url', 'fbx_url', 'usdz_url', 'image_url'])
      expect(mesh.data[field], field).toMatch(/^http/);
    await expectGlb(mesh.data.glb_url);
    // The README's segmented_image_url: the picture with its background transparent.
    const segmented = decodeImage(new Uint8Array(await (await fetch(done.output.segmented_image_url)).arrayBuffer()));
    const alpha = (x: number, y: number) => segmented.data[(y * segmented.width + x) * 4 + 3];
    expect(alpha(0, 0)).toBe(0); // the white ground
    expect(alpha(Math.floor(segmented.width / 2), Math.floor(segmented.height / 2))).toBe(255); // the red subject
  });

  it('retopology: the output asset carries glb_url beside obj_url and image_url (a GLB of the result)', async () => {
    // As the vendor's eval script: a generated mesh's GLB URL, precision and swift, quads.
    const made = await post(`${engine.url}/v3/sessions/`, {
      type: 'image_to_3d',
      input: {
        image: IMAGE,
        model: 'sculpt',
        settings: { geometry_model: 'base', texture_model: 'none', resolution: 2000 },
      },
    });
    const source = await pollUntil(
      async () => (await get(`${engine.url}/v3/sessions/${made.body._id}`)).body,
      (s) => s.status !== 'incomplete',
    );
    const created = await post(`${engine.url}/v3/sessions/`, {
      type: 'retopology',
      input: { mesh: source.output.meshes[0].data.glb_url, quads: true, model: 'swift' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.output.meshes[0].data).toEqual({ glb_url: '', obj_url: '', image_url: '' });
    const done = await pollUntil(
      async () => (await get(`${engine.url}/v3/sessions/${created.body._id}`)).body,
      (s) => s.status !== 'incomplete',
      30_000,
    );
    expect(done.status, JSON.stringify(done)).toBe('complete');
    const { data } = done.output.meshes[0];
    for (const field of ['glb_url', 'obj_url', 'image_url']) expect(data[field], field).toMatch(/^http/);
    await expectGlb(data.glb_url);
  });
});

describe('the older flow at the base address', () => {
  it('SDK 0.1.3: generate_preview_mesh gives training_preview at once, then preview_done and the preview meshes', async () => {
    const created = await createAtBase({
      generate_preview_mesh: true,
      creativity: 'lowest',
      refine_speed: 'fast',
      resolution: 'high_poly',
      auto_refine: false,
      topology: 'tris',
      texture_resolution: 2048,
      manual_segmentation: false,
      pivot_point: [0, 0, 0],
    });
    expect(created.body.data).toMatchObject({ status: 'training_preview', _id: expect.any(String) });
    const code: string = created.body.data.session_code;
    const seen = new Set<string>();
    const done = await pollUntil(
      async () => {
        const s = await session(engine, code);
        seen.add(s.status);
        return s;
      },
      (s) => s.status === 'preview_done' || s.status.endsWith('failed'),
    );
    expect([...seen].filter((s) => s !== 'training_preview' && s !== 'preview_done')).toEqual([]);
    expect(done.status).toBe('preview_done');
    for (const field of ['preview_mesh_url', 'preview_mesh_url_zip', 'preview_mesh_url_glb', 'preview_mesh_url_usdz'])
      expect(done[field], field).toMatch(/^http/);
    await expectGlb(done.preview_mesh_url_glb);
    expect((await fetch(done.preview_mesh_url)).status).toBe(200);
  });

  it('SDK 0.0.2: spin first (spin_generate_processing), a preview of spins[0], training_preview until preview_done', async () => {
    const created = await createAtBase({
      preview_mesh: 'turbo',
      generate_preview_mesh: false,
      pixel_alignment: 'highest',
      model_resolution: 'high',
      resolution: 'high_poly',
      diffusion_time_steps: 75,
      auto_gen_3d: false,
      topology: 'tris',
      texture_resolution: 2048,
      manual_segmentation: false,
      scaled_bbox: [1, 1, 1],
    });
    expect(created.body.data.status).toBe('spin_generate_processing');
    const code: string = created.body.data.session_code;
    const spun = await pollUntil(
      () => session(engine, code),
      (s) => s.status !== 'spin_generate_processing',
    );
    expect(spun.status).toBe('spin_generate_done');
    const ack = await post(`${engine.url}/image-to-3d-sessions/get-3d/preview/${code}`, {
      selected_spin_index: 0,
      selected_spin: spun.spins[0].image_url,
      scaled_bbox: [1, 1, 1],
    });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const done = await pollUntil(
      () => session(engine, code),
      (s) => s.status !== 'training_preview',
    );
    expect(done.status).toBe('preview_done');
    expect(done.preview_mesh_url_zip).toMatch(/^http/);
    // Without the sculpt model, the zip address is a zip (the OBJ with its material and texture).
    const zip = Buffer.from(await (await fetch(done.preview_mesh_url_zip)).arrayBuffer());
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('a public page: preview_mesh, refine_speed, creativity… and it waits for preview_done (no preview asked)', async () => {
    const created = await createAtBase({
      refine_speed: 'slow',
      preview_mesh: 'fast_sculpt',
      texture_resolution: 2048,
      topology: 'tris',
      resolution: 'high_poly',
      creativity: 'highest',
    });
    // The docs' names: spin_generate_processing from creation, training_preview while the preview is made.
    expect(created.body).toMatchObject({ statusCode: 201, data: { status: 'spin_generate_processing' } });
    const done = await pollUntil(
      () => session(engine, created.body.data.session_code),
      (s) => s.status === 'preview_done' || s.status.endsWith('failed'),
    );
    expect(done.status).toBe('preview_done');
    await expectGlb(done.preview_mesh_url_glb);
    expect(await (await fetch(done.preview_mesh_url)).text()).toMatch(/^v /m); // an OBJ
    // The SDK saves a sculpt preview's `preview_mesh_url_zip` as mesh.obj (its commit "return mesh.obj instead of
    // mesh.zip"): for `preview_mesh: "fast_sculpt"` that address is the OBJ itself.
    const sculpt = await (await fetch(done.preview_mesh_url_zip)).text();
    expect(sculpt.startsWith('PK')).toBe(false);
    expect(sculpt).toMatch(/^v /m);
  });

  it("the docs' sculpt session with auto_refine and no texture: refined by itself, training_refine then refine_done", async () => {
    const created = await createAtBase({
      preview_mesh: 'fast_sculpt',
      generate_texture: false,
      auto_refine: true,
      topology: 'quads',
      creativity: 'lowest',
      refine_speed: 'slow',
      texture_resolution: 512,
    });
    const seen = new Set<string>([created.body.data.status]);
    const done = await pollUntil(
      async () => {
        const s = await session(engine, created.body.data.session_code);
        seen.add(s.status);
        return s;
      },
      (s) => s.status === 'refine_done' || s.status.endsWith('failed'),
    );
    const named = ['spin_generate_processing', 'training_preview', 'preview_done', 'training_refine', 'refine_done'];
    expect([...seen].filter((s) => !named.includes(s))).toEqual([]);
    expect(done.status).toBe('refine_done');
    expect(done.mesh_url_glb).toMatch(/^http/);
    const glb = Buffer.from(await (await fetch(done.mesh_url_glb)).arrayBuffer());
    expect(readGlbJson(glb)).not.toHaveProperty('images'); // generate_texture: false
    // topology: quads gives a refined mesh of quads (faces of four corners in its OBJ).
    const obj = await (await fetch(done.mesh_url_obj)).text();
    expect(obj).toMatch(/^f \S+ \S+ \S+ \S+$/m);
    expect(done.topology).toBe('quads');
  });

  it('webhooks of a session made at the base address name its steps as the docs do, in the older form', async () => {
    const events: any[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        events.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const paced = await startTestEngine({ speed: 100, webhookIntervalMs: 20 });
    try {
      paced.webhooks.configure({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
      const created = await post(`${paced.url}/image-to-3d-sessions`, {
        image_url: IMAGE,
        preview_mesh: 'fast_sculpt',
        auto_refine: true,
      });
      const code: string = created.body.data.session_code;
      await pollUntil(
        async () => events,
        (e) => e.some((event) => event.type === 'refine_done'),
        20_000,
      );
      const types = events.filter((e) => e.payload?.session_code === code).map((e) => e.type);
      expect(types).toContain('training_preview');
      expect(types).toContain('training_refine');
      expect(types.at(-1)).toBe('refine_done');
      expect(events.every((e) => e.payload?.status === e.type)).toBe(true);
      // The app reads those names as the steps they are (shared/kinds/older-flow-status.ts).
      expect(olderStepState('training_preview', 'preview')).toBe('running');
      expect(olderStepState('training_refine', 'refine')).toBe('running');
      expect(olderStepState('training_refine', 'preview')).toBe('succeeded');
      expect(OLDER_FLOW.training_preview).toBe('running');

      // A /v3 image_to_3d session is notified too, in the generic form.
      const v3 = await post(`${paced.url}/v3/sessions`, { type: 'image_to_3d', input: { image: IMAGE } });
      const change = await pollUntil(
        async () => events.find((e) => e.session_id === v3.body._id),
        (e) => e !== undefined,
        20_000,
      );
      expect(change).toMatchObject({
        type: 'session_status_changed',
        old_status: 'incomplete',
        new_status: 'complete',
      });
    } finally {
      await paced.dispose();
      receiver.close();
    }
  });

  it('a base create with auto_gen_3d or model_version answers the older form; one without stays current', async () => {
    const older = await createAtBase({
      auto_gen_3d: true,
      model_version: 1.1,
    });
    expect(older.body.data).toMatchObject({ model_version: '1.1', inference: [], status: 'spin_generate_processing' });
    expect(older.body.data.session_status).toBeUndefined();
    const done = await pollUntil(
      () => session(engine, older.body.data.session_code),
      (s) => s.status === 'preview_done' || s.status.endsWith('failed'),
    );
    expect(done.status).toBe('preview_done');

    const current = await post(`${engine.url}/image-to-3d-sessions`, { image_url: IMAGE, manual_segmentation: false });
    expect(current.body.data).toMatchObject({ session_status: 'queued' });
    expect(current.body.data.status).toBeUndefined();
    // Older parameters of the wrong type are refused, naming the field.
    const wrong = await post(`${engine.url}/image-to-3d-sessions`, { image_url: IMAGE, auto_gen_3d: 'maybe' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('auto_gen_3d');
  });
});

describe('preview and refine while one is being made', () => {
  it('a second preview (another spin) is a new trial with its own key; so is a second refine', async () => {
    const made = await post(`${engine.legacyUrl}/image-to-3d-sessions`, { image_url: IMAGE });
    const code: string = made.body.data.session_code;
    await pollUntil(
      () => session(engine, code),
      (s) => s.status === 'spin_generate_done',
    );
    // At realistic speed the preview runs long enough to ask again while it is made.
    await engine.restart({ speed: 1 });
    const spins = (await session(engine, code)).spins;
    const first = await post(`${engine.url}/image-to-3d-sessions/get-3d/preview/${code}`, {
      selected_spin_index: 0,
      selected_spin: spins[0].image_url,
    });
    expect(first.status).toBe(200);
    expect((await session(engine, code)).status).toBe('preview_processing');
    const second = await post(`${engine.url}/image-to-3d-sessions/get-3d/preview/${code}`, {
      selected_spin_index: 1,
      selected_spin: spins[1].image_url,
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.message).toBe('Generating Mesh');
    expect(second.body.data.unique_trial_key).not.toBe(first.body.data.unique_trial_key);
    expect(JSON.parse(second.body.data.complete_job_data.task_data)).toMatchObject({ selected_spin_index: 1 });

    // A refine asked while the preview is made follows it, with its pivot (no 400 either).
    const queued = await post(`${engine.url}/image-to-3d-sessions/get-3d/refine/${code}`, {
      pivot_point: [0, -0.5, 0],
    });
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    expect((await session(engine, code)).status).toBe('preview_processing');

    // Finish both quickly, then a refine, and ask for it again while it runs.
    await engine.restart();
    const refined = await pollUntil(
      () => session(engine, code),
      (s) => s.status === 'refine_done' || s.status.endsWith('failed'),
    );
    expect(refined.status).toBe('refine_done');
    expect(refined.preview_mesh_url_glb).toMatch(/^http/);
    expect(refined.pivot_point).toEqual([0, -0.5, 0]);
    await engine.restart({ speed: 1 });
    const refine = await post(`${engine.url}/image-to-3d-sessions/get-3d/refine/${code}`, {});
    expect(refine.status).toBe(200);
    const again = await post(`${engine.url}/image-to-3d-sessions/get-3d/refine/${code}`, { pivot_point: [0, -0.5, 0] });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.unique_trial_key).not.toBe(refine.body.data.unique_trial_key);
    expect((await session(engine, code)).status).toBe('refine_processing');
    await engine.restart(); // the fast engine for the next tests
  });
});

describe('values public clients send', () => {
  it('SDK 0.1.8 current create: manual_segmentation and pivot_point (used: the bottom centre at the origin)', async () => {
    const created = await createAtBase({
      manual_segmentation: false,
      pivot_point: [0, -0.5, 0],
      geometry_model: 'base',
      texture_model: 'none',
    });
    expect(created.body.data).toMatchObject({ session_status: 'queued', pivot_point: [0, -0.5, 0] });
    const done = await pollUntil(
      () => session(engine, created.body.data.session_code),
      (s) => s.session_status === 'complete' || s.session_status === 'failed',
    );
    expect(done.session_status).toBe('complete');
    const glb = Buffer.from(await (await fetch(done.mesh_url_glb)).arrayBuffer());
    const json = readGlbJson(glb) as {
      meshes: { primitives: { attributes: { POSITION: number } }[] }[];
      accessors: { min: number[]; max: number[] }[];
    };
    const position = json.accessors[json.meshes[0]!.primitives[0]!.attributes.POSITION]!;
    expect(position.min[1]).toBeCloseTo(0, 3);
    expect(position.max[1]).toBeGreaterThan(0.1);
    const wrong = await post(`${engine.url}/image-to-3d-sessions`, { image_url: IMAGE, pivot_point: [0, -0.7, 0] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('pivot_point[1]');
  });

  it('preview: model_version as a number, selected_spin_index as text; older create: "True"', async () => {
    const made = await post(`${engine.legacyUrl}/image-to-3d-sessions`, { image_url: IMAGE, auto_gen_3d: 'True' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const code: string = made.body.data.session_code;
    await pollUntil(
      () => session(engine, code),
      (s) => s.status === 'preview_done' || s.status.endsWith('failed'),
    );
    const ack = await post(`${engine.url}/image-to-3d-sessions/get-3d/preview/${code}`, {
      model_version: 1.2,
      selected_spin_index: '3',
    });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(JSON.parse(ack.body.data.complete_job_data.task_data)).toMatchObject({
      model_version: '1.2',
      selected_spin_index: 3,
    });
    // A public page sends the picture itself as selected_spin: the view is then selected_spin_index.
    const asPicture = await post(`${engine.url}/image-to-3d-sessions/get-3d/preview/${code}`, {
      selected_spin_index: 0,
      selected_spin: IMAGE,
    });
    expect(asPicture.status, JSON.stringify(asPicture.body)).toBe(200);
    expect(JSON.parse(asPicture.body.data.complete_job_data.task_data)).toMatchObject({ selected_spin_index: 0 });
    const refused = await post(`${engine.url}/image-to-3d-sessions/get-3d/preview/${code}`, { model_version: 2 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('model_version');
    expect(refused.body.message).toContain('"1.0", "1.1", "1.2"');
  });

  it('text-to-image as the SDK sends it: guidance as text, style_id empty', async () => {
    const created = await post(`${engine.url}/tti-sessions`, { prompt: 'a red chair', style_id: '', guidance: '6' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it('v3: the README settings (symmetry, scaled_bbox, pivot_point…), num_variations; an unknown type names the types', async () => {
    const created = await post(`${engine.url}/v3/sessions`, {
      type: 'image_to_3d',
      input: {
        image: IMAGE,
        num_variations: 1,
        manual_segmentation: false,
        model: 'sculpt',
        settings: {
          geometry_model: 'base',
          texture_model: 'none',
          topology: 'tris',
          resolution: 100000,
          symmetry: 'off',
          scaled_bbox: [-1, -1, -1],
          preserve_aspect_ratio: false,
          pivot_point: [0, -0.5, 0],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const unknown = await post(`${engine.url}/v3/sessions`, { type: 'chat_to_3d', input: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('type');
    expect(unknown.body.message).toContain('"multiview_to_3d"');
  });
});
