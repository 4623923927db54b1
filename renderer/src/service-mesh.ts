// What the service is sent as a retopology's model when it comes from the library. The service takes an
// https URL of a GLB or an ASSET_ id (no upload): a retopology's output asset id, else the service's own URL
// of the job's GLB (the step's own first). A link to this computer (the app's cache, or a model the local
// engine made) is never sent to a remote service: `reason` says why and what to do instead.
import type { JobView } from '../../shared/bridge/contract.ts';
import { jobOutputs } from '../../shared/kinds/index.ts';
import { jobTitle, record } from './util.ts';

/** A URL of this computer (127.0.0.1, localhost, ::1), or a path of this app (its cache). */
export function isThisComputer(url: string): boolean {
  if (url.startsWith('/')) return true;
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

/** `remote`: connected to a service elsewhere (not the embedded local engine). */
export function serviceMeshOf(job: JobView, remote: boolean): { mesh: string } | { reason: string } {
  const meshes = record(record(job.result).output).meshes;
  const asset = record(Array.isArray(meshes) ? meshes[0] : undefined);
  if (typeof asset._id === 'string' && asset._id.startsWith('ASSET_')) return { mesh: asset._id };
  const glb = jobOutputs(job).find((c) => c.kind.type === 'mesh' && c.kind.format === 'glb' && c.url);
  if (!glb?.url) return { reason: `"${jobTitle(job)}" has no GLB at the service to start from.` };
  if (remote && isThisComputer(glb.url))
    return {
      reason: `"${jobTitle(job)}" was made by the local engine: its file is on this computer, which the service cannot read. Export it, put it at an https URL and paste that URL.`,
    };
  return { mesh: glb.url };
}
