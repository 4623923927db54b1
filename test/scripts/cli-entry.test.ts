// Which code the `asset-studio` launcher runs (bin/cli-entry.js): the bundle in dist/cli/ while the files it was
// built from are as they were, else a bundle built now, else the sources; and the build's refusal of a bundle
// that renamed an error class (scripts/build-cli.ts), whose name the CLI prints as an error's code.
import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleIsCurrent, cliBundleEntry, cliEntry, cliOut, cliSourceEntry, INPUTS_FILE } from '../../bin/cli-entry.js';
import { refuseRenamedErrors } from '../../scripts/build-cli.ts';
import { tempDir } from '../helpers.ts';

/** A checkout with two sources and a bundle built from them as they are now (its inputs.json). */
function builtCheckout(): string {
  const root = tempDir();
  mkdirSync(join(root, 'main', 'cli'), { recursive: true });
  writeFileSync(join(root, 'main', 'cli', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package-lock.json'), '{}\n');
  mkdirSync(cliOut(root), { recursive: true });
  const inputs = Object.fromEntries(
    ['main/cli/main.ts', 'package-lock.json'].map((path) => {
      const stat = statSync(join(root, path));
      return [path, [stat.size, stat.mtimeMs]];
    }),
  );
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
    expect(calls).toEqual(['note: asset-studio: preparing the command after a change of its sources (once)…', 'build']);
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
