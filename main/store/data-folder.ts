// The data folder, opened the same way by every entry point (the CLI, the web host, the Electron app, and
// createServices for anyone else): it holds the API keys, the webhook secret (in the database) and the
// engine's state, so it is private to its user. A new folder is made 0700; in an existing one the folder
// and the files the app writes there are tightened to 0700 / 0600, said in one line. A folder that cannot
// be used (a file, read-only, another user's) is a DataFolderError naming it and saying what to do.
import { accessSync, chmodSync, constants, lstatSync, mkdirSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../durable/write-file.ts';
import { DATABASE_FILE } from './database-file.ts';
import { DataFolderError } from './errors.ts';

export { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE };

/** Where a one-line notice goes (a folder was made private). Default: standard error. */
export type Notice = (line: string) => void;
export const stderrNotice: Notice = (line) => void process.stderr.write(`${line}\n`);

/**
 * What the app writes directly in the data folder; folders are taken whole. Only these are tightened,
 * so a data folder pointed at a folder with other files never has those changed. The download cache
 * (`cache/`, or wherever its setting points) makes its own folder private when it claims it.
 */
export const DATA_FOLDER_ENTRIES: readonly (string | RegExp)[] = [
  DATABASE_FILE,
  `${DATABASE_FILE}-wal`,
  `${DATABASE_FILE}-shm`,
  `${DATABASE_FILE}-journal`,
  `${DATABASE_FILE}-closed`, // the record of its last clean close (durable/clean-close.ts)
  'api-key', // the CLI's key file (config/key-file.ts)
  'api-keys.json', // the desktop app's encrypted keys (config/profiles.ts)
  /^api-keys\.json\.(?:\d+-)?[0-9a-f]+\.tmp$/, // ... and its temp file left by a crash (main/durable names it <file>.<pid>-<hex>.tmp)
  'engine-key', // the embedded engine's key (app/services.ts)
  'engine', // the embedded engine's state, files, address and lock
  'uploads', // files dropped on the web host
  'web-host.json', // the web host's port and token kept between launches (host/saved-address.ts)
  'batches.json', // the batches of dropped files, kept over a restart (host/batch-log.ts)
  'link.json', // how the Blender add-on finds the app (host/link-file.ts)
  /^(?:web-host|batches|link)\.json\.(?:\d+-)?[0-9a-f]+\.tmp$/, // ... and their temp files left by a crash
];

/**
 * The download cache's folder in the data folder when its setting names no other (main/cache defaultCacheDir),
 * and the marker it keeps in the folder it owns (main/cache/folder.ts). Named here, the one home of both: the
 * database's check of an emptied file (damaged.ts) reads the marker to tell a data folder used before.
 */
export const DEFAULT_CACHE_FOLDER = 'cache';
export const CACHE_MARKER = '.asset-studio-cache';

/** How a folder is named in messages, and what the user can do instead of fixing it. */
export interface FolderRole {
  /** e.g. `The data folder`. */
  name: string;
  /** e.g. `point --data-dir (or ASSET_STUDIO_DATA_DIR) at another folder`. */
  instead: string;
  fail(path: string, message: string, cause?: unknown): Error;
}

const DATA_FOLDER: FolderRole = {
  name: 'The data folder',
  instead: 'point --data-dir (or ASSET_STUDIO_DATA_DIR) at another folder',
  fail: (path, message, cause) => new DataFolderError(path, message, cause),
};

/**
 * Opens the data folder: creates it 0700 when missing; otherwise checks that it is a folder this user
 * can read and write, and makes it and the app's files in it private, saying so in one line through
 * `notice` when anything was readable by others. Returns the absolute path. Throws DataFolderError.
 */
export function openDataFolder(dataDir: string, options: { notice?: Notice | undefined } = {}): string {
  const dir = resolve(dataDir);
  if (statFolder(dir, DATA_FOLDER) === undefined) {
    createFolder(dir, DATA_FOLDER);
    return dir;
  }
  checkWritable(dir, DATA_FOLDER);
  const tightened = makePrivate(dir, DATA_FOLDER, DATA_FOLDER_ENTRIES);
  if (tightened > 0) (options.notice ?? stderrNotice)(privateNotice('The data folder', dir, tightened));
  return dir;
}

export function privateNotice(name: string, dir: string, count: number): string {
  return `${name} ${dir} could be read by other users (${count} item${count === 1 ? '' : 's'}): made it private to you (folders 0700, files 0600).`;
}

/** The folder's stats; undefined when it does not exist. Throws (role.fail) when it is a file or out of reach. */
export function statFolder(dir: string, role: FolderRole): Stats | undefined {
  let info: Stats;
  try {
    info = statSync(dir);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw notAFolder(dir, fileOnPath(dir), role, error);
    if (code === 'EACCES' || code === 'EPERM') {
      throw role.fail(
        dir,
        `${role.name} ${dir} cannot be reached: you may not open a folder above it (permission denied). Give yourself access to its parent folders, or ${role.instead}.`,
        error,
      );
    }
    throw role.fail(
      dir,
      `${role.name} ${dir} cannot be used (${messageOf(error)}). Check the path, or ${role.instead}.`,
      error,
    );
  }
  if (!info.isDirectory()) throw notAFolder(dir, dir, role);
  return info;
}

/** Creates the folder (and missing parents) 0700. Throws (role.fail) saying why it cannot be. */
export function createFolder(dir: string, role: FolderRole): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    const code = codeOf(error);
    const parent = existingAncestor(dir);
    if (code === 'ENOTDIR' || code === 'EEXIST') throw notAFolder(dir, fileOnPath(dir), role, error);
    if (code === 'EACCES' || code === 'EPERM') {
      throw role.fail(
        dir,
        `${role.name} ${dir} cannot be created: you may not write in ${parent} (permission denied). Create the folder with write access for you, or ${role.instead}.`,
        error,
      );
    }
    if (code === 'EROFS')
      throw role.fail(
        dir,
        `${role.name} ${dir} cannot be created: ${parent} is on a read-only file system. ${capitalize(role.instead)}.`,
        error,
      );
    if (code === 'ENOSPC')
      throw role.fail(
        dir,
        `${role.name} ${dir} cannot be created: the disk of ${parent} is full. Free some space, or ${role.instead}.`,
        error,
      );
    throw role.fail(
      dir,
      `${role.name} ${dir} cannot be created (${messageOf(error)}). ${capitalize(role.instead)}.`,
      error,
    );
  }
}

