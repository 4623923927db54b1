// A dynamic `import()` of a CommonJS package (undici, ws, yauzl…) gives, in the CLI's bundle (scripts/build-cli.ts,
// code splitting), a chunk that exports only `default`: `const { Agent } = await import('undici')` worked from the
// sources and failed in dist/cli with "Agent2 is not a constructor" (issue #33: every download that left the fast
// path). Such a package is imported by name, statically, from a module of ours that is itself imported lazily
// (main/cache/general-get.ts); a dynamic import of it may take only its `default`. The bundled launcher runs the
// cases that need undici in test/process/cache/proxy-redirect.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));

function sourceFiles(): string[] {
  return ['main', 'shared', 'scripts', 'bin'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name) && !e.name.endsWith('.d.ts'))
      .map((e) => join(e.parentPath, e.name)),
  );
}

/** The code without its comments (a comment may name the pattern it warns about). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Is the package (as Node resolves it for `require`) CommonJS? */
function isCommonJs(specifier: string): boolean {
  let file: string;
  try {
    file = require.resolve(specifier);
  } catch {
    return false; // ESM only (no require condition), or not installed
  }
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type !== 'module';
    } catch {
      // no package.json here: the folder above
    }
  }
  return true;
}

/** Every dynamic import of a CommonJS package that takes more than its `default`: `file: the import and what follows`. */
function namedImportsOfCommonJs(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles()) {
    const text = code(readFileSync(file, 'utf8'));
    for (const match of text.matchAll(/import\(\s*['"]([^./'"][^'"]*)['"]\s*\)/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith('node:') || !isCommonJs(specifier)) continue;
      const after = text.slice(match.index + match[0].length, match.index + match[0].length + 60);
      const before = text.slice(Math.max(0, match.index - 60), match.index);
      const defaultOnly =
        /^\s*\.then\(\s*\(\s*\{\s*default\s*:[^,}]*\}\s*\)/.test(after) ||
        /\{\s*default\s*:\s*[\w$]+\s*\}\s*=\s*await\s*$/.test(before);
      if (!defaultOnly) found.push(`${file.slice(ROOT.length + 1)}: ${match[0]}${after.split('\n')[0]}`);
    }
  }
  return found;
}

it('no source imports a CommonJS package dynamically for more than its default export', () => {
  expect(namedImportsOfCommonJs()).toEqual([]);
});

it('the check knows undici for a CommonJS package, and an ESM one for what it is', () => {
  expect(isCommonJs('undici')).toBe(true);
  expect(isCommonJs('meshoptimizer/decoder')).toBe(false);
});
