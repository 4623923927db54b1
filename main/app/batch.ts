// A drag-and-drop batch: files and folders become inspected items, then jobs submitted a few at a time
// through the Submitter (journaled): images as image-to-3D sessions, FBX/zip as animation uploads.
// A bad file or a failed submission is recorded on its item and never stops the others.
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { BatchJobState, BatchJobSeen } from '../../shared/batch-counts.ts';
import type { CreateImageTo3dInput } from '../../shared/contract/index.ts';
import { CancelledError } from '../api/errors.ts';
import type { SubmitOutcome, Submitter } from '../jobs/submit.ts';
import { InspectionError } from '../files/errors.ts';
import { toDataUri } from '../files/inspect-image.ts';
import { expectedKind, inspectFile, sha256File, type InspectedFile } from '../files/inspect.ts';
import { DEFAULT_LIMITS, type FileLimits } from '../files/limits.ts';
import type { UploadProgress } from '../api/upload.ts';
import type { Store } from '../store/database.ts';

export type BatchItemState = 'inspecting' | 'rejected' | 'queued' | 'uploading' | 'submitted' | 'failed' | 'cancelled';

export interface BatchItem {
  /** Position in the batch, in the order the files were found. */
  index: number;
  path: string;
  /** The file name, also the label of its job. */
  name: string;
  state: BatchItemState;
  inspected?: InspectedFile;
  /** For FBX/zip uploads: bytes of the file sent so far, and its size. */
  sent?: number;
  total?: number;
  operationId?: string;
  jobId?: string;
  /** For FBX/zip uploads with animation texts: the job of those prompts. */
  promptsJobId?: string;
  /** Why the item was rejected, failed or was cancelled. */
  error?: string;
}

export interface SkippedPath {
  path: string;
  reason: string;
}

/** The files of a batch (folders walked) and the paths left out. */
export interface BatchFiles {
  files: string[];
  skipped: SkippedPath[];
}

export interface BatchSummary {
  /** Items (files found and not skipped). */
  total: number;
  submitted: number;
  rejected: number;
  failed: number;
  cancelled: number;
  items: BatchItem[];
  /** Paths found in folders and left out: hidden, of an unknown type, links to folders. */
  skipped: SkippedPath[];
}

export interface BatchOptions {
  submitter: Submitter;
  /** Settings of the image-to-3D sessions created from images (the image itself is filled in). */
  imageOptions?: Omit<CreateImageTo3dInput, 'image_url'>;
  /** Animations asked of every FBX/zip uploaded (text prompts, sent once its upload is created). */
  animationTexts?: readonly string[];
  limits?: FileLimits;
  /** Items inspected or submitted at the same time. Default 3. */
  concurrency?: number;
  /** Cancels the batch: items not started become `cancelled`, uploads in progress are cut off. */
  signal?: AbortSignal;
  /** Called on every change of an item: its state, or bytes sent. */
  onItem?: (item: Readonly<BatchItem>) => void;
  /** The files' inspections made for the quote (batch-check.ts), by path: taken as they are, not made again. */
  checked?: ReadonlyMap<string, InspectedFile | Error>;
}

export const DEFAULT_CONCURRENCY = 3;

/** `paths`: files and folders (walked here), or what listBatchFiles already found of them (not walked again). */
export async function runBatch(paths: readonly string[] | BatchFiles, options: BatchOptions): Promise<BatchSummary> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`concurrency must be a whole number above 0, got ${concurrency}`);
  const limits = options.limits ?? DEFAULT_LIMITS;
  const { signal } = options;
  const { files, skipped } = 'files' in paths ? paths : await listBatchFiles(paths);
  const items: BatchItem[] = files.map((path, index) => ({ index, path, name: basename(path), state: 'inspecting' }));
  const update = (item: BatchItem, change: Partial<BatchItem>) => {
    Object.assign(item, change);
    options.onItem?.(item);
  };
  for (const item of items) options.onItem?.(item);

  await eachLimited(items, concurrency, async (item) => {
    if (signal?.aborted) return update(item, { state: 'cancelled', error: 'the batch was cancelled' });
    try {
      const earlier = options.checked?.get(item.path);
      if (earlier instanceof Error) throw earlier;
      update(item, { state: 'queued', inspected: earlier ?? (await inspectFile(item.path, limits)) });
    } catch (error) {
      update(item, { state: 'rejected', error: messageOf(error) });
    }
  });

  const queued = items.filter((item) => item.state === 'queued');
  await eachLimited(queued, concurrency, async (item) => {
    if (signal?.aborted) return update(item, { state: 'cancelled', error: 'the batch was cancelled' });
    update(item, { state: 'uploading' });
    try {
      const outcome = await submitItem(item, options, limits, (sent, total) => update(item, { sent, total }));
      update(item, {
        state: 'submitted',
        operationId: outcome.operationId,
        ...(outcome.job && { jobId: outcome.job.id }),
      });
      if (item.inspected!.kind !== 'image' && options.animationTexts?.length)
        await submitPrompts(item, outcome, options, update);
    } catch (error) {
      const state =
        error instanceof InspectionError
          ? 'rejected'
          : signal?.aborted && isCancellation(error)
            ? 'cancelled'
            : 'failed';
      update(item, { state, error: messageOf(error) });
    }
  });

  const count = (state: BatchItemState) => items.filter((item) => item.state === state).length;
  return {
    total: items.length,
    submitted: count('submitted'),
    rejected: count('rejected'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    items,
    skipped,
  };
}

