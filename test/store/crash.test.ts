import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openDatabase } from '../../main/store/database.ts';
import { CRASH_ERROR } from '../../main/store/journal.ts';
import { tempDir } from './temp.ts';

const WRITER = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));

it('keeps committed rows when the process is killed mid-transaction, and recovers the pending entry', async () => {
  const path = join(tempDir(), 'a.db');
  const child = spawn(process.execPath, [WRITER, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');

  let stdout = '';
  for await (const chunk of child.stdout) {
    stdout += String(chunk);
    if (stdout.includes('ready')) break;
  }
  expect(stdout, stderr).toContain('ready');
  child.kill('SIGKILL');
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

  const store = openDatabase(path);
  expect(store.jobs.get('job_committed')).toMatchObject({ label: 'chair.png', operationId: 'op_crash', state: 'submission_unknown' });
  expect(store.jobs.get('job_uncommitted')).toBeUndefined();
  expect(store.journal.get('op_crash')).toMatchObject({ state: 'pending' });
  expect(store.journal.get('op_crash')?.sentAt).not.toBeNull();

  const recovered = store.journal.recoverAfterCrash(Date.now());
  expect(recovered.map((e) => [e.operationId, e.state, e.error])).toEqual([['op_crash', 'unknown', CRASH_ERROR]]);
  expect(store.journal.listUnresolved().map((e) => e.state)).toEqual(['unknown']);
  store.close();
});
