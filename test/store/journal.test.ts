import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Store } from '../../main/store/database.ts';
import { DuplicateOperationError, JournalStateError, RecordNotFoundError } from '../../main/store/errors.ts';
import { bodyHash, canonicalJson, CRASH_ERROR, type NewOperation } from '../../main/store/journal.ts';

let store: Store;
beforeEach(() => {
  store = openDatabase(':memory:');
  return () => store.close();
});

const op = (over: Partial<NewOperation> = {}): NewOperation => ({
  endpoint: 'createImageTo3d',
  params: {},
  body: { image_url: 'https://example.com/chair.png', options: { texture: true, quality: 'high' } },
  now: 100,
  ...over,
});

describe('canonicalJson and the body hash', () => {
  it('sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([2, 1])).toBe('[2,1]');
  });

  it('is stable across key order and changes with the content', () => {
    const a = bodyHash('refine', { session_code: 's1' }, { x: 1, y: { p: true, q: 'v' } });
    const b = bodyHash('refine', { session_code: 's1' }, { y: { q: 'v', p: true }, x: 1 });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(bodyHash('preview', { session_code: 's1' }, { x: 1, y: { p: true, q: 'v' } })).not.toBe(a);
    expect(bodyHash('refine', { session_code: 's2' }, { x: 1, y: { p: true, q: 'v' } })).not.toBe(a);
    expect(store.journal.begin(op({ body: { b: 1, a: 2 } })).bodyHash).toBe(
      store.journal.begin(op({ body: { a: 2, b: 1 } })).bodyHash,
    );
  });
});

