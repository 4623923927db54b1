// The library's own use cases: list it (filtered, sorted, a page), rename a job, delete jobs from the library,
// list the cached models (the compare view's choices). A delete is local: the job's
// record, the steps of its older-flow session, and its cached files (unless another job of the library
// uses the same session); the service keeps its copy, and the answer says so.
import { conflict, invalidInput } from '../../shared/errors.ts';
import { deleteSessionFiles } from '../cache/session-files.ts';
import type { DownloadCache } from '../cache/download-cache.ts';
import type { Store } from '../store/database.ts';
import type { JobFilter, JobRecord, JobSort } from '../store/jobs.ts';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { ModelFileFormat } from '../../shared/model-formats.ts';
import { isAnimatedModel, modelFormat, parseOutputKind } from '../../shared/output-kind.ts';

/** What the library shows: `state: 'active'` (or `active`) is every job not ended yet; `group`, one entry per older-flow session. */
export interface LibraryQuery extends Omit<JobFilter, 'final' | 'states'> {
  active?: boolean | undefined;
  state?: JobRecord['state'] | 'active' | undefined;
  sort?: JobSort | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** A page of the library, and how many entries match in all. */
export function listLibrary(store: Store, query: LibraryQuery): { jobs: JobRecord[]; total: number } {
  const filter: JobFilter = {
    ...((query.active || query.state === 'active') && { final: false }),
    ...(query.state !== undefined && query.state !== 'active' && { states: [query.state] }),
    ...(query.kinds && { kinds: query.kinds }),
    ...(query.search && { search: query.search }),
    ...(query.since !== undefined && { since: query.since }),
    ...(query.until !== undefined && { until: query.until }),
    ...(query.group && { group: true }),
  };
  const page = {
    ...filter,
    ...(query.sort && { sort: query.sort }),
    ...(query.limit !== undefined && { limit: query.limit }),
    ...(query.offset !== undefined && { offset: query.offset }),
  };
  return { jobs: store.jobs.list(page), total: store.jobs.count(filter) };
}

/** A complete cached file that holds a model, with the job of its session when the library has it. */
export interface CachedModel {
  entry: CacheEntry;
  format: ModelFileFormat;
  job: JobRecord | undefined;
}

/** Every complete cached model, the most recently used first (an animated one in the format its bytes are). */
export function cachedModels(services: { store: Store; cache: DownloadCache }): CachedModel[] {
  const { cache, store } = services;
  const models: CachedModel[] = [];
  // A session's models (GLB, OBJ, FBX…) share its job: looked up once per session, not once per file.
  const jobs = new Map<string, JobRecord | undefined>();
  const jobOf = (sessionId: string) => {
    if (!jobs.has(sessionId)) jobs.set(sessionId, store.jobs.findByRemoteId(sessionId));
    return jobs.get(sessionId);
  };
  for (const entry of cache.list().sort((a, b) => b.lastAccessAt - a.lastAccessAt)) {
    if (entry.state !== 'complete') continue;
    const kind = parseOutputKind(entry.kind);
    const animated = isAnimatedModel(kind) ? animatedFormat(cache.formatOf(entry)) : undefined;
    const format = modelFormat(kind, animated);
    if (format !== undefined) models.push({ entry, format, job: jobOf(entry.sessionId) });
  }
  return models;
}

/** GLB or FBX, the formats an animated model comes in; anything else is no animated model. */
function animatedFormat(format: string | undefined): 'glb' | 'fbx' | undefined {
  return format === 'glb' || format === 'fbx' ? format : undefined;
}

/** The longest name kept. */
export const MAX_NAME_LENGTH = 200;

/** What a delete from the library leaves alone, in words for the confirm and the answer. */
export const SERVICE_COPY_NOTE =
  "The service's copy is not deleted: it stays in your account there (and in the service's own list).";

/** Gives a job the name shown in the library; blank: back to its label (the input file name or prompt). */
export function renameJob(store: Store, job: JobRecord, name: string | null, now = Date.now()): JobRecord {
  const trimmed = name?.replace(/\s+/g, ' ').trim() ?? '';
  if (trimmed.length > MAX_NAME_LENGTH)
    throw invalidInput('The name', [
      { path: 'name', message: `is ${trimmed.length} characters long; use at most ${MAX_NAME_LENGTH}` },
    ]);
  return store.jobs.rename(job.id, trimmed === '' || trimmed === job.label ? null : trimmed, now);
}

/**
 * The rows of a library entry: the job, or every step of its older-flow session, or of an animation session
 * its upload and the text-animation jobs asked of it (one character: listed, opened and deleted as one).
 */
export function entryRows(store: Store, job: JobRecord): JobRecord[] {
  if (job.remoteId === null) return [job];
  if (job.kind === 'image_to_3d_older') return store.jobs.sessionSteps(job.remoteId);
  if (job.kind === 'animation_session' || job.kind === 'animation_prompt') {
    const rows = store.jobs.animationRows(job.remoteId);
    return rows.some((r) => r.id === job.id) ? rows : [job];
  }
  return [job];
}

export interface DeleteOutcome {
  /** The ids of the rows deleted (an older-flow entry: each of its steps). */
  deleted: string[];
  /** Cached files deleted. */
  files: number;
  note: string;
}

/**
 * Deletes library entries. Refused, before anything is deleted, when one of them is still running here
 * (stop following it first). The cached files of a session go when no remaining job uses that session.
 */
export async function deleteFromLibrary(
  services: { store: Store; cache: DownloadCache },
  jobs: readonly JobRecord[],
): Promise<DeleteOutcome> {
  const { store, cache } = services;
  const rows = new Map<string, JobRecord>();
  for (const job of jobs) for (const row of entryRows(store, job)) rows.set(row.id, row);
  const running = [...rows.values()].filter((r) => !r.final);
  if (running.length > 0) {
    const names = running
      .slice(0, 3)
      .map((r) => `"${r.name ?? r.label}"`)
      .join(', ');
    throw conflict(
      `${names}${running.length > 3 ? ` and ${running.length - 3} more` : ''} ${running.length === 1 ? 'is' : 'are'} still running: cancel ${running.length === 1 ? 'it' : 'them'} first (Cancel stops following a job here), or wait until ${running.length === 1 ? 'it ends' : 'they end'}, then delete.`,
    );
  }
  store.transaction(() => {
    for (const id of rows.keys()) store.jobs.delete(id);
  });
  let files = 0;
  const sessions = new Set([...rows.values()].flatMap((r) => (r.remoteId === null ? [] : [r.remoteId])));
  for (const sessionId of sessions) {
    if (store.jobs.findByRemoteId(sessionId) !== undefined) continue; // another job of the library uses it
    files += (await deleteSessionFiles(cache, store, sessionId)).files.length;
  }
  return { deleted: [...rows.keys()], files, note: SERVICE_COPY_NOTE };
}
