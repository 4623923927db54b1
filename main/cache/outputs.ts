// Which files of a finished job to download, read from the resource as the tracker last read it
// (`job.result`) by the job's kind (shared/kinds/). Each file is keyed by its output kind within its
// session (formatOutputKind: `glb`, `preview_glb`, `spin_0`, `prompt:<id>`, `retopo_obj`, ...). Empty URLs
// are skipped; a URL listed twice (the engine and the service give `mesh_url` = `mesh_url_glb`) is
// downloaded once, under its first kind.
import { jobOutputs } from '../../shared/kinds/index.ts';
import { downloadFormat, formatOutputKind, OUTPUT_FORMATS, type OutputFormat } from '../../shared/output-kind.ts';
import type { JobRecord } from '../store/jobs.ts';
import { urlKey } from './downloader.ts';

export { OUTPUT_FORMATS, type OutputFormat };
/** GLB is always downloaded, whatever the list says: it is what the app reviews. */
export const DEFAULT_FORMATS: readonly OutputFormat[] = ['glb', 'obj', 'fbx', 'usdz', 'zip', 'image'];

export interface OutputFile {
  /** The output's key in the cache (formatOutputKind). */
  kind: string;
  url: string;
}

export function outputsOf(
  job: Pick<JobRecord, 'kind' | 'step' | 'texts' | 'result'>,
  formats: readonly OutputFormat[] = DEFAULT_FORMATS,
): OutputFile[] {
  const kinds = new Set<string>();
  const urls = new Set<string>();
  const out: OutputFile[] = [];
  for (const c of jobOutputs(job)) {
    const format = downloadFormat(c.kind);
    // No format: the job's main result (an animation, a retopologized mesh), always downloaded.
    const wanted = format === undefined || format === 'glb' || formats.includes(format);
    const kind = formatOutputKind(c.kind);
    if (typeof c.url !== 'string' || c.url === '' || !wanted || kinds.has(kind) || urls.has(urlKey(c.url))) continue;
    kinds.add(kind);
    urls.add(urlKey(c.url));
    out.push({ kind, url: c.url });
  }
  return out;
}