describe('journal', () => {
  it('begin writes a pending entry with the request to replay', () => {
    const entry = store.journal.begin(op({ filePath: '/tmp/chair.png', fileHash: 'abc' }));
    expect(entry).toMatchObject({
      endpoint: 'createImageTo3d',
      params: {},
      state: 'pending',
      filePath: '/tmp/chair.png',
      fileHash: 'abc',
      remoteId: null,
      jobId: null,
      error: null,
      createdAt: 100,
      updatedAt: 100,
      sentAt: null,
      answeredAt: null,
    });
    expect(entry.operationId).toMatch(/^op_[0-9a-f]{20}$/);
    expect(entry.body).toEqual(op().body);
    expect(entry.bodyHash).toBe(bodyHash('createImageTo3d', {}, op().body));
    expect(store.journal.get(entry.operationId)).toEqual(entry);
  });

  it('refuses a duplicate operation id and keeps the first entry', () => {
    const first = store.journal.begin(op({ operationId: 'op_1' }));
    expect(() => store.journal.begin(op({ operationId: 'op_1', body: { other: true } }))).toThrow(
      DuplicateOperationError,
    );
    expect(store.journal.get('op_1')).toEqual(first);
  });

  it('pending → sent → answered, linked to its job', () => {
    const { operationId: id } = store.journal.begin(op());
    expect(store.journal.markSent(id, 110)).toMatchObject({ state: 'pending', sentAt: 110, updatedAt: 110 });
    expect(store.journal.markAnswered(id, 'sess_1', 120)).toMatchObject({
      state: 'answered',
      remoteId: 'sess_1',
      answeredAt: 120,
    });
    const job = store.jobs.insert({
      kind: 'image_to_3d',
      label: 'chair.png',
      remoteId: 'sess_1',
      operationId: id,
      now: 120,
    });
    expect(store.journal.linkJob(id, job.id).jobId).toBe(job.id);
    expect(() => store.journal.markReconciled(id, 'sess_1', 130)).toThrow(JournalStateError);
    expect(() => store.journal.markReconciled(id, 'sess_1', 130)).toThrow(
      `The operation ${id} is answered in the submission journal and cannot become reconciled.`,
    );
  });

  it('unknown → reconciled, unknown → abandoned, pending → rejected', () => {
    const a = store.journal.begin(op({ operationId: 'op_a' }));
    const b = store.journal.begin(op({ operationId: 'op_b' }));
    const c = store.journal.begin(op({ operationId: 'op_c' }));
    expect(store.journal.markUnknown(a.operationId, 'timeout after sending', 110)).toMatchObject({
      state: 'unknown',
      error: 'timeout after sending',
      updatedAt: 110,
    });
    expect(store.journal.markReconciled(a.operationId, 'sess_a', 120)).toMatchObject({
      state: 'reconciled',
      remoteId: 'sess_a',
      updatedAt: 120,
    });
    store.journal.markUnknown(b.operationId, 'connection reset', 110);
    expect(store.journal.markAbandoned(b.operationId, 130)).toMatchObject({ state: 'abandoned', updatedAt: 130 });
    expect(store.journal.markRejected(c.operationId, '422 invalid image_url', 140)).toMatchObject({
      state: 'rejected',
      error: '422 invalid image_url',
      answeredAt: 140,
    });
    expect(() => store.journal.markAnswered(c.operationId, 'sess_c', 150)).toThrow(JournalStateError);
    expect(() => store.journal.markSent('op_missing', 1)).toThrow(RecordNotFoundError);
    expect(() => store.journal.linkJob('op_missing', 'job_x')).toThrow(RecordNotFoundError);
  });

  it('listUnresolved, findByHash and list', () => {
    const pending = store.journal.begin(op({ operationId: 'op_p', now: 1 }));
    const unknown = store.journal.begin(op({ operationId: 'op_u', now: 2 }));
    store.journal.markUnknown(unknown.operationId, 'reset', 3);
    const answered = store.journal.begin(op({ operationId: 'op_a', now: 4, body: { other: 1 } }));
    store.journal.markAnswered(answered.operationId, 'sess', 5);

    expect(store.journal.listUnresolved().map((e) => e.operationId)).toEqual(['op_p', 'op_u']);
    expect(store.journal.findByHash(pending.bodyHash).map((e) => e.operationId)).toEqual(['op_u', 'op_p']);
    expect(store.journal.findByHash('0'.repeat(64))).toEqual([]);
    expect(store.journal.list(2).map((e) => e.operationId)).toEqual(['op_a', 'op_u']);
  });

  it('recoverAfterCrash turns the pending entries of a writer that is gone into unknown, and leaves a live one its own', () => {
    const dead = `${2 ** 30}@${'0'.repeat(8)}:1`; // a pid no process has
    store.journal.begin(op({ operationId: 'op_dead', now: 30, writer: dead }));
    store.journal.begin(op({ operationId: 'op_mine', now: 10 })); // written by this process, which lives
    store.journal.begin(op({ operationId: 'op_old', now: 10, writer: null })); // an older version's: by its age
    store.journal.begin(op({ operationId: 'op_recent', now: 30, writer: null }));
    // Named by its pid alone (no /proc where it ran): its pid may be another's by now, so by its age too.
    store.journal.begin(op({ operationId: 'op_pid_old', now: 11, writer: String(process.pid) }));
    store.journal.begin(op({ operationId: 'op_pid_new', now: 31, writer: String(process.pid) }));
    store.journal.markAnswered(
      store.journal.begin(op({ operationId: 'op_done', now: 5, writer: dead })).operationId,
      's',
      6,
    );

    expect(store.journal.get('op_mine')?.writer).toMatch(new RegExp(`^${process.pid}(@|$)`));
    const recovered = store.journal.recoverAfterCrash(40, { unnamedBefore: 20 });
    expect(recovered.map((e) => [e.operationId, e.state, e.error, e.updatedAt])).toEqual([
      ['op_old', 'unknown', CRASH_ERROR, 40],
      ['op_pid_old', 'unknown', CRASH_ERROR, 40],
      ['op_dead', 'unknown', CRASH_ERROR, 40],
    ]);
    expect(store.journal.get('op_mine')?.state).toBe('pending');
    expect(store.journal.get('op_recent')?.state).toBe('pending');
    expect(store.journal.get('op_pid_new')?.state).toBe('pending');
    expect(store.journal.get('op_done')?.state).toBe('answered');
    expect(store.journal.recoverAfterCrash(40, { unnamedBefore: 20 })).toEqual([]);
  });
});
