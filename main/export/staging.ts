// Atomic folder replacement: files are written and fsynced in a hidden staging folder beside the target,
// which then becomes the target in one rename. Engines skip dot-folders, so they never import a half export.
//
// Names: `.assetstudio-staging-<pid>-<random>` and, while an old target is being replaced,
// `.assetstudio-old-<pid>-<hex>-<target name>`. A later export in the same folder removes those left by
// dead processes, and puts an old target back if a crash came between the two renames of a replacement.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fsyncDir, makeProjectDir, PROJECT_DIR_MODE, writeNewFileDurable } from '../durable/write-file.ts';
import { ExportError, ioError } from './errors.ts';
import { isProcessAlive } from '../durable/process-alive.ts';

const STAGING = '.assetstudio-staging-';
const OLD = '.assetstudio-old-';
const STAGING_RE = /^\.assetstudio-staging-(\d+)-/;
const OLD_RE = /^\.assetstudio-old-(\d+)-[0-9a-f]{8}-(.+)$/;

/** The staging folder becomes the asset folder: 0755 like the rest of the project (mkdtemp makes it 0700). */
export async function createStaging(parent: string): Promise<string> {
  try {
    const staging = await mkdtemp(join(parent, `${STAGING}${process.pid}-`));
    await chmod(staging, PROJECT_DIR_MODE);
    return staging;
  } catch (error) {
    throw ioError(parent, 'creating the staging folder', error);
  }
}

/** Writes a new file and fsyncs it, 0644 like the rest of the project (not the data folder's private 0600). */
export async function writeDurable(path: string, data: Uint8Array | string): Promise<void> {
  try {
    await writeNewFileDurable(path, data, { private: false });
  } catch (error) {
    throw ioError(path, 'writing the file', error);
  }
}

/** Makes the entries of a folder durable; an error names the folder. */
async function syncFolder(dir: string): Promise<void> {
  try {
    await fsyncDir(dir);
  } catch (error) {
    throw ioError(dir, 'syncing the folder to disk', error);
  }
}

/** Copies the entries of `from` that `keep` accepts into `to`, durably; links are copied as links. */
export async function copyEntries(from: string, to: string, keep: (name: string) => boolean): Promise<string[]> {
  const copied: string[] = [];
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (!keep(entry.name)) continue;
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isSymbolicLink()) await symlink(await readlink(src), dst);
    else if (entry.isDirectory()) {
      await makeProjectDir(dst).catch((error: unknown) => {
        throw ioError(dst, 'creating the folder', error);
      });
      await copyEntries(src, dst, () => true);
      await syncFolder(dst);
    } else if (entry.isFile()) await writeDurable(dst, await readFile(src));
    else continue;
    copied.push(entry.name);
  }
  return copied;
}

/** Turns the staging folder into `target`; with `replace`, the existing target is moved aside first and deleted last. */
export async function commitStaging(staging: string, target: string, replace: boolean): Promise<void> {
  const parent = dirname(target);
  await syncFolder(staging);
  if (!replace) {
    await renameOrExplain(staging, target);
    await syncFolder(parent);
    return;
  }
  const aside = join(parent, `${OLD}${process.pid}-${randomBytes(4).toString('hex')}-${basename(target)}`);
  await renameOrExplain(target, aside);
  try {
    await renameOrExplain(staging, target);
  } catch (error) {
    await rename(aside, target).catch((restoreError: unknown) => {
      throw ioError(
        aside,
        `putting the previous ${basename(target)} back (rename it to ${basename(target)} by hand)`,
        restoreError,
      );
    });
    throw error;
  }
  await syncFolder(parent); // the new target is durable before the old one goes
  await rm(aside, { recursive: true, force: true });
}

/** Cleans what dead exports left in `parent`; returns the names removed or restored. */
export async function cleanStale(parent: string): Promise<string[]> {
  const done: string[] = [];
  const entries = await readdir(parent).catch((): string[] => []);
  for (const name of entries) {
    const staging = STAGING_RE.exec(name);
    const old = OLD_RE.exec(name);
    const pid = Number((staging ?? old)?.[1]);
    if (!pid || isProcessAlive(pid)) continue;
    const path = join(parent, name);
    const original = old && join(parent, old[2]!);
    try {
      if (original && !entries.includes(old[2]!)) await rename(path, original);
      else await rm(path, { recursive: true, force: true });
    } catch (error) {
      throw ioError(path, 'cleaning up after an interrupted export', error);
    }
    done.push(name);
  }
  return done;
}

async function renameOrExplain(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') {
      throw new ExportError('target-exists', {
        file: to,
        why: 'appeared while the export was being written',
        fix: 'Export again, with overwrite to replace it',
        cause: error,
      });
    }
    throw ioError(to, `moving ${basename(from)} into place`, error);
  }
}
