// The add-on with Asset Studio NOT running, in real (headless) Blender: a data folder made by the CLI
// (`asset-studio create-3d chair.png --wait` on the embedded engine, which downloads the job's outputs into
// the cache) holds a finished job and no link file; the add-on reads the folder's database (read-only) and
// cache, lists the job and imports its GLB. Where it downloads: with no download folder set, a folder of
// this user's own under the temp folder (asset-studio-blender-<uid>, 0700), never the shared fixed
// `asset-studio-blender` an older add-on used (planted here by "another user"), and it refuses to use its own
// folder when that is open to others.
// Skipped, saying so, only where `blender` is not on PATH (.ci/run installs it).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { tempDir } from '../host/helpers.ts';
import { HAS_BLENDER, runAddonScript, warnIfNoBlender } from './blender.ts';

warnIfNoBlender('test/blender/addon-offline.test.ts');

/** A cap for a hung Blender, not a speed bar: Blender starts slowly on a loaded 2-core machine. */
const BLENDER_CAP_MS = 15 * 60_000;
const ROOT = resolve(import.meta.dirname, '..', '..');

const data = tempDir('blender-offline');
const dataDir = join(data.path, 'data');
/** Blender's temp folder (TMPDIR), and another where this user's download folder was made open to others. */
const temp = join(data.path, 'tmp');
const otherTemp = join(data.path, 'tmp-other');
const uid = process.getuid!();
const PLANTED = Buffer.from('glTF a model swapped in by another user');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function cli(args: string[]): any {
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'main', 'cli', 'main.ts'), '--data-dir', dataDir, '--engine-speed', '500', '--json', ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 5 * 60_000 },
  );
  if (run.status !== 0)
    throw new Error(`asset-studio ${args.join(' ')}: exit ${run.status}\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe.skipIf(!HAS_BLENDER)('the Blender add-on with Asset Studio not running', () => {
  let job: any;
  let facts: any;
  let databaseBefore: string;
  const oldFolder = join(temp, 'asset-studio-blender', 'models');
  const openFolder = join(otherTemp, `asset-studio-blender-${uid}`);

  beforeAll(async () => {
    job = cli(['--wait', 'create-3d', realFixture('images', 'chair.png')]).job;
    expect(job.state).toBe('succeeded');
    expect(existsSync(join(dataDir, 'link.json'))).toBe(false);
    databaseBefore = sha256(readFileSync(join(dataDir, 'asset-studio.db')));
    // The fixed folder an older add-on used, made first by someone else, with the file it would have imported.
    mkdirSync(oldFolder, { recursive: true });
    writeFileSync(join(oldFolder, `${job.remoteId}_glb.glb`), PLANTED);
    // This user's folder, but open to others (made so by someone, or by a umask): not to be used.
    mkdirSync(openFolder, { recursive: true });
    chmodSync(openFolder, 0o755);
    writeFileSync(join(openFolder, 'planted.glb'), PLANTED);

    ({ facts } = await runAddonScript('addon_offline.py', data.path, [job.id, otherTemp], {
      capMs: BLENDER_CAP_MS,
      env: { ASSET_STUDIO_DATA_DIR: dataDir, TMPDIR: temp },
    }));
  }, BLENDER_CAP_MS + 300_000);

  afterAll(() => data.remove());

  it("lists the data folder's finished job, saying the app is not running", () => {
    expect(facts.refresh).toEqual(['FINISHED']);
    expect(facts.status).toMatch(/^Asset Studio is not running: 1 job finished, read from .*\(import only\)$/);
    expect(facts.status).toContain(dataDir);
    expect(facts.listed).toEqual([{ id: job.id, session: job.remoteId, state: 'succeeded', kind: 'image_to_3d' }]);
  });

  it("imports the job's GLB from the cache, every triangle, and leaves the database as it was", async () => {
    const imported = facts.imported;
    expect(imported.result).toEqual(['FINISHED']);
    for (const o of imported.objects) expect(o).toMatchObject({ job: job.id, session: job.remoteId });
    const models = join(temp, `asset-studio-blender-${uid}`, 'models');
    expect(readdirSync(models)).toEqual([`${job.remoteId}_glb.glb`]);
    const bytes = readFileSync(join(models, `${job.remoteId}_glb.glb`));
    // The very blob of the cache (blobs/<aa>/<sha256>), copied.
    const hash = sha256(bytes);
    expect(existsSync(join(dataDir, 'cache', 'blobs', hash.slice(0, 2), hash))).toBe(true);
    const doc = await new NodeIO().readBinary(new Uint8Array(bytes));
    let triangles = 0;
    for (const mesh of doc.getRoot().listMeshes())
      for (const prim of mesh.listPrimitives()) triangles += prim.getIndices()!.getCount() / 3;
    expect(imported.triangles).toBe(triangles);
    expect(sha256(readFileSync(join(dataDir, 'asset-studio.db')))).toBe(databaseBefore);
  });

  it('downloads into a folder of this user alone (0700, owned by the user), not the fixed shared folder', () => {
    for (const folder of [
      join(temp, `asset-studio-blender-${uid}`),
      join(temp, `asset-studio-blender-${uid}`, 'models'),
    ]) {
      const info = statSync(folder);
      expect(info.mode & 0o777, folder).toBe(0o700);
      expect(info.uid, folder).toBe(uid);
    }
    expect(readdirSync(oldFolder)).toEqual([`${job.remoteId}_glb.glb`]);
    expect(readFileSync(join(oldFolder, `${job.remoteId}_glb.glb`)).equals(PLANTED)).toBe(true);
  });

  it('refuses its download folder when it is open to other users, saying why and what to do', () => {
    expect(facts.unsafe.error).toContain(openFolder);
    expect(facts.unsafe.error).toMatch(/open to other users \(mode 755, not 700\)/);
    expect(facts.unsafe.error).toMatch(/set a download folder of your own/);
    expect(readdirSync(openFolder)).toEqual(['planted.glb']);
  });
});
