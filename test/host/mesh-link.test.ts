// files.meshLink: a model file of this computer handed to the embedded local engine for retopology (a private
// 127.0.0.1 link that serves the file's bytes), and refused, with what to do, when the connection is a
// remote service (which cannot read this computer and takes a retopology's model only as a URL or ASSET_ id).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WEB_PROTOCOL } from '../../shared/bridge/web-protocol.ts';
import type { RunningWebHost } from '../../main/host/web-host.ts';
import { realFixture } from '../fixtures.ts';
import { raw, tempDir } from './helpers.ts';
import { startTestHost } from './web-host-client.ts';

const data = tempDir('mesh-link');
afterAll(() => data.remove());
const GLB = realFixture('glb', 'BoxTextured.glb');

async function withHost(
  name: string,
  env: Record<string, string> | undefined,
  run: (
    host: RunningWebHost,
    call: (command: string, input: unknown) => Promise<{ status: number; body: any }>,
  ) => Promise<void>,
) {
  const host = await startTestHost(join(data.path, name), {}, { port: 0, ...(env && { connectionSources: { env } }) });
  const headers = { host: `127.0.0.1:${host.port}`, authorization: `Bearer ${host.token}` };
  const call = async (command: string, input: unknown) => {
    const r = await raw(host.port, {
      method: 'POST',
      path: `/api/call/${command}`,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    return { status: r.status, body: JSON.parse(r.body) };
  };
  try {
    const upload = await raw(host.port, {
      method: 'POST',
      path: WEB_PROTOCOL.upload,
      headers: {
        ...headers,
        [WEB_PROTOCOL.fileNameHeader]: 'BoxTextured.glb',
        'content-type': 'application/octet-stream',
      },
      body: readFileSync(GLB),
    });
    expect(upload.status).toBe(200);
    (host as RunningWebHost & { uploadId: string }).uploadId = JSON.parse(upload.body).uploadId;
    await run(host, call);
  } finally {
    await host.close();
  }
}

describe('files.meshLink', () => {
  it('on the embedded engine: a 127.0.0.1 link that serves the file, and a retopology made from it succeeds', async () => {
    await withHost('engine', undefined, async (host, call) => {
      const uploadId = (host as RunningWebHost & { uploadId: string }).uploadId;
      const link = await call('files.meshLink', { file: { uploadId }, name: 'BoxTextured.glb' });
      expect(link.status).toBe(200);
      expect(link.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/BoxTextured\.glb$/);
      const served = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
      expect(served.equals(readFileSync(GLB))).toBe(true);
      expect((await fetch(link.body.url.replace(/\/[\w-]{32}\//, '/not-the-token/'))).status).toBe(404);
      const created = await call('create', {
        endpoint: 'createRetopology',
        body: { type: 'retopology', input: { mesh: link.body.url, model: 'swift', quads: true } },
      });
      expect(created.status).toBe(200);
      expect(created.body.job.remoteId).toMatch(/^SESSION_/);
    });
  });

  it('refuses a file that is not a GLB, OBJ or FBX', async () => {
    await withHost('type', undefined, async (host, call) => {
      const uploadId = (host as RunningWebHost & { uploadId: string }).uploadId;
      const refused = await call('files.meshLink', { file: { uploadId }, name: 'model.stl' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        'model.stl is not a GLB, OBJ or FBX file: retopology takes a model in one of these formats.',
      );
    });
  });

  it('is refused when connected to a remote service, saying what to do instead', async () => {
    await withHost(
      'remote',
      { ASSET_STUDIO_BASE_URL: 'http://127.0.0.1:9', ASSET_STUDIO_API_KEY: 'sk_test_0123456789abcdef' },
      async (host, call) => {
        const uploadId = (host as RunningWebHost & { uploadId: string }).uploadId;
        const refused = await call('files.meshLink', { file: { uploadId }, name: 'BoxTextured.glb' });
        expect(refused.status).toBe(400);
        expect(refused.body.message).toContain('BoxTextured.glb is on this computer, which the service cannot read');
        expect(refused.body.message).toContain('paste its URL, or pick a model the service made from the library');
      },
    );
  });
});
