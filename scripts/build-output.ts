// Build outputs that are skipped when current and replaced whole, so two starts of one checkout at once
// (`npm start`, `npm run web`) never race on half-written files:
//  - a stamp of a build's inputs (a SHA-256 of every input file's path and content, and the build's options) is
//    written into the output folder (`build-stamp.json`); a build whose stamp matches the folder's is skipped;
//  - a build is written into a fresh temporary folder beside the output and renamed into place: the output is
//    either the old build or the new one, never a mix. When another start put a build of the same inputs there
//    first, ours is dropped; an older one is moved aside (and deleted) and ours renamed in.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { isProcessAlive } from '../main/durable/process-alive.ts';

export const STAMP_FILE = 'build-stamp.json';

/** Every file under `path` (a file or a folder), sorted; none when it does not exist. */
function filesUnder(path: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The stamp of a build: a hash of `options` (what else changes its output) and of the path (relative to `root`)
 * and content of every file of `inputs` (files or folders; one that does not exist counts as empty).
 */
export function inputsStamp(root: string, inputs: readonly string[], options: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(options ?? null));
  for (const input of inputs) {
    for (const file of filesUnder(input)) {
      const content = readFileSync(file);
      hash.update(`\0${relative(root, file).split(sep).join('/')}\0${content.length}\0`).update(content);
    }
  }
  return hash.digest('hex');
}

/** The stamp recorded in a build's output folder, if any. */
export function readStamp(outDir: string): string | undefined {
  try {
    const value = JSON.parse(readFileSync(join(outDir, STAMP_FILE), 'utf8')) as { stamp?: unknown };
    return typeof value.stamp === 'string' ? value.stamp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A fresh empty folder beside `outDir` (same file system, so it can be renamed into its place), named with this
 * process's id; the ones a build stopped half-way left (Ctrl-C, kill) are removed first when their process is gone.
 */
export function stagingDir(outDir: string): string {
  const prefix = `.${basename(outDir)}.build-`;
  for (const name of readdirSync(dirname(outDir)).filter((n) => n.startsWith(prefix))) {
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (pid && !isProcessAlive(pid)) rmSync(join(dirname(outDir), name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(dirname(outDir), `${prefix}${process.pid}-`));
  chmodSync(dir, 0o755); // readable like any build output (mkdtemp makes it private)
  return dir;
}

/**
 * Puts the build in `staging` (complete, its stamp not yet written) at `outDir`: writes the stamp, then renames
 * the folder into place. If another build of the same stamp got there first, it is kept and `staging` removed.
 */
export function replaceWithBuild(staging: string, outDir: string, stamp: string): void {
  writeFileSync(join(staging, STAMP_FILE), `${JSON.stringify({ stamp })}\n`);
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(staging, outDir); // succeeds only while outDir is absent (or an empty folder)
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') || attempt > 20) throw error;
    }
    if (readStamp(outDir) === stamp) {
      rmSync(staging, { recursive: true, force: true }); // another start built the same inputs: theirs stays
      return;
    }
    const old = `${staging}.old`;
    try {
      renameSync(outDir, old); // the older build aside (a start serving it reads the new one from now on)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // another start moved it: try again
      continue;
    }
    try {
      renameSync(staging, outDir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw error; // lost a race: again
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
}
