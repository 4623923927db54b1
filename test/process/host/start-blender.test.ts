// `npm start` builds the Blender add-on (#33, from the walkthrough: a fresh clone's user found no add-on to
// install): the start writes its zip, says where it is, and the zip is what Blender installs (the package folder
// `asset_studio/` at its top, with its __init__.py and bl_info).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { tempDir } from '../../helpers.ts';
import { cleanEnv } from '../../cli/run-cli.ts';
import { startWebProcess } from './start-process.ts';

const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The names of a zip's entries. */
function zipNames(path: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => (names.push(entry.fileName), zip.readEntry()));
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    }),
  );
}

describe('npm start: the Blender add-on', () => {
  it('builds the add-on zip with the app and says where it is', { timeout: 240_000 }, async () => {
    const dir = tempDir();
    const blenderDir = join(dir, 'dist', 'blender');
    const version = (
      JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const zip = join(blenderDir, `asset_studio-${version}.zip`);
    const started = await startWebProcess(
      ['--data-dir', join(dir, 'data'), '--renderer-dir', join(dir, 'dist', 'renderer'), '--blender-dir', blenderDir],
      cleanEnv(),
      cleanup,
    );
    if ('code' in started) throw new Error(`the start ended with ${started.code}:\n${started.output}`);
    expect(started.output()).toContain(`The Blender add-on: ${zip}`);
    expect(started.output()).toContain('integrations/blender/README.md');
    expect(existsSync(zip)).toBe(true);
    const names = await zipNames(zip);
    expect(names).toContain('asset_studio/__init__.py');
    expect(names.every((n) => n.startsWith('asset_studio/'))).toBe(true);
  });
});