/** Throws (role.fail) unless this user can list, read and write in the folder. */
export function checkWritable(dir: string, role: FolderRole): void {
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    if (codeOf(error) === 'EROFS')
      throw role.fail(
        dir,
        `${role.name} ${dir} is on a read-only file system; Asset Studio needs to write in it. ${capitalize(role.instead)}.`,
        error,
      );
    const fix =
      process.platform === 'win32'
        ? 'give your user write access to it'
        : `make it writable for you (chmod u+rwx "${dir}")`;
    throw role.fail(
      dir,
      `${role.name} ${dir} is read-only for you; Asset Studio needs to read and write in it. ${capitalize(fix)}, or ${role.instead}.`,
      error,
    );
  }
}

/**
 * Takes group and other permissions away from `root` and from its `entries` (names directly in it,
 * folders with everything inside; all entries when omitted). Symbolic links are left alone. Returns how
 * many items were changed. Nothing to do on Windows (no POSIX modes; the user profile is private).
 */
export function makePrivate(root: string, role: FolderRole, entries?: readonly (string | RegExp)[]): number {
  if (process.platform === 'win32') return 0;
  let changed = 0;
  const tighten = (path: string, info: Stats) => {
    if ((info.mode & 0o077) === 0) return;
    try {
      chmodSync(path, info.mode & 0o700);
    } catch (error) {
      const why =
        codeOf(error) === 'EPERM'
          ? 'belongs to another user (perhaps made by a run with sudo)'
          : `cannot be changed (${messageOf(error)})`;
      throw role.fail(
        root,
        `${role.name} ${root} cannot be made private: ${path} ${why}. Give it back to you (sudo chown -R "$USER" "${root}"), or ${role.instead}.`,
        error,
      );
    }
    changed++;
  };
  const walk = (path: string) => {
    let info: Stats;
    try {
      info = lstatSync(path);
    } catch {
      return; // gone meanwhile
    }
    if (info.isSymbolicLink() || !(info.isDirectory() || info.isFile())) return;
    tighten(path, info);
    if (info.isDirectory()) for (const name of list(path)) walk(join(path, name));
  };
  const list = (path: string): string[] => {
    try {
      return readdirSync(path);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return [];
      throw role.fail(
        root,
        `${role.name} ${root} cannot be made private: ${path} cannot be read by you (${messageOf(error)}). Give it back to you (sudo chown -R "$USER" "${root}"), or ${role.instead}.`,
        error,
      );
    }
  };
  tighten(root, statSync(root));
  for (const name of list(root)) {
    if (entries === undefined || entries.some((e) => (typeof e === 'string' ? e === name : e.test(name))))
      walk(join(root, name));
  }
  return changed;
}

function notAFolder(dir: string, file: string, role: FolderRole, cause?: unknown): Error {
  const what =
    file === dir
      ? `${role.name} ${dir} is a file, not a folder`
      : `${role.name} ${dir} cannot be used: ${file} is a file, not a folder`;
  return role.fail(dir, `${what}. Move that file away, or ${role.instead}.`, cause);
}

/** The first part of `dir`'s path that exists as something other than a folder (or `dir` itself). */
function fileOnPath(dir: string): string {
  for (let path = dir; dirname(path) !== path; path = dirname(path)) {
    try {
      return statSync(path).isDirectory() ? dir : path;
    } catch {
      // missing, or below a file: look higher
    }
  }
  return dir;
}

/** The nearest parent of `dir` that exists. */
function existingAncestor(dir: string): string {
  let path = dirname(dir);
  while (dirname(path) !== path && !exists(path)) path = dirname(path);
  return path;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
