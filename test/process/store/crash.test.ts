import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openDatabase } from '../../../main/store/database.ts';
import { CRASH_ERROR } from '../../../main/store/journal.ts';
import { tempDir } from '../../helpers.ts';
import { killAtMarker } from '../kill-at-marker.ts';

const WRITER = fileURLToPath(new URL('../../store/fixtures/crash-writer.ts', import.meta.url));

it('keeps committed rows when the process is killed mid-transaction, and recovers the pending entry', async () => {
  const path = join(tempDir(), 'a.db');
  const { code, signal } = await killAtMarker(WRITER, [path], 'ready');
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

  const store = openDatabase(path);
  expect(store.jobs.get('job_committed')).toMatchObject({
    label: 'chair.png',
    operationId: 'op_crash',
    state: 'submission_unknown',
  });
  expect(store.jobs.get('job_uncommitted')).toBeUndefined();
  expect(store.journal.get('op_crash')).toMatchObject({ state: 'pending' });
  expect(store.journal.get('op_crash')?.sentAt).not.toBeNull();

  const recovered = store.journal.recoverAfterCrash(Date.now());
  expect(recovered.map((e) => [e.operationId, e.state, e.error])).toEqual([['op_crash', 'unknown', CRASH_ERROR]]);
  expect(store.journal.listUnresolved().map((e) => e.state)).toEqual(['unknown']);
  store.close();
});
