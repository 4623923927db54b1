// The Blender add-on without Blender: its link client's Python unit tests (test_link.py, run with Debian's
// python3 against real web hosts they start), and the zip the build makes for Blender's add-on installer.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import yauzl from 'yauzl';
import { afterAll, describe, expect, it } from 'vitest';
import { ADDON_DIR, buildBlenderAddon } from '../../scripts/build-blender-addon.ts';
import { DATABASE_FILE } from '../../main/store/database.ts';
import { MIGRATIONS } from '../../main/store/migrations.ts';
import { tempDir } from '../host/helpers.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** Debian's python3 (CI's); pyenv's python3 may come first on PATH here. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const data = tempDir('blender-addon');
afterAll(() => data.remove());

describe('the link client (Python unit tests)', () => {
  it(
    'passes test/blender/test_link.py',
    () => {
      const run = spawnSync(PYTHON, ['-m', 'unittest', 'discover', '-s', 'test/blender', '-p', 'test_*.py', '-v'], {
        cwd: ROOT,
        encoding: 'utf8',
        // Node 24 for the web hosts the tests start; no __pycache__ left in the add-on's folder.
        env: { ...process.env, ASSET_STUDIO_NODE: process.execPath, PYTHONDONTWRITEBYTECODE: '1' },
        timeout: 15 * 60_000,
      });
      if (run.error) throw run.error;
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stderr).toMatch(/^Ran \d+ tests/m);
      expect(run.stderr).toMatch(/^OK$/m);
    },
    16 * 60_000,
  );
});

describe("the add-on's offline reader (offline.py)", () => {
  it('knows the database file and the newest schema of main/store (it refuses a newer one)', () => {
    const source = readFileSync(join(ADDON_DIR, 'offline.py'), 'utf8');
    expect(source.match(/^SCHEMA_VERSION = (\d+)$/m)?.[1]).toBe(String(MIGRATIONS.length));
    expect(source.match(/^DATABASE_FILE = "([^"]+)"/m)?.[1]).toBe(DATABASE_FILE);
  });
});

function zipEntries(path: string): Promise<Map<string, Buffer>> {
  return new Promise((resolveEntries, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolveEntries(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('the add-on zip', () => {
  it('holds the asset_studio package with bl_info for Blender 3.4 and up, and nothing else', async () => {
    const path = buildBlenderAddon(join(data.path, 'dist'));
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(path).toBe(join(data.path, 'dist', `asset_studio-${version}.zip`));
    const entries = await zipEntries(path);
    const sources = readdirSync(ADDON_DIR)
      .filter((f) => f.endsWith('.py'))
      .sort();
    expect(sources).toEqual(
      expect.arrayContaining(['__init__.py', 'link.py', 'operators.py', 'panel.py', 'preferences.py']),
    );
    expect([...entries.keys()].sort()).toEqual(sources.map((f) => `asset_studio/${f}`));
    for (const [name, bytes] of entries)
      expect(bytes.equals(readFileSync(join(ADDON_DIR, name.slice('asset_studio/'.length)))), name).toBe(true);
    const init = entries.get('asset_studio/__init__.py')!.toString('utf8');
    expect(init).toMatch(/^bl_info = \{$/m);
    expect(init).toContain('"blender": (3, 4, 0)');
    expect(init).toContain('"name": "Asset Studio"');
  });
});
