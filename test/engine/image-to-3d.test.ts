import { describe, expect, it } from 'vitest';
import { readGlbJson } from '../../main/engine/outputs/index.ts';
import {
  call,
  download,
  endedImageTo3d,
  expectSuccess,
  inputUrl,
  PNG_DATA_URI,
  PNG_SIGNATURE,
  pollUntil,
  startTestEngine,
  useTestEngine,
} from './helpers.ts';
import { validator } from '../gltf-validator.ts';

interface Gltf {
  accessors: { count: number; min?: number[]; max?: number[] }[];
  images?: unknown[];
}

const engine = useTestEngine();

const createAndFinish = async (json: Record<string, unknown>) => (await endedImageTo3d(engine, json)).done;

describe('image-to-3D (current form)', () => {
  it('is created queued with every request field echoed', async () => {
    const json = {
      image_url: inputUrl('chair.png'),
      geometry_model: 'turbo',
      texture_model: 'pbr',
      scaled_bbox: [1, 2, -1],
      preserve_aspect_ratio: true,
      topology: 'quads',
      resolution: 'low_poly',
    };
    const session = expectSuccess('createImageTo3d', await call(engine, 'createImageTo3d', { json }));
    expect(session).toMatchObject({
      ...json,
      session_status: 'queued',
      percent_done: 0,
      mesh_url: '',
      mesh_url_glb: '',
    });
    expect(session.session_code).toMatch(/^SESSION_[0-9a-f]{24}$/);
    expect(session.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('progresses to complete with all outputs, and the GLB passes the Khronos validator', async () => {
    const seen = new Set<string>();
    const created = expectSuccess(
      'createImageTo3d',
      await call(engine, 'createImageTo3d', {
        json: { image_url: inputUrl('a.png'), texture_model: 'baked', resolution: 'low_poly' },
      }),
    );
    const done = await pollUntil(
      async () => {
        const s = expectSuccess(
          'getImageTo3d',
          await call(engine, 'getImageTo3d', { params: { session_code: created.session_code } }),
        );
        seen.add(s.session_status);
        return s;
      },
      (s) => s.session_status === 'complete',
    );
    expect(done.percent_done).toBe(100);
    expect(done.mp4_url).toBe('');
    expect([...seen].every((s) => ['queued', 'in_progress', 'processing', 'complete'].includes(s))).toBe(true);

    const glb = await download(done.mesh_url_glb);
    expect(glb.status).toBe(200);
    expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    const report = await validator.validateBytes(new Uint8Array(glb.bytes));
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages)).toBe(0);
    expect((readGlbJson(glb.bytes) as Gltf).images).toHaveLength(1); // baked texture embedded

    const files = {
      mesh_url_obj: ['model/obj', (b: Buffer) => b.toString('utf8').includes('\nf ')],
      mesh_url_zip: ['application/zip', (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'PK\x03\x04'],
      mesh_url_fbx: [
        'application/octet-stream',
        (b: Buffer) => b.subarray(0, 18).toString('latin1') === 'Kaydara FBX Binary',
      ],
      mesh_url_usdz: ['model/vnd.usdz+zip', (b: Buffer) => b.includes(Buffer.from('#usda 1.0'))],
    } as const;
    for (const [field, [type, check]] of Object.entries(files)) {
      const file = await download(done[field]);
      expect(file.headers.get('content-type'), field).toBe(type);
      expect(check(file.bytes), field).toBe(true);
    }
  });

  it('honours texture, topology, resolution, size and aspect ratio', async () => {
    const plain = await createAndFinish({
      image_url: inputUrl('b.png'),
      texture_model: 'none',
      resolution: 'low_poly',
      scaled_bbox: [2, 1, 0.5],
    });
    const dense = await createAndFinish({
      image_url: inputUrl('b.png'),
      resolution: 'high_poly',
      topology: 'quads',
      scaled_bbox: [2, 1, 0.5],
      preserve_aspect_ratio: true,
    });
    const plainGltf = readGlbJson((await download(plain.mesh_url_glb)).bytes) as Gltf;
    const denseGltf = readGlbJson((await download(dense.mesh_url_glb)).bytes) as Gltf;
    expect(plainGltf.images).toBeUndefined();
    const triangles = (g: Gltf) => g.accessors[3]!.count / 3;
    expect(triangles(plainGltf)).toBeGreaterThan(1_000);
    expect(triangles(plainGltf)).toBeLessThan(4_000);
    expect(triangles(denseGltf)).toBeGreaterThan(15_000);
    const size = (g: Gltf) => g.accessors[0]!.max!.map((v, k) => v - g.accessors[0]!.min![k]!);
    for (const [k, v] of size(plainGltf).entries()) expect(v).toBeCloseTo([2, 1, 0.5][k]!, 3);
    const kept = size(denseGltf);
    expect(kept.every((v, k) => v <= [2, 1, 0.5][k]! + 1e-4)).toBe(true);
    expect(kept.some((v, k) => Math.abs(v - [2, 1, 0.5][k]!) < 1e-4)).toBe(true);
    const obj = (await download(dense.mesh_url_obj)).bytes.toString('utf8');
    expect(obj).toMatch(/\nf \S+ \S+ \S+ \S+\n/); // quads
  });

  it('ends failed when a session-failure fault rule says so', async () => {
    engine.faults.add({ kind: 'session-failure', match: { endpoint: 'createImageTo3d' } });
    const failed = await createAndFinish({ image_url: PNG_DATA_URI });
    expect(failed.session_status).toBe('failed');
    expect(failed.mesh_url_glb).toBe('');
  });

  it('stores a data-URI image and answers its URL', async () => {
    const session = expectSuccess(
      'createImageTo3d',
      await call(engine, 'createImageTo3d', { json: { image_url: PNG_DATA_URI } }),
    );
    expect(session.image_url).toMatch(/\/files\/SESSION_\w+\/input\.png\?/);
    const image = await download(session.image_url);
    expect(image.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });

  it('get-mesh reports availability', async () => {
    const done = await createAndFinish({ image_url: inputUrl('c.png'), resolution: 'low_poly' });
    const records = expectSuccess(
      'getMesh',
      await call(engine, 'getMesh', { params: { session_code: done.session_code } }),
    );
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'complete', preview_mesh_url_glb: '' });
    expect(records[0].mesh_url_glb).toContain(`/files/${done.session_code}/`);
  });
});

describe('listing', () => {
  it('pages newest first and reports credits', async () => {
    const fresh = await startTestEngine({ initialCredits: 100 });
    try {
      const codes: string[] = [];
      for (let i = 0; i < 5; i++) {
        const endpoint = i % 2 === 0 ? 'createImageTo3d' : 'createImageTo3dLegacy';
        codes.push(
          expectSuccess(endpoint, await call(fresh, endpoint, { json: { image_url: inputUrl(`${i}.png`) } }))
            .session_code,
        );
      }
      const first = expectSuccess('listImageTo3d', await call(fresh, 'listImageTo3d', { query: 'limit=2' }));
      expect(first).toMatchObject({
        page: 1,
        skip: 0,
        limit: 2,
        totalPages: 3,
        totalResults: 5,
        credits: 50,
        image_to_3d_credits: 5,
      });
      expect(first.results.map((r: { session_code: string }) => r.session_code)).toEqual([codes[4], codes[3]]);
      const last = expectSuccess('listImageTo3d', await call(fresh, 'listImageTo3d', { query: 'limit=2&page=3' }));
      expect(last).toMatchObject({ page: 3, skip: 4 });
      expect(last.results.map((r: { session_code: string }) => r.session_code)).toEqual([codes[0]]);
      const older = last.results[0];
      for (const field of ['discord_user_id', 'chat_user_id', 'user_name', 'email', 'user_image'])
        expect(older[field]).toBe('');
      expect(older).toMatchObject({ price: 10, source: 'api', is_deleted: false, private: false });
      const defaults = expectSuccess('listImageTo3d', await call(fresh, 'listImageTo3d'));
      expect(defaults).toMatchObject({ page: 1, limit: 10, totalPages: 1 });
    } finally {
      await fresh.dispose();
    }
  });

  it('refuses creates the account cannot pay for', async () => {
    const poor = await startTestEngine({ initialCredits: 15 });
    try {
      expect((await call(poor, 'createImageTo3d', { json: { image_url: 'https://x/a.png' } })).status).toBe(201);
      const refused = await call(poor, 'createImageTo3d', { json: { image_url: 'https://x/a.png' } });
      expect(refused.status).toBe(402);
      expect(refused.body.message).toContain('Not enough credits');
    } finally {
      await poor.dispose();
    }
  });
});
