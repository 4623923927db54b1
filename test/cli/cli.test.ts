// The command line end to end against the embedded engine (no key, no address), run in the test process as
// a user would type it (test/cli/run-cli.ts); test/process/cli/ has what needs a real process.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

const CHAIR = realFixture('images', 'chair.png');
const SECRET = 'sk_live_CLI_SECRET_0123456789abcdef';

function env(dataDir = tempDataDir()) {
  return cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
}

describe('asset-studio CLI', () => {
  it('prints its commands; no command is bad usage', async () => {
    const help = await runCli(['help'], env());
    expect(help.code).toBe(0);
    for (const name of [
      'create-3d',
      'preview',
      'refine',
      'list',
      'retopology',
      'upload',
      'batch',
      'engine',
      'jobs',
      'reconcile',
    ])
      expect(help.stdout).toContain(name);
    expect((await runCli([], env())).code).toBe(2);
    const unknown = await runCli(['frobnicate'], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('creates a real job on the embedded engine and waits for it, JSON only on stdout', async () => {
    const result = await runCli(
      ['create-3d', CHAIR, '--topology', 'quads', '--wait', '--json', '--engine-speed', '2000'],
      env(),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as {
      operationId: string;
      job: { state: string; remoteId: string; result: { mesh_url_glb: string; topology: string } };
    };
    expect(out.job.state).toBe('succeeded');
    expect(out.job.remoteId).toMatch(/^SESSION_/);
    expect(out.job.result.topology).toBe('quads');
    expect(out.job.result.mesh_url_glb).toMatch(/^http:\/\/127\.0\.0\.1/);
  });

  it('reads back what it created in a later run (state survives)', async () => {
    const dataDir = tempDataDir();
    const created = await runCli(['text-to-image', 'a', 'red', 'lamp', '--json'], env(dataDir));
    expect(created.code).toBe(0);
    const code = (JSON.parse(created.stdout) as { data: { session_code: string } }).data.session_code;
    const read = await runCli(['get-image', code], env(dataDir));
    expect(read.code).toBe(0);
    expect(read.stdout).toContain(code);
    expect(read.stdout).toContain('prompt: a red lamp');
    const jobs = await runCli(['jobs', '--json'], env(dataDir));
    expect((JSON.parse(jobs.stdout) as { remoteId: string }[]).map((j) => j.remoteId)).toContain(code);
  });

  it('rejects a bad request before sending it, naming the field (exit 2)', async () => {
    const result = await runCli(['create-3d', CHAIR, '--scaled-bbox', '1,0,1'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/scaled_bbox\[1\]: must be a size in metres above 0, or -1 for automatic \(got 0\)/);
    const missing = await runCli(['create-3d', '/no/such/image.png'], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/\/no\/such\/image\.png/);
    const badOption = await runCli(['list', '--colour', 'red'], env());
    expect(badOption.code).toBe(2);
  });

  it('a service error is exit 3 with the service message', async () => {
    const result = await runCli(['get', 'SESSION_missing'], env());
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/404/);
  });

  it('an unreachable service is exit 5, and the key is never printed', async () => {
    const result = await runCli(['list', '--base-url', 'http://127.0.0.1:9', '--api-key', SECRET], env());
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/refused the connection/);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    const viaEnv = await runCli(
      ['get', 'SESSION_x'],
      cleanEnv({
        ASSET_STUDIO_DATA_DIR: tempDataDir(),
        ASSET_STUDIO_BASE_URL: 'http://127.0.0.1:9',
        ASSET_STUDIO_API_KEY: SECRET,
      }),
    );
    expect(viaEnv.code).toBe(5);
    expect(viaEnv.stdout + viaEnv.stderr).not.toContain(SECRET);
  });

  it('a wait that runs out of time is exit 4 and says how to check later', async () => {
    const result = await runCli(['create-3d', CHAIR, '--wait', '--timeout', '0.5', '--engine-speed', '1'], env());
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/still running after/);
  });

  it('settings that contradict each other are bad usage', async () => {
    const result = await runCli(['list', '--base-url', 'http://127.0.0.1:9'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no API key/);
  });

  it('key set / status / remove keeps the key in a 0600 file and never shows it', async () => {
    const dataDir = tempDataDir();
    const set = await runCli(['key', 'set'], env(dataDir), `${SECRET}\n`);
    expect(set.code).toBe(0);
    expect(statSync(join(dataDir, 'api-key')).mode & 0o777).toBe(0o600);
    const status = await runCli(['key', 'status'], env(dataDir));
    expect(status.stdout).toMatch(/configured \(not shown\)/);
    expect(status.stdout + set.stdout).not.toContain(SECRET);
    const remove = await runCli(['key', 'remove'], env(dataDir));
    expect(remove.stdout).toMatch(/removed/);
  });

  it('webhooks: enabled with a secret, --wait is woken by the embedded engine; the secret is never shown', async () => {
    const dataDir = tempDataDir();
    const secret = `whsec_${Buffer.from('cli webhook secret 0123456789abc').toString('base64')}`;
    const on = await runCli(['webhooks', 'enable', '--port', '0', '--secret', secret], env(dataDir));
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(/verified with your secret/);
    const status = await runCli(['webhooks', 'status', '--json'], env(dataDir));
    expect(JSON.parse(status.stdout)).toMatchObject({ enabled: true, secret: '(set, not shown)' });
    const result = await runCli(
      ['text-to-image', 'a', 'lamp', '--wait', '--json', '--engine-speed', '200'],
      env(dataDir),
    );
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { job: { state: string } }).job.state).toBe('succeeded');
    expect(on.stdout + status.stdout + result.stdout + result.stderr).not.toContain(secret);
    expect((await runCli(['webhooks', 'disable'], env(dataDir))).stdout).toMatch(/off/);
  });

  it('batch: a dropped folder becomes jobs; a bad file is reported and does not stop the others', async () => {
    const dataDir = tempDataDir();
    const drop = join(dataDir, 'drop');
    mkdirSync(drop);
    copyFileSync(realFixture('images', 'chair.png'), join(drop, 'chair.png'));
    copyFileSync(realFixture('images', 'fox.jpg'), join(drop, 'fox.jpg'));
    copyFileSync(realFixture('fbx', 'maya_kenney_character_7700_binary.fbx'), join(drop, 'kenney.fbx'));
    writeFileSync(join(drop, 'broken.fbx'), 'this is not an fbx');
    const result = await runCli(
      ['batch', drop, '--topology', 'quads', '--json', '--engine-speed', '500'],
      env(dataDir),
    );
    expect(result.code).toBe(2);
    const summary = JSON.parse(result.stdout) as {
      total: number;
      submitted: number;
      rejected: number;
      items: { name: string; state: string; error?: string }[];
    };
    expect(summary).toMatchObject({ total: 4, submitted: 3, rejected: 1 });
    expect(summary.items.find((i) => i.name === 'broken.fbx')!.error).toMatch(/not an FBX file/);
    const jobs = JSON.parse((await runCli(['jobs', '--json'], env(dataDir))).stdout) as { kind: string }[];
    expect(jobs.map((j) => j.kind).sort()).toEqual(['animation_session', 'image_to_3d', 'image_to_3d']);
  });

  it('batch: says its jobs are submitted and queued or running, and finished (with how many completed) only after --wait', async () => {
    const dataDir = tempDataDir();
    // Slow enough for the jobs to be queued or running when the command ends without --wait.
    const submitted = await runCli(
      ['batch', CHAIR, realFixture('images', 'fox.jpg'), '--engine-speed', '2'],
      env(dataDir),
    );
    expect(submitted.code).toBe(0);
    expect(submitted.stdout).toContain('2 file(s): 2 submitted');
    expect(submitted.stdout).toMatch(
      /^Batch submitted: 2 jobs \((\d queued|\d running)(, \d running)?\) at the service/m,
    );
    expect(submitted.stdout).not.toMatch(/finished/i);
    const waited = await runCli(['batch', CHAIR, '--wait', '--engine-speed', '2000'], env(dataDir));
    expect(waited.code).toBe(0);
    expect(waited.stdout).toContain('Batch finished: 1 job (1 completed)');
  });

  it('a waited job is in the cache; pull, cache verify and export into a Godot project work from it', async () => {
    const dataDir = tempDataDir();
    const created = await runCli(['create-3d', CHAIR, '--wait', '--json', '--engine-speed', '2000'], env(dataDir));
    expect(created.code).toBe(0);
    const jobId = (JSON.parse(created.stdout) as { job: { id: string } }).job.id;
    const ls = JSON.parse((await runCli(['cache', 'ls', '--json'], env(dataDir))).stdout) as {
      entries: { kind: string; state: string }[];
    };
    expect(ls.entries.filter((e) => e.state === 'complete').map((e) => e.kind)).toEqual(
      expect.arrayContaining(['glb', 'obj', 'fbx']),
    );
    const pulled = await runCli(['pull', jobId, '--json'], env(dataDir));
    expect(JSON.parse(pulled.stdout).failed).toEqual([]);
    const verify = await runCli(['cache', 'verify'], env(dataDir));
    expect(verify.stdout).toMatch(/0 damaged/);

    const project = join(dataDir, 'my-game');
    mkdirSync(project);
    writeFileSync(join(project, 'project.godot'), '[application]\nconfig/name="My Game"\n');
    const exported = await runCli(
      ['export', jobId, '--project', project, '--pivot', 'bottom-center', '--json'],
      env(dataDir),
    );
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const result = JSON.parse(exported.stdout) as {
      engine: string;
      targetDir: string;
      manifestPath: string;
      files: { path: string }[];
    };
    expect(result.engine).toBe('godot');
    expect(result.targetDir.startsWith(join(project, 'assets'))).toBe(true);
    expect(result.files.some((f) => f.path.endsWith('.glb'))).toBe(true);
    const manifest = JSON.parse(readFileSync(result.manifestPath, 'utf8')) as { source: { jobId: string } };
    expect(manifest.source.jobId).toBe(jobId);
    const again = await runCli(['export', jobId, '--project', project], env(dataDir));
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/--overwrite|overwrite/);
    const replaced = await runCli(['export', jobId, '--project', project, '--overwrite'], env(dataDir));
    expect(replaced.code).toBe(0);
    expect(existsSync(result.targetDir)).toBe(true);
  });
});

