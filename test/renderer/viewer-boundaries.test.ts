// The viewer's boundaries (renderer/README.md, "What may import what"), read from the source files:
// renderer/viewer/ is the Babylon side and never imports the UI (renderer/src/, renderer/bridge/) nor Preact;
// the UI reaches the viewer only through renderer/viewer/index.ts; and what index.ts pulls into app.js
// (its static imports, followed) holds no Babylon code: Babylon comes only with viewer/babylon.js.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = resolve(import.meta.dirname, '..', '..', 'renderer');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** A file's imports: specifier and whether it is type-only (erased) or a dynamic import(). */
function importsOf(file: string): { spec: string; typeOnly: boolean; dynamic: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const found: { spec: string; typeOnly: boolean; dynamic: boolean }[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+'([^']+)'/gm))
    found.push({ spec: m[3]!, typeOnly: !!m[2], dynamic: false });
  for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm))
    found.push({ spec: m[1]!, typeOnly: false, dynamic: false });
  for (const m of text.matchAll(/(typeof\s+)?\bimport\(\s*'([^']+)'\s*\)/g))
    found.push({ spec: m[2]!, typeOnly: !!m[1], dynamic: !m[1] });
  return found;
}

const inside = (path: string, folder: string) => !relative(join(RENDERER, folder), path).startsWith('..');
const resolved = (file: string, spec: string) => (spec.startsWith('.') ? resolve(dirname(file), spec) : undefined);

describe('renderer/viewer boundaries', () => {
  it('renderer/viewer/ imports neither the UI (renderer/src, renderer/bridge) nor Preact', () => {
    const wrong: string[] = [];
    for (const file of sourceFiles(join(RENDERER, 'viewer'))) {
      for (const { spec } of importsOf(file)) {
        const target = resolved(file, spec);
        if (/^preact(\/|$)/.test(spec) || (target && (inside(target, 'src') || inside(target, 'bridge'))))
          wrong.push(`${relative(RENDERER, file)} → ${spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the UI uses the viewer only through renderer/viewer/index.ts', () => {
    const wrong: string[] = [];
    for (const file of [...sourceFiles(join(RENDERER, 'src')), ...sourceFiles(join(RENDERER, 'bridge'))]) {
      for (const { spec } of importsOf(file)) {
        const target = resolved(file, spec);
        if (target && inside(target, 'viewer') && target !== join(RENDERER, 'viewer', 'index.ts'))
          wrong.push(`${relative(RENDERER, file)} → ${spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('what renderer/viewer/index.ts brings into app.js has no Babylon import', () => {
    const seen = new Set<string>();
    const babylon: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const { spec, typeOnly, dynamic } of importsOf(file)) {
        if (typeOnly || dynamic) continue; // erased, or a chunk of its own
        if (spec.startsWith('@babylonjs/')) babylon.push(`${relative(RENDERER, file)} → ${spec}`);
        const target = resolved(file, spec);
        if (target && inside(target, 'viewer')) visit(target);
      }
    };
    visit(join(RENDERER, 'viewer', 'index.ts'));
    expect([...seen].map((f) => relative(RENDERER, f))).toContain('viewer/fbx-check.ts');
    expect(babylon).toEqual([]);
  });

  it("screens reach a viewer through its handle (ModelViewer's onShown), never the page's canvas or Babylon's globals", () => {
    // Before: the export panel polled the DOM for `.viewer-canvas` for up to 2 minutes, the compare view found
    // the canvases by class, and sync.ts found a canvas's scene in Babylon's engine list (EngineStore).
    const wrong: string[] = [];
    for (const file of [...sourceFiles(join(RENDERER, 'src')), ...sourceFiles(join(RENDERER, 'viewer'))]) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of [
        /EngineStore|Engine\.Instances/,
        /['"`.]viewer-canvas['"`]/,
        /getElementById\('job-preview'\)/,
      ])
        if (pattern.test(text.replace(/class="viewer-canvas"/g, '')))
          wrong.push(`${relative(RENDERER, file)}: ${pattern}`);
    }
    expect(wrong).toEqual([]);
  });
});
