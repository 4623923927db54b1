// The registry of kinds: every resource the app reads a status of, each declared in its own module. The
// rest of the app asks here (which kind a create starts, how to read it back, its status, its outputs, its
// label) instead of knowing the kinds' strings. A new generation type is one new module listed below.
import type { EndpointId } from '../contract/endpoints.ts';
import { normaliseWith, type NormaliseOptions, type NormalisedStatus, type StatusTable } from '../contract/status.ts';
import { outputLabel } from '../output-kind.ts';
import { animationPrompt, animationSession, animationUpload } from './animation.ts';
import { record } from './fields.ts';
import { get3dJob, imageTo3dOlder, meshAvailability } from './image-to-3d-older.ts';
import { imageTo3d } from './image-to-3d.ts';
import { asset, retopology } from './retopology.ts';
import { style } from './style.ts';
import { textToImage } from './text-to-image.ts';
import type { CostBasis, CreateCall, JobDef, JobOutputsInput, JobRef, OutputCandidate, ResourceDef } from './types.ts';

export type { CostBasis, CreateCall, JobDef, JobOutputsInput, JobRef, OutputCandidate, ResourceDef } from './types.ts';

/** Every kind, in the order lists show them. */
const RESOURCES = [
  imageTo3d,
  imageTo3dOlder,
  get3dJob,
  meshAvailability,
  textToImage,
  style,
  animationUpload,
  animationSession,
  animationPrompt,
  retopology,
  asset,
] as const;

export type ResourceKind = (typeof RESOURCES)[number]['kind'];
export const RESOURCE_KINDS = RESOURCES.map((r) => r.kind) as readonly ResourceKind[] as readonly [
  ResourceKind,
  ...ResourceKind[],
];

const BY_KIND: ReadonlyMap<string, ResourceDef> = new Map(RESOURCES.map((r) => [r.kind, r]));

/** The kinds that are jobs of the library (the others are answers or parts of a job's resource). */
export const JOB_KINDS: readonly ResourceKind[] = RESOURCES.filter((r) => r.job !== undefined).map((r) => r.kind);

/** Each kind's status table. */
export const STATUS_TABLES = Object.fromEntries(RESOURCES.map((r) => [r.kind, r.statuses])) as Readonly<
  Record<ResourceKind, StatusTable>
>;

/** The definition of a kind; undefined for a name this version does not know (a newer database). */
export function resourceDef(kind: string): ResourceDef | undefined {
  return BY_KIND.get(kind);
}

export function jobDef(kind: string): JobDef | undefined {
  return BY_KIND.get(kind)?.job;
}

/** A status string of a resource of this kind, normalised; unknown strings stay `unknown`, never an error. */
export function normaliseStatus(kind: ResourceKind, raw: string, options: NormaliseOptions = {}): NormalisedStatus {
  return normaliseWith(BY_KIND.get(kind) ?? { statuses: {} }, raw, options);
}

/** What users call a kind (the name itself when this version does not know it). */
export function kindLabel(kind: string): string {
  return BY_KIND.get(kind)?.label ?? kind;
}

/** A job's remote resource: its kind, and the id (and step or texts) to read it with. */
export interface KindRef extends JobRef {
  kind: ResourceKind;
}

const CREATES = new Map<EndpointId, { kind: ResourceKind; ref: NonNullable<JobDef['creates'][EndpointId]> }>(
  RESOURCES.flatMap((r) =>
    Object.entries(r.job?.creates ?? {}).map(
      ([endpoint, ref]) => [endpoint as EndpointId, { kind: r.kind, ref: ref! }] as const,
    ),
  ),
);

/** The kind of job a create starts, or undefined when the endpoint starts none (a read, a list). */
export function kindOfCreate(endpoint: EndpointId): ResourceKind | undefined {
  return CREATES.get(endpoint)?.kind;
}

const COSTS = new Map<EndpointId, CostBasis>(
  RESOURCES.flatMap((r) =>
    Object.entries(r.job?.costs ?? {}).map(([endpoint, basis]) => [endpoint as EndpointId, basis] as const),
  ),
);

/** How the price of a create is known at a service (its kind's module says); `unpublished` for any other endpoint. */
export function costBasisOf(endpoint: EndpointId): CostBasis {
  return COSTS.get(endpoint) ?? 'unpublished';
}

/** The job a create started, from the request and its answer ({} when the answer was lost: the id is then unknown). */
export function refOfCreate(endpoint: EndpointId, call: CreateCall, data: unknown): KindRef | undefined {
  const create = CREATES.get(endpoint);
  return create && { kind: create.kind, ...create.ref(call, record(data)) };
}

/** Can a job of this kind be read back (and so followed, polled, waited for)? */
export function canFollow(kind: string): boolean {
  return jobDef(kind)?.read !== undefined;
}

/** The endpoint that reads back what a create started (a create's own answer is shown otherwise). */
export function readEndpointOfCreate(endpoint: EndpointId): EndpointId | undefined {
  const kind = kindOfCreate(endpoint);
  return kind && jobDef(kind)?.read;
}

const DATA_KIND = new Map<EndpointId, ResourceKind>(
  RESOURCES.flatMap((r) => r.answers.map((e) => [e, r.kind] as const)),
);

/** The kind of resource an endpoint's data is (whose table reads its status field). */
export function kindOfData(endpoint: EndpointId): ResourceKind | undefined {
  return DATA_KIND.get(endpoint);
}

/** A job's status from its resource as read (or as created, for a kind that cannot be read back). */
export function jobStatus(ref: KindRef, value: unknown): NormalisedStatus {
  const job = jobDef(ref.kind);
  if (!job) throw new Error(`a ${ref.kind} is not a job: its status cannot be read`);
  return job.status(value, ref);
}

/** Shortest plausible durations, keyed `kind` or `kind:step` (see jobs/schedule.ts). */
export function shortestDurations(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of RESOURCES) {
    const ms = r.job?.shortestMs;
    if (typeof ms === 'number') out[r.kind] = ms;
    else if (ms) for (const [step, value] of Object.entries(ms)) out[`${r.kind}:${step}`] = value;
  }
  return out;
}

/** Every file of a job, best first (see JobDef.outputs); none for a kind this version does not know. */
export function jobOutputs(job: JobOutputsInput & { kind: string }): OutputCandidate[] {
  return jobDef(job.kind)?.outputs(job) ?? [];
}

/**
 * What users see for an output of a job: its clips named by their prompt or library label when the job's
 * result is known. `format: false` leaves out the file format, where it is shown beside the label.
 */
export function outputLabelOf(
  key: string,
  job?: { kind: string; result: unknown } | null,
  options: { format?: boolean } = {},
): string {
  const clips = job ? jobDef(job.kind)?.clipNames?.(job.result) : undefined;
  return outputLabel(key, { clips, format: options.format });
}
