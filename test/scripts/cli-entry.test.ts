// Which code the `asset-studio` launcher runs (bin/cli-entry.js): the bundle in dist/cli/ while the files it was
// built from, and the files it is made of, are as they were, else a bundle built now, else the sources; and the build's refusal of a bundle
// that renamed an error class (scripts/build-cli.ts), whose name the CLI prints as an error's code.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleIsCurrent, cliBundleEntry, cliOut, cliSourceEntry, INPUTS_FILE } from '../../bin/cli-bundle.js';
import { cliEntry } from '../../bin/cli-entry.js';
import { bundleIsWhole, refuseRenamedErrors } from '../../scripts/build-cli.ts';
import { tempDir } from '../helpers.ts';

/** The bundle's files of builtCheckout(): its entry and a chunk (under dist/cli/). */
const OUTPUTS = { 'main.js': 'import "./chunk-A.js";\n', 'chunk-A.js': 'export const a = 1;\n' };

/** A checkout with two sources and a bundle built from them as they are now (its inputs.json, outputs included). */
function builtCheckout(): string {
  const root = tempDir();
  mkdirSync(join(root, 'main', 'cli'), { recursive: true });
  writeFileSync(join(root, 'main', 'cli', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  mkdirSync(cliOut(root), { recursive: true });
  for (const [name, text] of Object.entries(OUTPUTS)) writeFileSync(join(cliOut(root), name), text);
  const record = (path: string, hashed: boolean) => {
    const stat = statSync(join(root, path));
    const hash = createHash('sha256')
      .update(readFileSync(join(root, path)))
      .digest('hex');
    return [path, hashed ? [stat.size, stat.mtimeMs, hash] : [stat.size, stat.mtimeMs]];
  };
  const inputs = Object.fromEntries([
    ...['main/cli/main.ts', 'package-lock.json'].map((path) => record(path, false)),
    ...Object.keys(OUTPUTS).map((name) => record(`dist/cli/${name}`, true)),
  ]);
  writeFileSync(join(cliOut(root), INPUTS_FILE), JSON.stringify(inputs));
  return root;
}

describe('bundleIsCurrent', () => {
  it('holds while every input is as the build saw it', () => {
    expect(bundleIsCurrent(builtCheckout())).toBe(true);
  });

  it('fails when a source was edited, even to the same size, or removed', () => {
    const edited = builtCheckout();
    writeFileSync(join(edited, 'main', 'cli', 'main.ts'), 'export const a = 22;\n');
    expect(bundleIsCurrent(edited)).toBe(false);

    const sameSize = builtCheckout();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(sameSize, 'package-lock.json'), later, later);
    expect(bundleIsCurrent(sameSize)).toBe(false);

    const removed = builtCheckout();
    rmSync(join(removed, 'main', 'cli', 'main.ts'));
    expect(bundleIsCurrent(removed)).toBe(false);
  });

  it('fails when a file of the bundle is missing, cut short or rewritten (issue #33: a damaged chunk broke every command)', () => {
    const missing = builtCheckout();
    rmSync(join(cliOut(missing), 'chunk-A.js'));
    expect(bundleIsCurrent(missing)).toBe(false);

    const cut = builtCheckout();
    truncateSync(join(cliOut(cut), 'chunk-A.js'), 5);
    expect(bundleIsCurrent(cut)).toBe(false);

    const rewritten = builtCheckout();
    writeFileSync(join(cliOut(rewritten), 'main.js'), 'import "./chunk-B.js";\n'); // the same size
    expect(bundleIsCurrent(rewritten)).toBe(false);

    // A record from before the outputs were recorded cannot tell: the bundle is built again, once.
    const old = builtCheckout();
    const record = JSON.parse(readFileSync(join(cliOut(old), INPUTS_FILE), 'utf8')) as Record<string, unknown>;
    for (const path of Object.keys(record)) if (path.startsWith('dist/')) delete record[path];
    writeFileSync(join(cliOut(old), INPUTS_FILE), JSON.stringify(record));
    expect(bundleIsCurrent(old)).toBe(false);
  });

  it('bundleIsWhole checks the hashes of the files it was built into', () => {
    const whole = builtCheckout();
    expect(bundleIsWhole(whole)).toBe(true);
    const damaged = builtCheckout();
    const chunk = join(cliOut(damaged), 'chunk-A.js');
    writeFileSync(chunk, 'export const b = 1;\n'); // the same size; the record then takes its new time, its hash kept
    const path = join(cliOut(damaged), INPUTS_FILE);
    const record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, [number, number, string?]>;
    record['dist/cli/chunk-A.js']![1] = statSync(chunk).mtimeMs;
    writeFileSync(path, JSON.stringify(record));
    expect(bundleIsCurrent(damaged)).toBe(true); // what a start can see with a stat
    expect(bundleIsWhole(damaged)).toBe(false);
  });

  it('fails when the bundle was never built, or its record is empty or unreadable', () => {
    expect(bundleIsCurrent(tempDir())).toBe(false);
    for (const record of ['{}', 'null', '{"main/cli/main.ts": 3}', 'not json']) {
      const root = builtCheckout();
      writeFileSync(join(cliOut(root), INPUTS_FILE), record);
      expect(bundleIsCurrent(root)).toBe(false);
    }
  });
});

describe('cliEntry', () => {
  const never = async () => {
    throw new Error('no build was expected');
  };

  it('runs the bundle while it is current, without building', async () => {
    const root = builtCheckout();
    expect(await cliEntry({ root, env: {}, build: never })).toBe(cliBundleEntry(root));
  });

  it('runs the sources when asked to (ASSET_STUDIO_CLI_FROM_SOURCE=1), current bundle or not', async () => {
    const root = builtCheckout();
    expect(await cliEntry({ root, env: { ASSET_STUDIO_CLI_FROM_SOURCE: '1' }, build: never })).toBe(
      cliSourceEntry(root),
    );
  });

  it('builds again a bundle one of whose files is missing, and runs it', async () => {
    const root = builtCheckout();
    rmSync(join(cliOut(root), 'chunk-A.js'));
    const calls: string[] = [];
    const entry = await cliEntry({ root, env: {}, build: async () => void calls.push('build'), note: () => {} });
    expect(entry).toBe(cliBundleEntry(root));
    expect(calls).toEqual(['build']);
  });

  it('builds a stale bundle first, saying so, and runs it', async () => {
    const root = builtCheckout();
    writeFileSync(join(root, 'main', 'cli', 'main.ts'), 'export const a = 2;\n');
    const calls: string[] = [];
    const entry = await cliEntry({
      root,
      env: {},
      build: async () => void calls.push('build'),
      note: (text) => void calls.push(`note: ${text.trim()}`),
    });
    expect(entry).toBe(cliBundleEntry(root));
    expect(calls).toEqual([
      'note: asset-studio: preparing the command after a change of its sources or of its bundle (once)…',
      'build',
    ]);
  });

  it('runs the sources when the bundle cannot be built (no esbuild in this install)', async () => {
    const root = tempDir();
    const entry = await cliEntry({
      root,
      env: {},
      build: async () => {
        throw Object.assign(new Error("Cannot find package 'esbuild'"), { code: 'ERR_MODULE_NOT_FOUND' });
      },
      note: () => {},
    });
    expect(entry).toBe(cliSourceEntry(root));
  });
});

describe('refuseRenamedErrors', () => {
  it('refuses a chunk in which esbuild renamed an error class, and lets other renamed classes be', () => {
    const out = tempDir();
    writeFileSync(join(out, 'chunk-A.js'), 'var Camera2=class Camera2 extends GraphNode{};class Camera3{}\n');
    expect(() => refuseRenamedErrors(out)).not.toThrow();
    writeFileSync(join(out, 'chunk-B.js'), 'var x=1;class ParseError2 extends Error{}\n');
    expect(() => refuseRenamedErrors(out)).toThrow(/renamed the class ParseError to ParseError2 \(chunk-B\.js\)/);
  });
});
