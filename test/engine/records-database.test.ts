// The engine's records database (main/engine/state.ts): rows written per change, the one-time move of an older
// engine's state.json, and a damaged database kept aside with what can still be read salvaged into a new one.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { unchangedSinceClose } from '../../main/durable/clean-close.ts';
import { DATABASE_FILE, EngineStateError, openState, TABLES } from '../../main/engine/state.ts';
import { call, completedImageTo3d, expectSuccess, makeDataDir, startTestEngine } from './helpers.ts';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await makeDataDir();
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The rows of the database, read over a connection of its own: `${tbl}/${id}` → body. */
function rowsOf(dir: string): Record<string, string> {
  const db = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
  try {
    const rows = db.prepare('SELECT tbl, id, body FROM records ORDER BY seq').all() as {
      tbl: string;
      id: string;
      body: string;
    }[];
    return Object.fromEntries(rows.map((r) => [`${r.tbl}/${r.id}`, r.body]));
  } finally {
    db.close();
  }
}

function setRow(dir: string, tbl: string, id: string, body: string): void {
  const db = new DatabaseSync(join(dir, DATABASE_FILE));
  try {
    db.prepare('UPDATE records SET body = ? WHERE tbl = ? AND id = ?').run(body, tbl, id);
  } finally {
    db.close();
  }
}

/** 50 text-to-image records of 200 bytes and one account's credits, saved. */
async function fiftyRecords(dir: string): Promise<void> {
  const store = await openState(dir);
  for (let i = 0; i < 50; i++)
    (store.state.textToImage as unknown as Record<string, Rec>)[`T${i}`] = { user_id: 'u', status: 'x'.repeat(200) };
  store.state.credits.u = 990;
  await store.save();
  await store.close();
}

/** The names of the damaged copies kept aside in the folder. */
function damagedCopiesIn(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.startsWith(`${DATABASE_FILE}.damaged-`) && !/-(wal|shm)$/.test(f));
}

interface Rec {
  user_id: string;
  status: string;
  image?: { url: string; reading?: boolean };
}

