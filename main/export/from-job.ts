// The files of a finished job that an export can use, taken from the download cache (no network):
// each cached output kind (see cache/outputs.ts) mapped to the export's file kind.
import type { DownloadCache } from '../cache/cache.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { SourceFile } from './export.ts';
import type { FileKind } from './presets.ts';

/** Cached kinds in order of preference per export kind; the job's own step comes first. */
function exportKindOf(cacheKind: string): FileKind | undefined {
  if (/^(glb|preview_glb|polished_glb|mesh|animation)$/.test(cacheKind) || /^prompt:[^:]+$/.test(cacheKind)) return 'glb';
  if (cacheKind === 'fbx') return 'fbx';
  if (cacheKind === 'obj' || /^retopo_obj(_\d+)?$/.test(cacheKind)) return 'obj';
  if (cacheKind === 'usdz' || /usdz$/.test(cacheKind)) return 'usdz';
  if (cacheKind === 'zip' || cacheKind === 'preview_zip') return 'zip';
  if (cacheKind === 'image' || /^retopo_image(_\d+)?$/.test(cacheKind) || cacheKind === 'render') return 'texture';
  return undefined;
}

/** Every cached output of the job's session that an export can write; at most one file per export kind. */
export function exportSourcesOf(job: Pick<JobRecord, 'remoteId'>, cache: DownloadCache): SourceFile[] {
  if (job.remoteId === null) return [];
  const seen = new Set<FileKind>();
  const files: SourceFile[] = [];
  for (const entry of cache.list()) {
    if (entry.sessionId !== job.remoteId || entry.state !== 'complete') continue;
    const kind = exportKindOf(entry.kind);
    if (kind === undefined || seen.has(kind)) continue;
    const path = cache.open(entry.sessionId, entry.kind);
    if (path === undefined) continue;
    seen.add(kind);
    files.push({ kind, path, ...(kind === 'texture' && { name: 'texture.png' }) });
  }
  return files;
}
