// Keeps every write inside the project folder: plain names only, and no link that leads out of it.
import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { makeProjectDir } from '../durable/write-file.ts';
import { ExportError, ioError } from './errors.ts';

/**
 * A name is one file name, not a path: no separator (so nothing absolute and no `..` step), not dots only.
 * Other characters a file system refuses are replaced later, when the name is styled.
 */
export function assertPlainName(name: string): void {
  const why =
    name.trim() === ''
      ? 'is empty'
      : /[/\\]/.test(name)
        ? 'is a path, not a name'
        : /^\.+$/.test(name.trim())
          ? 'would name the folder itself or the one above it'
          : undefined;
  if (why) {
    throw new ExportError('bad-name', {
      file: `name "${name}"`,
      why,
      fix: 'Give a plain asset name such as "Oak Chair"',
    });
  }
}

/** Is `path` at or below `root`? Both absolute; real paths when links matter. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Creates `dir` (below `root`) folder by folder and checks that each one really is inside `root`:
 * a link to a folder elsewhere is refused before anything is written through it.
 * Returns the real path of `dir`.
 */
export async function ensureFolderInside(root: string, dir: string): Promise<string> {
  if (!isInside(root, dir)) throw outside(dir, root, dir);
  let at = root;
  let real = root;
  for (const part of relative(root, dir).split(sep).filter(Boolean)) {
    at = join(at, part);
    try {
      await makeProjectDir(at); // 0755 like the rest of the project, whatever the umask
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(at, 'creating the folder', error);
    }
    real = await realpath(at).catch((error: unknown) => {
      throw ioError(at, 'resolving the folder (a broken link?)', error);
    });
    if (!isInside(root, real)) throw outside(at, root, real);
    if (!(await stat(real)).isDirectory()) {
      throw new ExportError('bad-input', {
        file: at,
        why: 'is a file where a folder is needed',
        fix: 'Move the file away or export elsewhere',
      });
    }
  }
  return real;
}

/** What is at `path` now, without following a link. */
export async function entryKind(path: string): Promise<'none' | 'dir' | 'link' | 'other'> {
  const s = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw ioError(path, 'checking the target', error);
  });
  return !s ? 'none' : s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : 'other';
}

function outside(file: string, root: string, real: string): ExportError {
  return new ExportError('outside-project', {
    file,
    why: `leads to ${real}, outside the project folder ${root}`,
    fix: 'Replace the link by a real folder inside the project, or choose another target',
  });
}
