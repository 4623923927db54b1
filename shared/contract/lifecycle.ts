// One lifecycle for every resource of the service: queued | running | succeeded | failed | unknown.
// The raw status string and percent are always kept; unknown strings are never an error.

export const LIFECYCLE_STATES = ['queued', 'running', 'succeeded', 'failed', 'unknown'] as const;
export type Lifecycle = (typeof LIFECYCLE_STATES)[number];

export const RESOURCE_KINDS = [
  'image_to_3d',
  'image_to_3d_older',
  'get3d_job',
  'mesh_availability',
  'text_to_image',
  'style',
  'animation_upload',
  'animation_session',
  'animation_prompt',
  'v3_session',
  'asset',
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Steps of the older image-to-3D flow: what the user asked for decides which `*_done` is final. */
export const OLDER_STEPS = ['spin', 'preview', 'refine'] as const;
export type OlderStep = (typeof OLDER_STEPS)[number];

export interface NormalisedStatus {
  state: Lifecycle;
  raw: string;
  percent?: number;
  /** True when the state will not change any more: polling can stop. */
  final: boolean;
}

type Table = Readonly<Record<string, Lifecycle>>;

const FAILED: Table = { failed: 'failed', error: 'failed', cancelled: 'failed', canceled: 'failed' };

/** The older flow in order; a status at or past the asked step's `*_done` means that step succeeded. */
const OLDER_FLOW_ORDER = [
  'uploaded',
  'spin_generate_processing',
  'spin_generate_done',
  'preview_processing',
  'preview_done',
  'refine_processing',
  'refine_done',
] as const;
const OLDER_STEP_DONE: Readonly<Record<OlderStep, number>> = {
  spin: OLDER_FLOW_ORDER.indexOf('spin_generate_done'),
  preview: OLDER_FLOW_ORDER.indexOf('preview_done'),
  refine: OLDER_FLOW_ORDER.indexOf('refine_done'),
};

const OLDER_FLOW: Table = {
  uploaded: 'queued',
  spin_generate_processing: 'running',
  spin_generate_done: 'succeeded',
  spin_generate_failed: 'failed',
  preview_processing: 'running',
  preview_done: 'succeeded',
  preview_failed: 'failed',
  refine_processing: 'running',
  refine_done: 'succeeded',
  refine_failed: 'failed',
};

const ANIMATION: Table = {
  init_processing: 'running',
  init_done: 'running',
  predefined_processing: 'running',
  predefined_done: 'succeeded',
  text_processing: 'running',
  text_done: 'succeeded',
  init_failed: 'failed',
  predefined_failed: 'failed',
  text_failed: 'failed',
};

/** Status tables per resource, covering every status named in the spec plus the older-flow ones. */
export const STATUS_TABLES: Readonly<Record<ResourceKind, Table>> = {
  image_to_3d: {
    queued: 'queued',
    uploaded: 'queued',
    in_progress: 'running',
    processing: 'running',
    running: 'running',
    complete: 'succeeded',
    completed: 'succeeded',
    ...OLDER_FLOW,
  },
  image_to_3d_older: OLDER_FLOW,
  mesh_availability: OLDER_FLOW,
  get3d_job: { unprocessed: 'queued', processing: 'running', in_progress: 'running', processed: 'succeeded', complete: 'succeeded', completed: 'succeeded' },
  text_to_image: { queued: 'queued', in_progress: 'running', processing: 'running', completed: 'succeeded', complete: 'succeeded' },
  style: { training: 'running', trained: 'succeeded', completed: 'succeeded', complete: 'succeeded', ready: 'succeeded' },
  animation_upload: ANIMATION,
  animation_session: ANIMATION,
  animation_prompt: { queued: 'queued', text_processing: 'running', processing: 'running', in_progress: 'running', text_done: 'succeeded', completed: 'succeeded', text_failed: 'failed' },
  v3_session: { incomplete: 'running', complete: 'succeeded', failed: 'failed' },
  asset: { incomplete: 'running', complete: 'succeeded', failed: 'failed' },
};

export interface NormaliseOptions {
  percent?: number | undefined;
  /** For the older image-to-3D flow: the step whose completion is awaited. */
  step?: OlderStep | undefined;
}

export function normaliseStatus(kind: ResourceKind, raw: string, options: NormaliseOptions = {}): NormalisedStatus {
  const key = raw.trim().toLowerCase();
  const state = olderStepState(key, options.step) ?? STATUS_TABLES[kind][key] ?? FAILED[key] ?? guess(key);
  const out: NormalisedStatus = { state, raw, final: state === 'succeeded' || state === 'failed' };
  if (options.percent !== undefined && Number.isFinite(options.percent)) {
    out.percent = Math.max(0, Math.min(100, options.percent));
  }
  return out;
}

function olderStepState(key: string, step: OlderStep | undefined): Lifecycle | undefined {
  if (step === undefined) return undefined;
  const at = (OLDER_FLOW_ORDER as readonly string[]).indexOf(key);
  if (at < 0) return undefined;
  if (at >= OLDER_STEP_DONE[step]) return 'succeeded';
  return key === 'uploaded' ? 'queued' : 'running';
}

/** Names that are not in a table but say clearly what they are. Anything else stays unknown. */
function guess(key: string): Lifecycle {
  if (key.endsWith('_failed') || key.endsWith('_error')) return 'failed';
  if (key.endsWith('_processing') || key.endsWith('_in_progress')) return 'running';
  return 'unknown';
}