/**
 * The states of a batch's jobs, read in one go: `null` for a job no longer in the library (deleted since it
 * was submitted), which the counts say is removed, neither completed nor failed.
 */
export function batchJobStates(store: Pick<Store, 'jobs'>, ids: readonly string[]): Map<string, BatchJobSeen> {
  const found = new Map<string, BatchJobState>(
    store.jobs.getMany(ids).map((j) => [j.id, { state: j.state, final: j.final, percent: j.percent }]),
  );
  return new Map(ids.map((id) => [id, found.get(id) ?? null]));
}

async function submitItem(
  item: BatchItem,
  options: BatchOptions,
  limits: FileLimits,
  onBytes: (sent: number, total: number) => void,
): Promise<SubmitOutcome> {
  const { submitter, signal } = options;
  if (item.inspected!.kind === 'image') {
    const image_url = await toDataUri(item.path, limits);
    return submitter.submit(
      'createImageTo3d',
      { body: { ...options.imageOptions, image_url }, signal },
      { label: item.name },
    );
  }
  const fileHash = await sha256File(item.path, signal);
  const onUploadProgress = ({ sent, total }: UploadProgress) => onBytes(sent, total);
  return submitter.submit(
    'uploadAnimationMesh',
    { file: item.path, signal, onUploadProgress },
    { label: item.name, fileHash },
  );
}

/** Asks the animations of an uploaded mesh (the service queues them until the mesh is ready); a refusal stays on the item. */
async function submitPrompts(
  item: BatchItem,
  upload: SubmitOutcome,
  options: BatchOptions,
  update: (item: BatchItem, change: Partial<BatchItem>) => void,
): Promise<void> {
  const texts = [...options.animationTexts!];
  const sessionCode = upload.job?.remoteId;
  if (!sessionCode)
    return update(item, {
      error:
        'The mesh was uploaded, but the service gave no session to animate: its animation prompts were not sent. Send them from Create › Animation.',
    });
  try {
    const outcome = await options.submitter.submit(
      'submitTextAnimations',
      { body: { session_code: sessionCode, texts }, signal: options.signal },
      { label: `${item.name}: ${texts.join(', ')}`.slice(0, 120) },
    );
    if (outcome.job) update(item, { promptsJobId: outcome.job.id });
  } catch (error) {
    update(item, {
      error: `The mesh was uploaded, but its animation prompts were not sent: ${messageOf(error)}. Send them from Create › Animation.`,
    });
  }
}

/** The files a batch of these paths would have (folders walked), and the paths it would leave out, with why. */
export async function listBatchFiles(paths: readonly string[]): Promise<BatchFiles> {
  const skipped: SkippedPath[] = [];
  return { files: await collectFiles(paths, skipped), skipped };
}

/**
 * The files to inspect, in order, without duplicates: given files as they are (even of unknown type, so
 * that their inspection says what is wrong), folders walked recursively. Paths that cannot be read are
 * kept: their inspection reports it.
 */
async function collectFiles(paths: readonly string[], skipped: SkippedPath[]): Promise<string[]> {
  const found = new Map<string, string>();
  const add = (path: string) => {
    const key = resolve(path);
    if (!found.has(key)) found.set(key, path);
  };
  for (const path of paths) {
    const isFolder = await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isFolder) await walk(path, add, skipped);
    else add(path);
  }
  return [...found.values()];
}

async function walk(folder: string, add: (path: string) => void, skipped: SkippedPath[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    skipped.push({
      path: folder,
      reason: `the folder cannot be read (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`,
    });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.name.startsWith('.')) skipped.push({ path, reason: 'hidden' });
    else if (entry.isDirectory()) await walk(path, add, skipped);
    else if (
      entry.isSymbolicLink() &&
      (await stat(path).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      skipped.push({ path, reason: 'a link to a folder (not followed)' });
    else if (expectedKind(path) === 'any') skipped.push({ path, reason: 'not an FBX, zip, PNG, JPEG or WebP file' });
    else add(path);
  }
}

/** Runs `work` on every item, at most `limit` at a time. `work` must not throw. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function isCancellation(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
