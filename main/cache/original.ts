// The original of a retopology job: the library job whose cached output is the retopology's input mesh.
// A retopology session names its input as a GLB URL (usually an image-to-3D session's signed `mesh_url_glb`)
// or as an `ASSET_` id of an earlier session's input. The cache index keys outputs by their URL without the
// query string (urlKey), so the signature the URL carried does not matter.
import { JOB_KINDS, jobDef } from '../../shared/kinds/index.ts';
import { parseOutputKind } from '../../shared/output-kind.ts';
import type { Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import { urlKey } from './downloader.ts';

export interface OriginalLookup {
  /** The input mesh as the job names it: a URL without its query string, or an `ASSET_` id; null when unknown. */
  mesh: string | null;
  /** The library job and output kind to compare with, when the cache holds it complete. */
  original: { jobId: string; sessionId: string; kind: string; label: string } | null;
  /** This job's own retopologized output in the cache (`retopo_obj`, `retopo_obj_1`, ...), if any. */
  kind: string | null;
  /** Why there is no original to compare with, in words. */
  reason: string | null;
}

const ASSET_PREFIX = 'ASSET_';
/** The kinds of job made from another mesh (a retopology). */
const WITH_ORIGINAL = JOB_KINDS.filter((k) => jobDef(k)?.hasOriginal);
export const NOT_CACHED =
  'The original mesh is not in the local cache: compare needs it downloaded. Download the files of the job that made it, or pick it yourself with Compare with…';

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The input mesh of a v3 retopology job: the GLB URL of its input asset, else what the create request said. */
export function inputMeshOf(
  job: Pick<JobRecord, 'result' | 'operationId'>,
  store: Pick<Store, 'journal'>,
): { url?: string; assetId?: string } {
  const mesh = record(record(job.result).input).mesh;
  const asset = record(mesh);
  const url =
    str(record(asset.data).glb_url) ?? (str(mesh) && !str(mesh)!.startsWith(ASSET_PREFIX) ? str(mesh) : undefined);
  const assetId = str(asset._id) ?? (str(mesh)?.startsWith(ASSET_PREFIX) ? str(mesh) : undefined);
  if (url !== undefined) return { url, ...(assetId && { assetId }) };
  // The create request, as the journal recorded it (the service echoes an asset object; older reads may not).
  const entry = job.operationId === null ? undefined : store.journal.get(job.operationId);
  const asked = str(record(record(entry?.body).input).mesh);
  if (asked !== undefined && !asked.startsWith(ASSET_PREFIX)) return { url: asked, ...(assetId && { assetId }) };
  return { ...((assetId ?? asked) && { assetId: assetId ?? asked }) };
}

function isRetopologizedMesh(key: string): boolean {
  const kind = parseOutputKind(key);
  return kind?.type === 'retopology' && kind.file === 'obj';
}

export function findOriginal(store: Pick<Store, 'jobs' | 'journal' | 'cache'>, job: JobRecord): OriginalLookup {
  const entries = store.cache.list();
  const own =
    job.remoteId === null
      ? undefined
      : entries.find((e) => e.sessionId === job.remoteId && e.state === 'complete' && isRetopologizedMesh(e.kind));
  const kind = own?.kind ?? null;
  if (!jobDef(job.kind)?.hasOriginal)
    return { mesh: null, original: null, kind, reason: 'Only a retopology job has an original mesh to compare with.' };
  let { url, assetId } = inputMeshOf(job, store);
  if (url === undefined && assetId !== undefined) {
    // An asset of an earlier session: its GLB URL is in that session's input.
    for (const other of store.jobs.list({ kinds: WITH_ORIGINAL, limit: 2000 })) {
      if (other.id === job.id) continue;
      const found = inputMeshOf(other, store);
      if (found.assetId === assetId && found.url !== undefined) {
        url = found.url;
        break;
      }
    }
    if (url === undefined) {
      return {
        mesh: assetId,
        original: null,
        kind,
        reason: `The input mesh is the asset ${assetId} of an earlier session that is not in this library, so its file is not known here: pick the original yourself with Compare with…`,
      };
    }
  }
  if (url === undefined)
    return { mesh: null, original: null, kind, reason: 'The service has not said which mesh this job retopologizes.' };
  const key = urlKey(url);
  const matches = entries.filter((e) => e.urlKey === key && e.sessionId !== job.remoteId);
  for (const entry of matches.filter((e) => e.state === 'complete')) {
    const owner =
      (entry.jobId !== null ? store.jobs.get(entry.jobId) : undefined) ?? store.jobs.findByRemoteId(entry.sessionId);
    if (owner)
      return {
        mesh: key,
        original: { jobId: owner.id, sessionId: entry.sessionId, kind: entry.kind, label: owner.label },
        kind,
        reason: null,
      };
  }
  const partial = matches[0];
  if (partial !== undefined) {
    const owner =
      (partial.jobId !== null ? store.jobs.get(partial.jobId) : undefined) ??
      store.jobs.findByRemoteId(partial.sessionId);
    const whose = owner ? `"${owner.label}"` : `session ${partial.sessionId}`;
    if (partial.state !== 'complete') {
      return {
        mesh: key,
        original: null,
        kind,
        reason: `The original mesh (the ${partial.kind} output of ${whose}) is not fully downloaded yet (${partial.state}): download that job's files, then compare.`,
      };
    }
    return {
      mesh: key,
      original: null,
      kind,
      reason: `The original mesh is cached (the ${partial.kind} output of session ${partial.sessionId}) but no library job holds it: pick it yourself with Compare with…`,
    };
  }
  return { mesh: key, original: null, kind, reason: NOT_CACHED };
}