describe('records database', () => {
  it('writes only the rows a save names or a table insertion marks', async () => {
    const dir = await dataDir();
    const store = await openState(dir, { checkSaves: false }); // B is left unnamed on purpose
    const table = store.state.textToImage as unknown as Record<string, Rec>;
    const a: Rec = { user_id: 'u', status: 'processing', image: { url: 'http://x/a.png', reading: true } };
    const b: Rec = { user_id: 'u', status: 'processing' };
    table.A = a;
    table.B = b;
    store.state.credits.u = 990;
    await store.save();
    expect(Object.keys(rowsOf(dir))).toEqual(['credits/u', 'textToImage/A', 'textToImage/B']);

    // A row changed behind the engine's back stays as it is unless a save writes it: B is not rewritten.
    setRow(dir, 'textToImage', 'B', '{"outside":true}');
    a.status = 'completed';
    b.status = 'completed'; // changed but not named: not written by this save
    await store.save(a);
    expect(JSON.parse(rowsOf(dir)['textToImage/A']!)).toMatchObject({ status: 'completed' });
    expect(rowsOf(dir)['textToImage/B']).toBe('{"outside":true}');

    // An object inside a record names its row (an input of a session, as the input reader saves it).
    a.image!.reading = false;
    await store.save(a.image!);
    expect(JSON.parse(rowsOf(dir)['textToImage/A']!).image).toEqual({ url: 'http://x/a.png', reading: false });

    // A value put into a table (credits) is written by the next save, whatever it names.
    store.state.credits.u = 980;
    await store.save(a);
    expect(rowsOf(dir)['credits/u']).toBe('980');

    // save() with nothing named compares every row.
    await store.save();
    expect(JSON.parse(rowsOf(dir)['textToImage/B']!)).toMatchObject({ status: 'completed' });

    delete table.A;
    await store.save(b);
    expect(Object.keys(rowsOf(dir))).toEqual(['credits/u', 'textToImage/B']);
    await store.close();

    const again = await openState(dir);
    expect(Object.keys(again.state.textToImage)).toEqual(['B']);
    expect(again.state.credits).toEqual({ u: 980 });
    await again.close();
  });

  it('keeps creation order across a restart, and a replaced record keeps its place', async () => {
    const dir = await dataDir();
    const store = await openState(dir);
    const table = store.state.styles as unknown as Record<string, Rec>;
    for (const id of ['S3', 'S1', 'S2']) table[id] = { user_id: 'u', status: 'training' };
    await store.save();
    table.S3 = { user_id: 'u', status: 'completed' };
    await store.save();
    await store.close();
    const again = await openState(dir);
    expect(Object.keys(again.state.styles)).toEqual(['S3', 'S1', 'S2']);
    expect(again.state.styles.S3).toMatchObject({ status: 'completed' });
    await again.close();
  });

  it("moves an older engine's state.json into the database once, renamed aside, sessions intact", async () => {
    // A state.json as the older engine wrote it: the same records, one JSON object.
    const dir = await dataDir();
    let engine = await startTestEngine({ dataDir: dir });
    const { created, done } = await completedImageTo3d(engine);
    expectSuccess('createTextToImage', await call(engine, 'createTextToImage', { json: { prompt: 'a fox' } }));
    await engine.close();
    const rows = rowsOf(dir);
    const state: Record<string, unknown> = { version: 1 };
    for (const table of TABLES) state[table] = {};
    for (const [key, body] of Object.entries(rows)) {
      const [table, id] = key.split('/') as [string, string];
      (state[table] as Record<string, unknown>)[id] = JSON.parse(body);
    }
    const text = JSON.stringify(state);
    for (const suffix of ['', '-wal', '-shm']) await rm(join(dir, DATABASE_FILE + suffix), { force: true });
    writeFileSync(join(dir, 'state.json'), text);

    const lines: string[] = [];
    engine = await startTestEngine({ dataDir: dir, log: (line) => lines.push(line) });
    try {
      expect(existsSync(join(dir, 'state.json'))).toBe(false);
      expect(readFileSync(join(dir, 'state.json.migrated'), 'utf8')).toBe(text);
      expect(lines).toContain(
        `engine: moved ${Object.keys(rows).length} records of ${join(dir, 'state.json')} into ${join(dir, DATABASE_FILE)}; the old file is kept as state.json.migrated`,
      );
      expect(rowsOf(dir)).toEqual(rows);
      const again = expectSuccess(
        'getImageTo3d',
        await call(engine, 'getImageTo3d', { params: { session_code: created.session_code } }),
      );
      expect(again).toMatchObject({ session_status: 'complete', updated_at: done.updated_at });
      const list = expectSuccess('listImageTo3d', await call(engine, 'listImageTo3d'));
      expect(list).toMatchObject({ totalResults: 1, credits: 1000 - 10 - 1 });
    } finally {
      await engine.close();
    }

    // Stopped between the move and the rename: the same state.json again is only renamed aside.
    writeFileSync(join(dir, 'state.json'), text);
    const store = await openState(dir);
    expect(Object.keys(store.state.imageTo3d)).toEqual([created.session_code]);
    await store.close();
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('state.json'))
        .sort(),
    ).toEqual(['state.json.migrated', 'state.json.migrated-2']);
    expect(rowsOf(dir)).toEqual(rows);

    // Another state.json beside a database with records is refused, naming both; nothing is changed.
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ ...state, credits: { other: 5 } }));
    const refused = await openState(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngineStateError);
    expect((refused as Error).message).toContain(join(dir, 'state.json'));
    expect((refused as Error).message).toContain(join(dir, DATABASE_FILE));
    expect(existsSync(join(dir, 'state.json'))).toBe(true);
    expect(rowsOf(dir)).toEqual(rows);
  });

  it('refuses a state.json that is not valid JSON, and leaves it in place', async () => {
    const dir = await dataDir();
    writeFileSync(join(dir, 'state.json'), '{"version": 1, "imageTo3d": {');
    await expect(openState(dir)).rejects.toThrow(/state\.json is not valid JSON .*move it away/);
    expect(readFileSync(join(dir, 'state.json'), 'utf8')).toBe('{"version": 1, "imageTo3d": {');
  });

  it.each([
    ['not a database', () => Buffer.from('this is not a database, it is a text file\n'.repeat(100))],
    ['a database cut short', (good: Buffer) => good.subarray(0, 1500)],
    [
      'pages overwritten',
      (good: Buffer) => Buffer.concat([good.subarray(0, 100), Buffer.alloc(good.length - 100, 0x5a)]),
    ],
  ])('keeps a damaged database (%s) aside, unchanged, and starts on a new one, saying so', async (_name, damage) => {
    const dir = await dataDir();
    await fiftyRecords(dir);
    const path = join(dir, DATABASE_FILE);
    const bytes = damage(readFileSync(path));
    writeFileSync(path, bytes);
    const notices: string[] = [];
    const store = await openState(dir, { log: (line) => notices.push(line) });
    await store.close();
    const [kept, ...more] = damagedCopiesIn(dir);
    expect(more).toEqual([]);
    expect(readFileSync(join(dir, kept!)).equals(bytes)).toBe(true); // never changed
    expect(notices).toEqual([expect.stringContaining(`records database ${path} was damaged (`)]);
    expect(notices[0]).toContain(`kept aside, unchanged, as ${join(dir, kept!)}`);
    expect(Object.keys(rowsOf(dir)).length).toBeLessThan(50);
    // The engine starts on that folder again (the new database is sound).
    const engine = await startTestEngine({ dataDir: dir });
    await engine.close();
    expect(damagedCopiesIn(dir)).toEqual([kept]);
  });

  it('records a clean close (main/durable/clean-close.ts), so the next start skips the check of every page; a new one after a damaged one is kept aside gets its own', async () => {
    const dir = await dataDir();
    await fiftyRecords(dir);
    const path = join(dir, DATABASE_FILE);
    expect(unchangedSinceClose(path)).toBe(true);
    const again = await openState(dir);
    expect(unchangedSinceClose(path)).toBe(false); // open (its -wal file is there)
    await again.close();
    expect(unchangedSinceClose(path)).toBe(true);
    writeFileSync(path, 'not a database');
    await openState(dir, { log: () => undefined }).then((store) => store.close());
    expect(damagedCopiesIn(dir)).toHaveLength(1);
    expect(unchangedSinceClose(path)).toBe(true); // the record is the new database's
  });

  it('salvages the records SQLite can still read from a database with a garbage page', async () => {
    const dir = await dataDir();
    await fiftyRecords(dir);
    const path = join(dir, DATABASE_FILE);
    const good = readFileSync(path);
    const pageSize = good.readUInt16BE(16); // the header's page size
    const pages = good.length / pageSize;
    expect(pages).toBeGreaterThan(3); // 50 records of 200 bytes: several leaf pages of the records table
    // The leaf page of the records table (page type 0x0d) holding the record T25, overwritten with garbage.
    const page = Array.from({ length: pages }, (_, i) => i).find(
      (i) => i > 0 && good[i * pageSize] === 0x0d && good.subarray(i * pageSize, (i + 1) * pageSize).includes('T25'),
    )!;
    expect(page).toBeGreaterThan(0);
    const broken = Buffer.from(good);
    broken.fill(0xa5, page * pageSize, (page + 1) * pageSize);
    writeFileSync(path, broken);
    const notices: string[] = [];
    const store = await openState(dir, { log: (line) => notices.push(line) });
    const salvaged = Object.keys(store.state.textToImage);
    await store.close();
    expect(salvaged.length).toBeGreaterThan(0);
    expect(salvaged.length).toBeLessThan(50);
    expect(salvaged).not.toContain('T25');
    expect(salvaged.every((id) => /^T\d+$/.test(id))).toBe(true);
    expect(store.state.credits.u).toBe(990); // a row outside the damaged page
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      new RegExp(`holding the ${salvaged.length + 1} records \\(sessions, assets, credits\\) that could still be read`),
    );
    expect(readFileSync(join(dir, damagedCopiesIn(dir)[0]!)).equals(broken)).toBe(true);
    // The new database is sound and holds what was salvaged.
    expect(Object.keys(rowsOf(dir)).filter((k) => k.startsWith('textToImage/'))).toHaveLength(salvaged.length);
  });

  it('leaves out a row that is not JSON, keeping the others and the damaged file aside', async () => {
    const dir = await dataDir();
    const store = await openState(dir);
    (store.state.styles as unknown as Record<string, Rec>).S = { user_id: 'u', status: 'training' };
    (store.state.styles as unknown as Record<string, Rec>).R = { user_id: 'u', status: 'ready' };
    await store.save();
    await store.close();
    setRow(dir, 'styles', 'S', '{"user_id": "u", ');
    const notices: string[] = [];
    const again = await openState(dir, { log: (line) => notices.push(line) });
    expect(Object.keys(again.state.styles)).toEqual(['R']);
    await again.close();
    expect(notices).toEqual([
      expect.stringMatching(/damaged \(the row styles\/S is not valid JSON.*1 record was not readable and left out/),
    ]);
    expect(damagedCopiesIn(dir)).toHaveLength(1);
  });
});
