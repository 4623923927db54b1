// Which engine a folder belongs to: the nearest folder at or above it with a project's marker files.
import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ExportError, ioError } from './errors.ts';
import { PRESETS, type Engine, type GameEngine } from './presets.ts';

export interface Project {
  engine: Engine;
  /** The project root (real path): the folder with the markers, or for `folder` the folder given. */
  root: string;
  /** The folder the user pointed at (real path), at or below root. */
  dir: string;
  /** Set when no game project was found and the plain-folder preset applies. */
  reason?: string;
}

const MARKERS: Record<GameEngine, { text: string; test: (dir: string) => Promise<boolean> }> = {
  unity: {
    text: 'Assets/ and ProjectSettings/ProjectVersion.txt',
    test: async (dir) => (await isKind(join(dir, 'Assets'), 'dir')) && isKind(join(dir, 'ProjectSettings', 'ProjectVersion.txt'), 'file'),
  },
  unreal: {
    text: 'a *.uproject file',
    test: async (dir) => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      return entries.some((e) => e.isFile() && e.name.toLowerCase().endsWith('.uproject'));
    },
  },
  godot: { text: 'project.godot', test: (dir) => isKind(join(dir, 'project.godot'), 'file') },
};
const GAME_ENGINES = Object.keys(MARKERS) as GameEngine[];

/**
 * Finds the project that `dir` is in. Without `engine` every engine is tried, and a folder in no game
 * project gives the `folder` preset with a `reason`. With an engine, that engine's project must be found.
 */
export async function detectProject(dir: string, engine?: Engine): Promise<Project> {
  const start = await realFolder(dir);
  if (engine === 'folder') return { engine, root: start, dir: start };
  const wanted = engine ? [engine] : GAME_ENGINES;
  for (let at = start; ; at = dirname(at)) {
    const found: GameEngine[] = [];
    for (const e of wanted) if (await MARKERS[e].test(at)) found.push(e);
    if (found.length > 1) {
      throw new ExportError('ambiguous-project', {
        file: at,
        why: `holds the markers of several engines (${found.map((e) => PRESETS[e].label).join(', ')})`,
        fix: 'Choose the engine explicitly',
      });
    }
    if (found[0]) return { engine: found[0], root: at, dir: start };
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
  return { engine: 'folder', root: start, dir: start, reason: `not a game project: found none of ${markers} here or above` };
}

async function realFolder(dir: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ExportError('not-a-project', { file: dir, why: 'does not exist', fix: 'Choose an existing project folder' });
    }
    throw ioError(dir, 'opening the project folder', error);
  }
  if (!(await isKind(real, 'dir'))) {
    throw new ExportError('not-a-project', { file: dir, why: 'is a file, not a folder', fix: 'Choose the project folder' });
  }
  return real;
}

async function isKind(path: string, kind: 'file' | 'dir'): Promise<boolean> {
  const s = await stat(path).catch(() => undefined);
  return kind === 'dir' ? s?.isDirectory() === true : s?.isFile() === true;
}
