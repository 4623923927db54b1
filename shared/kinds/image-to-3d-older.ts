// Image to 3D, step by step (the older flow at the legacy address): a session is created, then its spin
// views, preview mesh and refined mesh are each asked for (submit-spin-jobs, get-3d/preview, get-3d/refine).
// Each step is a job of its own, followed through get-mesh until that step's `*_done`.
import type { MeshAvailability } from '../contract/image-to-3d.ts';
import { normaliseWith, type OlderStep, type StatusRules, type StatusTable } from '../contract/status.ts';
import { list, record, str, type Fields } from './fields.ts';
import { meshFiles } from './mesh-files.ts';
import { OLDER_FLOW, olderStepState } from './older-flow-status.ts';
import { defineResource, type OutputCandidate } from './types.ts';

const rules: StatusRules = { statuses: OLDER_FLOW, stepState: olderStepState };

export const imageTo3dOlder = defineResource({
  kind: 'image_to_3d_older',
  label: 'Image to 3D (step by step)',
  ...rules,
  answers: ['createImageTo3dLegacy', 'listImageTo3d'],
  job: {
    creates: {
      createImageTo3dLegacy: (call, d) => ({
        id: String(d.session_code),
        step: autoGenerates(record(call.body).auto_gen_3d) ? 'preview' : 'spin',
      }),
      submitSpin: (call) => ({ id: String(record(call.body).session_code), step: 'spin' }),
      preview: (call) => ({ id: String(call.params?.session_code), step: 'preview' }),
      refine: (call) => ({ id: String(call.params?.session_code), step: 'refine' }),
    },
    // The first create is an image-to-3D session of the same list; what its later steps take is not published.
    costs: {
      createImageTo3dLegacy: 'image-to-3d-list',
      submitSpin: 'unpublished',
      preview: 'unpublished',
      refine: 'unpublished',
    },
    // The older flow's statuses (spin_generate_*, preview_*, refine_*) are reported by get-mesh.
    read: 'getMesh',
    // The four spin images are only in the older form, which only the list endpoint returns.
    readListed: (ref, status) => status.final && ref.step === 'spin',
    status: (value, ref) =>
      normaliseWith(rules, (value as MeshAvailability[])[0]?.status ?? 'unknown', { step: ref.step }),
    shortestMs: { spin: 10_000, preview: 20_000, refine: 45_000 },
    // The tracker reads get-mesh (a list of one availability record); the list endpoint gives the older form.
    outputs: (job) => stepFiles(record(Array.isArray(job.result) ? job.result[0] : job.result), job.step),
    preview: 'model',
  },
});

/** The answer of get-3d/preview and get-3d/refine: the mesh job the step started. */
export const get3dJob = defineResource({
  kind: 'get3d_job',
  label: '3D job',
  statuses: {
    unprocessed: 'queued',
    processing: 'running',
    in_progress: 'running',
    processed: 'succeeded',
    complete: 'succeeded',
    completed: 'succeeded',
  } satisfies StatusTable,
  answers: ['preview', 'refine'],
});

/** A record of get-mesh: which meshes of a session are available, with the session's older status. */
export const meshAvailability = defineResource({
  kind: 'mesh_availability',
  label: 'Mesh availability',
  statuses: OLDER_FLOW,
  answers: ['getMesh'],
});

/** Each step's own files first, so a URL shared with `mesh_url_*` keeps the step's kind. */
function stepFiles(r: Fields, step: OlderStep | null): OutputCandidate[] {
  const spin = list(r.inference).map(
    (image, index): OutputCandidate => ({ kind: { type: 'spin', index }, url: str(image.image_url) }),
  );
  const preview = meshFiles(r, 'preview');
  const polished = meshFiles(r, 'polished');
  const mesh = meshFiles(r, 'final');
  switch (step) {
    case 'spin':
      return spin;
    case 'preview':
      return [...preview, ...mesh];
    case 'refine':
      return [...mesh, ...polished];
    default:
      return [...spin, ...preview, ...mesh, ...polished];
  }
}

/** auto_gen_3d as sent: a boolean, or the text "true"/"false" in any case (older scripts send strings). */
function autoGenerates(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}
