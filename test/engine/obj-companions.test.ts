// Item 7 of issue 14: the OBJ outputs name their MTL (`mtllib`) and the MTL its texture (`map_Kd`); a client
// that downloads mesh_url_obj (or a retopology's obj_url) and resolves those names relative to the OBJ's URL,
// as every OBJ loader does, gets them from the engine under the same signature. Requests are raw fetch calls
// with JSON bodies, as a script written for the service sends them.
import { describe, expect, it } from 'vitest';
import { KEY, PNG_DATA_URI, PNG_SIGNATURE, pollUntil, useTestEngine } from './helpers.ts';

const engine = useTestEngine();

const headers = { 'x-api-key': KEY, 'Content-Type': 'application/json' };

async function post(path: string, body: unknown): Promise<any> {
  const res = await fetch(`${engine.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status, path).toBeLessThan(300);
  return res.json();
}

async function get(path: string): Promise<any> {
  const res = await fetch(`${engine.url}${path}`, { headers: { 'x-api-key': KEY } });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** What an OBJ loader does: the name after a keyword, resolved against the URL of the file that names it. */
function referenced(text: string, keyword: 'mtllib' | 'map_Kd', base: string): string {
  const name = new RegExp(`^${keyword}\\s+(.+?)\\s*$`, 'm').exec(text)?.[1];
  expect(name, `${keyword} in ${text.slice(0, 200)}`).toBeDefined();
  return new URL(name!, base).href;
}

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return res;
}

describe('OBJ outputs and the files they name', () => {
  it('serves the MTL and texture of mesh_url_obj beside it, under the same signature', async () => {
    const created = await post('/image-to-3d-sessions', {
      image_url: PNG_DATA_URI,
      texture_model: 'baked',
      resolution: 'low_poly',
    });
    const code: string = created.data.session_code;
    const done = await pollUntil(
      async () => (await get(`/image-to-3d-sessions/${code}`)).data,
      (s) => s.session_status === 'complete' || s.session_status === 'failed',
    );
    expect(done.session_status).toBe('complete');

    const objUrl: string = done.mesh_url_obj;
    const obj = await (await fetchOk(objUrl)).text();
    expect(obj).toContain('\nf ');
    const mtlUrl = referenced(obj, 'mtllib', objUrl);
    const mtlRes = await fetchOk(mtlUrl);
    expect(mtlRes.headers.get('content-type')).toBe('model/mtl');
    const mtl = await mtlRes.text();
    expect(mtl).toMatch(/^newmtl /m);
    expect(mtl).toMatch(/^Kd [\d.]+ [\d.]+ [\d.]+$/m);
    const textureUrl = referenced(mtl, 'map_Kd', mtlUrl);
    const texture = Buffer.from(await (await fetchOk(textureUrl)).arrayBuffer());
    expect(texture.subarray(0, 8)).toEqual(PNG_SIGNATURE);

    // The signature covers that folder only: a file of another session, or an edited signature, is refused.
    const other = new URL(mtlUrl);
    // Another session's code: the last character changed (to 1 where it is 0, else it would be the same code).
    other.pathname = other.pathname.replace(code, `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`);
    expect((await fetch(other)).status).toBe(403);
    const edited = new URL(mtlUrl);
    edited.pathname = edited.pathname.replace(/~(\d+)\.[^/]+/, '~$1.AAAA');
    expect((await fetch(edited)).status).toBe(403);
    const missing = new URL('nothing.mtl', objUrl);
    expect((await fetch(missing)).status).toBe(404);
  });

  it("serves the MTL named by a retopology output's obj_url beside it", async () => {
    const created = await post('/image-to-3d-sessions', { image_url: PNG_DATA_URI, resolution: 'low_poly' });
    const source = await pollUntil(
      async () => (await get(`/image-to-3d-sessions/${created.data.session_code}`)).data,
      (s) => s.session_status === 'complete' || s.session_status === 'failed',
    );
    const retopo = await post('/v3/sessions', {
      type: 'retopology',
      input: { mesh: source.mesh_url_glb, model: 'swift', quads: true },
    });
    const done = await pollUntil(
      () => get(`/v3/sessions/${retopo._id}`),
      (s) => s.status === 'complete' || s.status === 'failed',
    );
    expect(done.status).toBe('complete');
    const objUrl: string = done.output.meshes[0].data.obj_url;
    const obj = await (await fetchOk(objUrl)).text();
    const mtl = await (await fetchOk(referenced(obj, 'mtllib', objUrl))).text();
    expect(mtl).toMatch(/^newmtl /m);
  });
});
