// The engine's records database under a kill: an engine in a child process is killed (SIGKILL) while creates
// and reads are under way; started again on the same folder, it opens the database (not damaged), every create
// that was answered is there, and no session is there without its price taken from the credits.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { call, expectSuccess, KEY, makeDataDir, PNG_DATA_URI, send, startTestEngine } from '../../engine/helpers.ts';

async function startChild(dataDir: string) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../../main/engine/run.ts', import.meta.url)), '--data-dir', dataDir, '--speed', '1000'],
    { env: { ...process.env, ASSET_STUDIO_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const [line] = await Promise.race([
    createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value as string]),
    exited.then(() => {
      throw new Error('run.ts exited before printing its address');
    }),
  ]);
  return { child, exited, url: (JSON.parse(line!) as { url: string }).url };
}

describe('records database, engine killed', () => {
  it('keeps every answered create, and never a session without its charge', async () => {
    const dataDir = await makeDataDir();
    try {
      const { child, exited, url } = await startChild(dataDir);
      const answered: string[] = [];
      let stop = false;
      const client = async () => {
        while (!stop) {
          const created = await send(`${url}/image-to-3d-sessions`, {
            json: { image_url: PNG_DATA_URI, resolution: 'low_poly' },
          }).catch(() => undefined);
          if (created?.status !== 201) continue;
          answered.push(created.body.data.session_code as string);
          await send(`${url}/image-to-3d-sessions/${created.body.data.session_code}`).catch(() => undefined);
        }
      };
      const clients = Array.from({ length: 4 }, client);
      while (answered.length < 30) await new Promise((resolve) => setTimeout(resolve, 5));
      child.kill('SIGKILL');
      await exited;
      stop = true;
      await Promise.all(clients);
      expect(existsSync(join(dataDir, 'engine.db'))).toBe(true);

      const engine = await startTestEngine({ dataDir });
      try {
        for (const code of answered) {
          const read = await call(engine, 'getImageTo3d', { params: { session_code: code } });
          expect(read.status, code).toBe(200);
        }
        const list = expectSuccess('listImageTo3d', await call(engine, 'listImageTo3d', { query: 'limit=100' }));
        expect(list.totalResults).toBeGreaterThanOrEqual(answered.length);
        expect(list.credits).toBeLessThanOrEqual(1000 - 10 * list.totalResults);
      } finally {
        await engine.dispose();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
