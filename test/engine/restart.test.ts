import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  call,
  completedImageTo3d,
  download,
  expectSuccess,
  makeDataDir,
  startTestEngine,
  textToImageCompleted,
} from './helpers.ts';

describe('restart', () => {
  it('keeps sessions, credits and files on the same data folder, and locks the folder', async () => {
    const dataDir = await makeDataDir();
    try {
      let engine = await startTestEngine({ dataDir });
      await expect(startTestEngine({ dataDir })).rejects.toThrow(/in use by another engine/);

      const { created, done } = await completedImageTo3d(engine);
      const before = await download(done.mesh_url_glb);
      const tti = expectSuccess(
        'createTextToImage',
        await call(engine, 'createTextToImage', { json: { prompt: 'a fox' } }),
      );
      await engine.close();

      engine = await startTestEngine({ dataDir });
      try {
        const again = expectSuccess(
          'getImageTo3d',
          await call(engine, 'getImageTo3d', { params: { session_code: created.session_code } }),
        );
        expect(again).toMatchObject({
          session_status: 'complete',
          created_at: done.created_at,
          updated_at: done.updated_at,
        });
        const after = await download(again.mesh_url_glb);
        expect(after.bytes.equals(before.bytes)).toBe(true);
        expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
        // A URL handed out before the restart still works (the signing secret is kept).
        expect((await download(done.mesh_url_glb.replace(/^http:\/\/[^/]+/, engine.url))).status).toBe(200);

        const list = expectSuccess('listImageTo3d', await call(engine, 'listImageTo3d'));
        expect(list).toMatchObject({ totalResults: 1, credits: 1000 - 10 - 1 });
        const image = await textToImageCompleted(engine, tti.session_code);
        expect(image.image_url).not.toBe('');
      } finally {
        await engine.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
