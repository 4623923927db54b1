// The statuses of the older step-by-step image-to-3D flow, in order. Reported by get-mesh and the list
// endpoint, and also accepted from a current-form session (the service mixes them). `training_preview` is
// the preview mesh being made: the official SDK (csm-ai 0.0.2 to 0.1.5) waits through it for `preview_done`,
// and a create with auto_gen_3d answers it at once.
import type { Lifecycle, OlderStep, StatusTable } from '../contract/status.ts';

const ORDER = [
  'uploaded',
  'spin_generate_processing',
  'spin_generate_done',
  'training_preview',
  'preview_processing',
  'preview_done',
  'refine_processing',
  'training_refine',
  'refine_done',
] as const;
const STEP_DONE: Readonly<Record<OlderStep, number>> = {
  spin: ORDER.indexOf('spin_generate_done'),
  preview: ORDER.indexOf('preview_done'),
  refine: ORDER.indexOf('refine_done'),
};

export const OLDER_FLOW: StatusTable = {
  uploaded: 'queued',
  spin_generate_processing: 'running',
  spin_generate_done: 'succeeded',
  spin_generate_failed: 'failed',
  training_preview: 'running',
  preview_processing: 'running',
  preview_done: 'succeeded',
  preview_failed: 'failed',
  refine_processing: 'running',
  // The docs' name of the running refine (the engine's older-flow sessions created at the base address).
  training_refine: 'running',
  refine_done: 'succeeded',
  refine_failed: 'failed',
};

/** A status at or past the asked step's `*_done` means that step succeeded; before it, the step is still to come. */
export function olderStepState(key: string, step: OlderStep | undefined): Lifecycle | undefined {
  if (step === undefined) return undefined;
  const at = (ORDER as readonly string[]).indexOf(key);
  if (at < 0) return undefined;
  if (at >= STEP_DONE[step]) return 'succeeded';
  return key === 'uploaded' ? 'queued' : 'running';
}
