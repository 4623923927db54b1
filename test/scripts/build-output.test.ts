// The stamp and the whole-folder replace of the UI and Electron builds (scripts/build-output.ts): a stamp follows
// the inputs' content and the build's options; a build lands whole, replaces an older one, and gives way to one
// of the same inputs that got there first, leaving no temporary folder behind.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputsStamp, readStamp, replaceWithBuild, stagingDir } from '../../scripts/build-output.ts';
import { tempDir } from '../helpers.ts';

/** A finished build in a staging folder beside `outDir`, holding `app.js` with `content`. */
function staged(outDir: string, content: string): string {
  const dir = stagingDir(outDir);
  writeFileSync(join(dir, 'app.js'), content);
  return dir;
}

describe('build stamp', () => {
  it('changes with an input file or the options, not otherwise', () => {
    const root = tempDir();
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    writeFileSync(join(root, 'src', 'a.ts'), 'a');
    writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'b');
    writeFileSync(join(root, 'lock.json'), '{}');
    const inputs = [join(root, 'src'), join(root, 'lock.json'), join(root, 'missing')];
    const first = inputsStamp(root, inputs, { minify: true });
    expect(inputsStamp(root, inputs, { minify: true })).toBe(first);
    expect(inputsStamp(root, inputs, { minify: false })).not.toBe(first);
    writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'b2');
    const changed = inputsStamp(root, inputs, { minify: true });
    expect(changed).not.toBe(first);
    writeFileSync(join(root, 'src', 'c.ts'), '');
    expect(inputsStamp(root, inputs, { minify: true })).not.toBe(changed);
  });
});

describe('replaceWithBuild', () => {
  it('puts a build in place, replaces an older one, and keeps one of the same stamp that came first', () => {
    const dist = tempDir();
    const out = join(dist, 'renderer');
    replaceWithBuild(staged(out, 'one'), out, 'stamp-1');
    expect(readFileSync(join(out, 'app.js'), 'utf8')).toBe('one');
    expect(readStamp(out)).toBe('stamp-1');

    replaceWithBuild(staged(out, 'two'), out, 'stamp-2');
    expect(readFileSync(join(out, 'app.js'), 'utf8')).toBe('two');
    expect(readStamp(out)).toBe('stamp-2');

    // Two builds of the same inputs at once: the first to land stays, the second is dropped.
    const a = staged(out, 'three-a');
    const b = staged(out, 'three-b');
    replaceWithBuild(a, out, 'stamp-3');
    replaceWithBuild(b, out, 'stamp-3');
    expect(readFileSync(join(out, 'app.js'), 'utf8')).toBe('three-a');
    expect(readdirSync(dist)).toEqual(['renderer']); // no staging or old folder left
  });
});

describe('stagingDir', () => {
  it("removes what a build stopped half-way left (its process gone), never a running build's folder", () => {
    const root = tempDir();
    const outDir = join(root, 'renderer');
    const gone = join(root, '.renderer.build-2147483646-abcdef'); // no process has this id
    const goneOld = `${gone}.old`;
    const running = join(root, `.renderer.build-${process.pid}-ghijkl`);
    for (const dir of [gone, goneOld, running]) mkdirSync(dir);
    const fresh = stagingDir(outDir);
    const left = readdirSync(root).sort();
    expect(left).toEqual([running, fresh].map((p) => p.slice(root.length + 1)).sort());
  });
});
