// Item 9 of issue 14: a session made with the older create, read with GET /image-to-3d-sessions/<code>, also
// carries what older clients read there: the older `status`, `spins` once the spin views exist and
// `preview_mesh_url_*` once the preview exists. Current-form sessions are unchanged. The flow is driven with
// raw fetch calls, as an older script does; our own client reads the same fields.
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { KEY, PNG_DATA_URI, PNG_SIGNATURE, pollUntil, useTestEngine } from './helpers.ts';

const engine = useTestEngine();

const json = { 'x-api-key': KEY, 'Content-Type': 'application/json' };

async function read(code: string): Promise<any> {
  const res = await fetch(`${engine.url}/image-to-3d-sessions/${code}`, { headers: { 'x-api-key': KEY } });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data;
}

describe('older-form sessions read with GET /image-to-3d-sessions/<code>', () => {
  it('carry the older status, the spin views and the preview meshes', async () => {
    const res = await fetch(`${engine.legacyUrl}/image-to-3d-sessions`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ image_url: PNG_DATA_URI }),
    });
    expect(res.status).toBe(201);
    const code: string = ((await res.json()) as any).data.session_code;

    const first = await read(code);
    expect(['uploaded', 'spin_generate_processing', 'spin_generate_done']).toContain(first.status);
    expect(first.spins).toHaveLength(first.status === 'spin_generate_done' ? 4 : 0); // empty until the views exist
    expect(first).toMatchObject({ preview_mesh_url_glb: '', preview_mesh_url_zip: '', preview_mesh_url_usdz: '' });

    const spun = await pollUntil(
      () => read(code),
      (s) => s.status === 'spin_generate_done' || s.status.endsWith('_failed'),
    );
    expect(spun.status).toBe('spin_generate_done');
    expect(spun.spins).toHaveLength(4);
    for (const spin of spun.spins) {
      expect(spin).toMatchObject({ image_url: expect.stringMatching(/^http/), width: 256, height: 256 });
      const image = Buffer.from(await (await fetch(spin.image_url)).arrayBuffer());
      expect(image.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    }
    expect(spun.preview_mesh_url_glb).toBe('');

    const preview = await fetch(`${engine.url}/image-to-3d-sessions/get-3d/preview/${code}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ selected_spin_index: 2 }),
    });
    expect(preview.status).toBe(200);
    const previewing = await read(code);
    expect(['preview_processing', 'preview_done']).toContain(previewing.status);
    const done = await pollUntil(
      () => read(code),
      (s) => s.status === 'preview_done' || s.status.endsWith('_failed'),
    );
    expect(done.status).toBe('preview_done');
    for (const field of ['preview_mesh_url_glb', 'preview_mesh_url_zip', 'preview_mesh_url_usdz']) {
      expect(done[field], field).toMatch(/^http/);
      expect((await fetch(done[field])).status, field).toBe(200);
    }
    expect((await fetch(done.preview_mesh_url_glb).then((r) => r.arrayBuffer())).byteLength).toBeGreaterThan(0);

    // Our own client parses the same fields.
    const client = new ServiceClient({ baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl, apiKey: KEY });
    try {
      const parsed = await client.getImageTo3d(code);
      expect(parsed.status).toBe('preview_done');
      expect(parsed.spins).toHaveLength(4);
      expect(parsed.preview_mesh_url_glb).toMatch(/^http/);
    } finally {
      await client.close();
    }
  });

  it('leave current-form sessions as they were', async () => {
    const res = await fetch(`${engine.url}/image-to-3d-sessions`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ image_url: PNG_DATA_URI }),
    });
    const code: string = ((await res.json()) as any).data.session_code;
    const session = await read(code);
    for (const field of ['status', 'spins', 'preview_mesh_url_glb', 'preview_mesh_url_zip', 'preview_mesh_url_usdz'])
      expect(session).not.toHaveProperty(field);
  });
});
