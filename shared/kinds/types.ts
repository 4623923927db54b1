// What a kind of resource is, in one place: its name and label, its status table, the endpoints that answer
// with it, and, for a job kind, which creates start it, how it is read back and followed, and its outputs.
// Each kind is one module of this folder; index.ts registers them. Nothing else knows their strings.
import type { EndpointId } from '../contract/endpoints.ts';
import type { NormalisedStatus, OlderStep, StatusRules } from '../contract/status.ts';
import type { ClipNames, OutputKind } from '../output-kind.ts';

export interface ResourceDef<K extends string = string> extends StatusRules {
  kind: K;
  /** What users call it (library, job page, filters). */
  label: string;
  /** The endpoints whose data is this resource (the CLI shows its state line with this kind's table). */
  answers: readonly EndpointId[];
  /** Present when the resource is a job of the library. */
  job?: JobDef;
}

/** Which remote resource a job follows. */
export interface JobRef {
  /** The session code / id to read. */
  id: string;
  /** For the older image-to-3D flow: the step awaited. */
  step?: OlderStep;
  /** For text animations: the prompt texts awaited. */
  texts?: string[];
}

/** A create as the journal recorded it: its path parameters and body. */
export interface CreateCall {
  params?: Readonly<Record<string, string>> | undefined;
  body?: unknown;
}

/** A job's fields that its outputs depend on (a JobRecord or a JobView). */
export interface JobOutputsInput {
  step: OlderStep | null;
  texts: readonly string[] | null;
  /** The resource as the tracker last read it. */
  result: unknown;
}

/** A file of a finished job; empty URLs are skipped by the downloader. */
export interface OutputCandidate {
  kind: OutputKind;
  url: string;
}

/**
 * What a create costs at a service, as far as it lets anyone know (the spec shows no per-operation price):
 * `image-to-3d-list`: the image-to-3D list's `credits` ÷ `image_to_3d_credits` (what one image-to-3D create
 * takes from the balance); `unpublished`: the service does not publish it. The embedded local engine
 * documents its own prices (main/engine/credits.ts CREATE_COSTS).
 */
export type CostBasis = 'image-to-3d-list' | 'unpublished';

export interface JobDef {
  /** The creates that start a job of this kind, each giving the job's ref from the request and the answer (empty when the answer was lost). */
  creates: Partial<Record<EndpointId, (call: CreateCall, data: Readonly<Record<string, unknown>>) => JobRef>>;
  /** How the price of each of its creates is known (one entry per create above). */
  costs: Partial<Record<EndpointId, CostBasis>>;
  /** The endpoint that reads the job back (its one path parameter is the ref's id); absent: it cannot be followed (a style). */
  read?: EndpointId;
  /** After a read with this status, the value kept is the session's older form from the list endpoint (the spin images are only there). */
  readListed?: (ref: JobRef, status: NormalisedStatus) => boolean;
  /** The job's status from the resource as read (or, when it cannot be read, as the create answered). */
  status(value: unknown, ref: JobRef): NormalisedStatus;
  /** Shortest plausible duration at the service (per step for the older flow): no read is made before 90% of it. */
  shortestMs: number | Readonly<Record<OlderStep, number>>;
  /** Every file of a job of this kind, best first: for one output kind the first non-empty URL is downloaded. */
  outputs(job: JobOutputsInput): OutputCandidate[];
  /** What users call the session's clips, when its outputs are clips. */
  clipNames?: (result: unknown) => ClipNames;
  /** How the job page previews it: its model (with export), or its animated files. */
  preview: 'model' | 'animation';
  /** A retopology: it is compared with the mesh it was made from. */
  hasOriginal?: boolean;
}

/** Declares a resource, keeping its kind as a literal type (so the registry can list the kinds). */
export function defineResource<const K extends string>(def: ResourceDef<K>): ResourceDef<K> {
  return def;
}
