// Which engine a folder belongs to: the nearest folder at or above it with a project's marker files.
// A folder that does not exist yet is an ordinary answer: it is looked for from the nearest folder above it
// that exists, and the export creates it (`newFolder`).
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import { jsonOf } from '../../shared/contract/index.ts';
import { UNITY_GLTF_PACKAGES } from '../../shared/export-options.ts';
import { ExportError, ioError } from './errors.ts';
import { EXPORT_TARGETS, PRESETS, type ExportTarget, type GameEngine } from './presets.ts';
import { TARGETS, type ExportTargetModule } from './targets/index.ts';

export interface Project {
  engine: ExportTarget;
  /** The project root (real path): the folder with the markers, or for `folder` the folder given. */
  root: string;
  /** The folder the user pointed at (real path), at or below root. */
  dir: string;
  /** Set when no game project was found and the plain-folder preset applies. */
  reason?: string;
  /** Set when `dir` does not exist yet: the export creates it (and any missing folder above it). */
  newFolder?: true;
  /** Unity only: the glTF package in Packages/manifest.json (`glTFast`, `UnityGLTF`), null when there is none. */
  gltfPackage?: string | null;
}

/** Each game engine's project markers, from its target's module (targets/). */
const MARKERS = Object.fromEntries(
  EXPORT_TARGETS.flatMap((t) => {
    const markers = TARGETS[t].markers;
    return markers ? [[t, markers]] : [];
  }),
) as Record<GameEngine, NonNullable<ExportTargetModule['markers']>>;
const GAME_ENGINES = Object.keys(MARKERS) as GameEngine[];

/**
 * Finds the project that `dir` is in. Without `engine` every engine is tried, and a folder in no game
 * project gives the `folder` preset with a `reason`. With an engine, that engine's project must be found.
 */
export async function detectProject(dir: string, engine?: ExportTarget): Promise<Project> {
  const { existing, missing } = await realFolder(dir);
  const start = join(existing, ...missing);
  const fresh = missing.length > 0 ? { newFolder: true as const } : {};
  if (engine === 'folder') return { engine, root: start, dir: start, ...fresh };
  const wanted = engine ? [engine] : GAME_ENGINES;
  for (let at = existing; ; at = dirname(at)) {
    const found: GameEngine[] = [];
    for (const e of wanted) if (await MARKERS[e].test(at)) found.push(e);
    if (found.length > 1) {
      throw new ExportError('ambiguous-project', {
        file: at,
        why: `holds the markers of several engines (${found.map((e) => PRESETS[e].label).join(', ')})`,
        fix: 'Choose the engine explicitly',
      });
    }
    if (found[0] === 'unity')
      return { engine: 'unity', root: at, dir: start, ...fresh, gltfPackage: await unityGltfPackage(at) };
    if (found[0]) return { engine: found[0], root: at, dir: start, ...fresh };
    if (dirname(at) === at) break;
  }
  const markers = wanted.map((e) => `${PRESETS[e].label}: ${MARKERS[e].text}`).join('; ');
  if (engine) {
    throw new ExportError('not-a-project', {
      file: start,
      why: `is not inside a ${PRESETS[engine].label} project (looked here and in every folder above for ${markers})`,
      fix: 'Choose the project folder or a folder inside it, or export to a plain folder',
    });
  }
  const where =
    missing.length > 0
      ? `a new folder (it will be created), in no game project: found none of ${markers} above it`
      : `not a game project: found none of ${markers} here or above`;
  return { engine: 'folder', root: start, dir: start, reason: where, ...fresh };
}

const unityManifest = z.object({ dependencies: z.record(z.string(), z.unknown()).optional() });

/**
 * The glTF importer package a Unity project lists in Packages/manifest.json (`glTFast` or `UnityGLTF`), or
 * null: no manifest, none of them in it, or a manifest that is not JSON (Unity would not open it either).
 */
export async function unityGltfPackage(root: string): Promise<string | null> {
  const text = await readFile(join(root, 'Packages', 'manifest.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return null;
  const parsed = jsonOf(unityManifest).safeParse(text);
  const ids = parsed.success ? Object.keys(parsed.data.dependencies ?? {}) : [];
  const id = Object.keys(UNITY_GLTF_PACKAGES).find((p) => ids.includes(p));
  return id === undefined ? null : UNITY_GLTF_PACKAGES[id]!;
}

/**
 * The real path of the nearest folder at or above `dir` that exists, and the names below it that do not
 * exist yet (empty when `dir` exists). Refused when that nearest entry is a file.
 */
async function realFolder(dir: string): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    let real: string;
    try {
      real = await realpath(at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(at) !== at) {
        missing.unshift(basename(at));
        continue;
      }
      throw ioError(at, 'opening the project folder', error);
    }
    if (!(await isKind(real, 'dir'))) {
      const why =
        missing.length === 0
          ? 'is a file, not a folder'
          : `is a file, so ${join(at, ...missing)} cannot be created in it`;
      throw new ExportError('not-a-project', { file: at, why, fix: 'Choose the project folder' });
    }
    return { existing: real, missing };
  }
}

async function isKind(path: string, kind: 'file' | 'dir'): Promise<boolean> {
  const s = await stat(path).catch(() => undefined);
  return kind === 'dir' ? s?.isDirectory() === true : s?.isFile() === true;
}
