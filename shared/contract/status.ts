// The lifecycle every resource is normalised to (queued | running | succeeded | failed | unknown), and how a
// status table is read. The tables themselves belong to their kinds (shared/kinds/). The raw status string
// and percent are always kept; unknown strings are never an error.

export const LIFECYCLE_STATES = ['queued', 'running', 'succeeded', 'failed', 'unknown'] as const;
export type Lifecycle = (typeof LIFECYCLE_STATES)[number];

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

export interface NormaliseOptions {
  percent?: number | undefined;
  /** For the older image-to-3D flow: the step whose completion is awaited. */
  step?: OlderStep | undefined;
}

/** Status string (lower case) → lifecycle. */
export type StatusTable = Readonly<Record<string, Lifecycle>>;

/** How one kind of resource reads its status strings. */
export interface StatusRules {
  statuses: StatusTable;
  /** Decides before the table when it knows (the older flow: the step awaited decides what is final). */
  stepState?: ((key: string, step: OlderStep | undefined) => Lifecycle | undefined) | undefined;
}

const FAILED: StatusTable = { failed: 'failed', error: 'failed', cancelled: 'failed', canceled: 'failed' };

export function normaliseWith(rules: StatusRules, raw: string, options: NormaliseOptions = {}): NormalisedStatus {
  const key = raw.trim().toLowerCase();
  const state = rules.stepState?.(key, options.step) ?? rules.statuses[key] ?? FAILED[key] ?? guess(key);
  const out: NormalisedStatus = { state, raw, final: state === 'succeeded' || state === 'failed' };
  if (options.percent !== undefined && Number.isFinite(options.percent)) {
    out.percent = Math.max(0, Math.min(100, options.percent));
  }
  return out;
}

/** Names that are not in a table but say clearly what they are. Anything else stays unknown. */
function guess(key: string): Lifecycle {
  if (key.endsWith('_failed') || key.endsWith('_error')) return 'failed';
  if (key.endsWith('_processing') || key.endsWith('_in_progress')) return 'running';
  return 'unknown';
}

/**
 * The state as shown to people: a status this version does not know is shown by its own text (the job is
 * still followed), never as "unknown" alone.
 */
export function shownState(status: { state: string; raw: string }): string {
  return status.state === 'unknown' ? status.raw || 'unknown' : status.state;
}
