// Writes that survive a crash or a power cut, for every part of main (the local engine's state and files,
// the download cache's blobs, the keys, exports). A file is written under a temp name beside its target,
// synced, renamed over the target, and then its folder is synced so that the rename itself is on disk:
// a reader sees the old file or the new one, never a part of either. Folders made on the way are synced
// into their parents too.
//
// Modes, exact whatever the umask: what the app keeps in its data folder is private to its user (files 0600,
// folders 0700), the default here; an export into a game project passes `private: false` and gets the modes
// of the rest of a project (files 0644, folders 0755). Windows cannot open a folder to sync it; NTFS journals renames.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { chmod, link, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
export const PROJECT_FILE_MODE = 0o644;
export const PROJECT_DIR_MODE = 0o755;

const fileMode = (isPrivate: boolean) => (isPrivate ? PRIVATE_FILE_MODE : PROJECT_FILE_MODE);
const dirMode = (isPrivate: boolean) => (isPrivate ? PRIVATE_DIR_MODE : PROJECT_DIR_MODE);

export interface DurableWriteOptions {
  /** Default true: the file 0600 and the folders made for it 0700. False: 0644 and 0755 (a game project's). */
  private?: boolean;
  /** Refuse (EEXIST) rather than replace a file that is already there: the first writer wins. */
  exclusive?: boolean;
}

/** Writes `data` to `path` durably: temp file, fsync, rename (or link when exclusive), fsync of the folder. */
export async function writeFileDurable(
  path: string,
  data: string | Uint8Array,
  options: DurableWriteOptions = {},
): Promise<void> {
  const isPrivate = options.private ?? true;
  await makeDirDurable(dirname(path), { private: isPrivate });
  const temp = tempName(path);
  try {
    const handle = await open(temp, 'wx', fileMode(isPrivate));
    try {
      await handle.chmod(fileMode(isPrivate)); // exact, whatever the umask
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.exclusive) await link(temp, path);
    else
      await rename(temp, path).catch(async (error: unknown) => {
        // Another writer of the same target (another process on this data folder) may have put the same bytes there.
        if (
          !(await readFile(path).then(
            (there) => sameBytes(there, data),
            () => false,
          ))
        )
          throw error;
      });
  } finally {
    await rm(temp, { force: true });
  }
  await fsyncDir(dirname(path));
}

/** writeFileDurable for synchronous callers (the key files, read and written on the bridge's call path). */
export function writeFileDurableSync(path: string, data: string | Uint8Array, options: DurableWriteOptions = {}): void {
  const isPrivate = options.private ?? true;
  makeDirDurableSync(dirname(path), { private: isPrivate });
  const temp = tempName(path);
  try {
    const fd = openSync(temp, 'wx', fileMode(isPrivate));
    try {
      fchmodSync(fd, fileMode(isPrivate));
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.exclusive) linkSync(temp, path);
    else {
      try {
        renameSync(temp, path);
      } catch (error) {
        let there: Buffer | undefined;
        try {
          there = readFileSync(path);
        } catch {}
        if (there === undefined || !sameBytes(there, data)) throw error;
      }
    }
  } finally {
    rmSync(temp, { force: true });
  }
  fsyncDirSync(dirname(path));
}

/**
 * Creates a new file (EEXIST if there is one) and syncs it, with no temp name: for a file inside a folder
 * that is itself put in place later by one rename (an export's staging folder), whose folder the caller syncs.
 */
export async function writeNewFileDurable(
  path: string,
  data: string | Uint8Array,
  options: Pick<DurableWriteOptions, 'private'> = {},
): Promise<void> {
  const isPrivate = options.private ?? true;
  const handle = await open(path, 'wx', fileMode(isPrivate));
  try {
    await handle.chmod(fileMode(isPrivate));
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves a finished file (a download, an upload) to `to` durably: its bytes synced, the folders made for it
 * synced, the rename, then the folder it now lives in. Replaces a file already at `to`.
 */
export async function moveFileDurable(
  from: string,
  to: string,
  options: Pick<DurableWriteOptions, 'private'> = {},
): Promise<void> {
  const handle = await open(from, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await makeDirDurable(dirname(to), options);
  await rename(from, to);
  await fsyncDir(dirname(to));
  if (dirname(from) !== dirname(to)) await fsyncDir(dirname(from));
}

/** Makes `dir` and the folders above it that are missing, each synced into its parent. */
export async function makeDirDurable(dir: string, options: Pick<DurableWriteOptions, 'private'> = {}): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; !(await isDir(at)); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  if (missing.length === 0) return;
  const mode = dirMode(options.private ?? true);
  await mkdir(dir, { recursive: true, mode });
  for (const made of missing.reverse()) {
    await chmod(made, mode); // exact, whatever the umask
    await fsyncDir(dirname(made));
  }
}

export function makeDirDurableSync(dir: string, options: Pick<DurableWriteOptions, 'private'> = {}): void {
  const missing: string[] = [];
  for (let at = dir; !isDirSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  if (missing.length === 0) return;
  const mode = dirMode(options.private ?? true);
  mkdirSync(dir, { recursive: true, mode });
  for (const made of missing.reverse()) {
    chmodSync(made, mode);
    fsyncDirSync(dirname(made));
  }
}

/**
 * Makes one new folder (EEXIST if it is there) with a project's mode, 0755 whatever the umask: for the
 * folders an export creates in a game project. Its parent is synced by the caller.
 */
export async function makeProjectDir(dir: string): Promise<void> {
  await mkdir(dir, { mode: PROJECT_DIR_MODE });
  await chmod(dir, PROJECT_DIR_MODE);
}

/** Syncs a folder's entries (a rename or a new file in it) to disk. Nothing to do on Windows. */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function fsyncDirSync(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * `<target>.<pid>-<random>.tmp`, in the target's folder (a rename never crosses file systems): unique to
 * this writer, even with other processes writing the same target in the same data folder.
 */
function tempName(path: string): string {
  return `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

function sameBytes(there: Buffer, data: string | Uint8Array): boolean {
  return there.equals(
    typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  );
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

function isDirSync(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