describe('the data folder (CLI)', () => {
  const posix = process.platform !== 'win32';
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

  it('an unusable data folder is exit 2, naming the folder and what to do, with no raw system or SQLite text', async () => {
    const parent = tempDataDir();
    const file = join(parent, 'data');
    writeFileSync(file, 'a file where the data folder should be');
    const isFile = await runCli(['jobs'], env(file));
    expect(isFile.code).toBe(2);
    expect(isFile.stderr).toBe(
      `error: The data folder ${file} is a file, not a folder. Move that file away, or point --data-dir (or ASSET_STUDIO_DATA_DIR) at another folder.\n`,
    );
    const below = await runCli(['jobs'], env(join(file, 'asset-studio')));
    expect(below.code).toBe(2);
    expect(below.stderr).toMatch(
      new RegExp(`The data folder ${join(file, 'asset-studio')} cannot be used: ${file} is a file, not a folder`),
    );
    const keySet = await runCli(['key', 'set', '--data-dir', file], cleanEnv(), 'sk_test_0123456789abcdef\n');
    expect(keySet.code).toBe(2);
    expect(keySet.stderr).toMatch(/is a file, not a folder/);
    for (const r of [isFile, below, keySet]) expect(r.stderr).not.toMatch(/EEXIST|ENOTDIR|EACCES|SQLite|sqlite/);
  }, 90_000); // several runs of the CLI

  it.skipIf(!posix)(
    'is made 0700 with its files 0600; an existing folder readable by others is tightened, with one line saying so',
    async () => {
      const dataDir = join(tempDataDir(), 'data');
      const created = await runCli(
        ['text-to-image', 'a', 'lamp', '--wait', '--json', '--engine-speed', '500'],
        env(dataDir),
      );
      expect(created.code).toBe(0);
      expect(created.stderr).toBe('');
      const all = readdirSync(dataDir, { recursive: true }).map((p) => join(dataDir, String(p)));
      expect(all).toContain(join(dataDir, 'asset-studio.db'));
      expect(all.some((p) => p.includes(join('cache', 'blobs')))).toBe(true);
      for (const path of [dataDir, ...all])
        expect({ path, mode: mode(path) }).toEqual({ path, mode: statSync(path).isDirectory() ? '700' : '600' });

      // As a version before this one left it: the folder 0755, the database 0644.
      chmodSync(dataDir, 0o755);
      chmodSync(join(dataDir, 'asset-studio.db'), 0o644);
      const tightened = await runCli(['jobs', '--json'], env(dataDir));
      expect(tightened.code).toBe(0);
      expect(tightened.stderr).toBe(
        `The data folder ${dataDir} could be read by other users (2 items): made it private to you (folders 0700, files 0600).\n`,
      );
      expect([mode(dataDir), mode(join(dataDir, 'asset-studio.db'))]).toEqual(['700', '600']);
      expect((await runCli(['jobs', '--json'], env(dataDir))).stderr).toBe('');
    },
    90_000,
  ); // several runs of the CLI

  it('cache gc says how many outputs it evicted', async () => {
    const result = await runCli(['cache', 'gc'], env());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('0 output(s) evicted, 0 bytes freed, 0 stray file(s) removed\n');
  });
});
