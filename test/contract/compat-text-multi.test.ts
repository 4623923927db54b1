// Issue 14, item 4: texts sent right after an upload are queued until the mesh is ready (never a
// whole-request 400 for timing); a text the engine cannot animate answers isError with why and what it can.
import { rm } from 'node:fs/promises';
import { riggedCharacter } from '../fixtures.ts';
import { describe, expect, it } from 'vitest';
import { readGlbJson } from '../../main/engine/outputs/index.ts';
import { download, makeDataDir, startTestEngine } from '../engine/helpers.ts';
import { pollData, pythonGet, pythonPost, unityUpload } from './third-party.ts';

describe('item 4: text-multi right after an upload', () => {
  it('queues the texts until the mesh is ready, then animates them; nonsense answers isError', async () => {
    const dataDir = await makeDataDir();
    try {
      // At real speed the mesh is ready after 17 s at the earliest: the texts come before.
      const slow = await startTestEngine({ dataDir, speed: 1 });
      let code: string;
      try {
        const upload = await unityUpload(`${slow.url}/mesh-animation/upload`, riggedCharacter(), 'hero.fbx');
        expect(upload.body.data.status).toBe('init_processing');
        code = upload.body.data.session_code;
        const multi = await pythonPost(`${slow.url}/mesh-animation/text-multi`, {
          session_code: code,
          texts: ['walk forward', 'qzxv blorp', 'wave with both hands'],
        });
        expect(multi.status).toBe(200);
        expect(multi.body).toMatchObject({ error: '', message: 'Success', statusCode: 200 });
        const responses = multi.body.data.responses as { text: string; message: string; isError: boolean }[];
        expect(responses.map((r) => [r.text, r.isError])).toEqual([
          ['walk forward', false],
          ['qzxv blorp', true],
          ['wave with both hands', false],
        ]);
        expect(responses[1]!.message).toMatch(
          /Cannot animate "qzxv blorp": none of its words \(qzxv, blorp\) names or relates to a motion/,
        );
        expect(responses[1]!.message).toMatch(/walk.*run.*jump.*wave.*sit/);
        const session = await pythonGet(`${slow.url}/mesh-animation/${code}`);
        expect(session.body.data.status).toBe('init_processing');
        expect(session.body.data.prompts.map((p: { text: string; status: string }) => [p.text, p.status])).toEqual([
          ['walk forward', 'text_processing'],
          ['wave with both hands', 'text_processing'],
        ]);
      } finally {
        await slow.close();
      }
      // The same data, a fast engine: the mesh gets ready, then the queued texts are animated.
      // (Its animation files as GLB, to read the clip's name: the engine's option; FBX by default.)
      const fast = await startTestEngine({ dataDir, speed: 1000, animationFiles: 'glb' });
      try {
        // Until the session and its prompts are all settled: the session's own step (checking the upload the slow
        // engine was closed on) may end after prompts whose character was already made.
        const done = await pollData(
          `${fast.url}/mesh-animation/${code}`,
          (d) =>
            !/processing|queued/.test(d.status) &&
            d.prompts.every((p: { status: string }) => p.status === 'text_done' || p.status === 'text_failed'),
        );
        expect(done.status).toBe('predefined_done');
        expect(done.prompts.map((p: { status: string }) => p.status)).toEqual(['text_done', 'text_done']);
        const glb = readGlbJson((await download(done.prompts[0].mesh_url)).bytes) as { animations: { name: string }[] };
        expect(glb.animations.map((a) => a.name)).toEqual(['walk forward']);
      } finally {
        await fast.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
