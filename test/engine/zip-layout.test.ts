// Item 12 of issue 14: mesh_url_zip holds a folder named by the session code with `mesh.obj`, its MTL and
// its texture (older Unity scripts open `<session>/mesh.obj` from it), and the app's own zip reader (the one
// behind the viewer's OBJ-from-zip) lists and serves those files. The session is made with raw fetch calls.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeZipEntries, listZipEntries, readZipEntry } from '../../main/cache/zip-entries.ts';
import { KEY, PNG_DATA_URI, PNG_SIGNATURE, pollUntil, startTestEngine, type TestEngine } from './helpers.ts';

let engine: TestEngine;
let dir: string;
beforeAll(async () => {
  engine = await startTestEngine();
  dir = await mkdtemp(join(tmpdir(), 'zip-layout-'));
});
afterAll(async () => {
  closeZipEntries();
  await rm(dir, { recursive: true, force: true });
  await engine.dispose();
});

async function finishedSession(body: unknown): Promise<any> {
  const res = await fetch(`${engine.url}/image-to-3d-sessions`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  const code: string = ((await res.json()) as any).data.session_code;
  return pollUntil(
    async () =>
      (
        (await (
          await fetch(`${engine.url}/image-to-3d-sessions/${code}`, { headers: { 'x-api-key': KEY } })
        ).json()) as any
      ).data,
    (s) => s.session_status === 'complete' || s.session_status === 'failed',
  );
}

describe('the zip output', () => {
  it("holds <session_code>/mesh.obj with its MTL and texture, read by the app's zip reader", async () => {
    // A textured model (texture_model none has no texture: its zip holds the OBJ and MTL only, see below).
    const session = await finishedSession({ image_url: PNG_DATA_URI, resolution: 'low_poly', texture_model: 'baked' });
    expect(session.session_status).toBe('complete');
    const code: string = session.session_code;
    const zip = join(dir, `${code}.zip`);
    const res = await fetch(session.mesh_url_zip);
    expect(res.status).toBe(200);
    await writeFile(zip, Buffer.from(await res.arrayBuffer()));

    const entries = await listZipEntries(zip);
    expect(entries.map((e) => e.name)).toEqual([`${code}/mesh.obj`, `${code}/mesh.mtl`, `${code}/mesh.png`]);
    const obj = await text((await readZipEntry(zip, `${code}/mesh.obj`)).stream);
    expect(obj).toMatch(/^mtllib mesh\.mtl$/m);
    expect(obj).toContain('\nf ');
    const mtl = await text((await readZipEntry(zip, `${code}/mesh.mtl`)).stream);
    expect(mtl).toMatch(/^map_Kd mesh\.png$/m);
    const png = Buffer.concat(await (await readZipEntry(zip, `${code}/mesh.png`)).stream.toArray());
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it('holds no texture when texture_model is none, and its MTL names none', async () => {
    const session = await finishedSession({ image_url: PNG_DATA_URI, resolution: 'low_poly', texture_model: 'none' });
    const code: string = session.session_code;
    const zip = join(dir, `${code}.zip`);
    await writeFile(zip, Buffer.from(await (await fetch(session.mesh_url_zip)).arrayBuffer()));
    expect((await listZipEntries(zip)).map((e) => e.name)).toEqual([`${code}/mesh.obj`, `${code}/mesh.mtl`]);
    expect(await text((await readZipEntry(zip, `${code}/mesh.mtl`)).stream)).not.toContain('map_Kd');
  });
});
