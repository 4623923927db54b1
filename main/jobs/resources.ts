// How a job is read back: the endpoint, the status and the value to keep come from its kind (shared/kinds/).
// Used by the tracker and by `--wait`.
import { listPages } from './list-pages.ts';
import {
  ENDPOINTS,
  pathParams,
  type EndpointDef,
  type EndpointId,
  type NormalisedStatus,
} from '../../shared/contract/index.ts';
import {
  canFollow,
  jobDef,
  jobStatus,
  refOfCreate as jobOfCreate,
  type CreateCall,
  type KindRef,
} from '../../shared/kinds/index.ts';
import type { ServiceClient } from '../api/client.ts';

export type TrackedRef = KindRef;

/** The resource a create started, or undefined when the service offers no way to read it back (a style). */
export function refOfCreate(endpoint: EndpointId, call: CreateCall, data: unknown): TrackedRef | undefined {
  const ref = jobOfCreate(endpoint, call, data);
  return ref && canFollow(ref.kind) ? ref : undefined;
}

export interface Observation {
  status: NormalisedStatus;
  /** The resource as last read. */
  value: unknown;
}

/** Can the job be read back? A style cannot: the service offers no read endpoint for it. */
export function canObserve(kind: string): boolean {
  return canFollow(kind);
}

/** Reads the resource once and normalises its status. */
export async function observe(
  client: ServiceClient,
  ref: TrackedRef,
  signal?: AbortSignal,
  maxAttempts?: number,
): Promise<Observation> {
  const o = { signal, ...(maxAttempts !== undefined && { maxAttempts }) };
  const job = jobDef(ref.kind);
  if (job?.read === undefined) throw new Error(`cannot read a resource of kind ${ref.kind}`);
  const def: EndpointDef = ENDPOINTS[job.read];
  const params = Object.fromEntries(pathParams(def.path).map((name) => [name, ref.id]));
  const value: unknown = await client.call(job.read, { params, ...o });
  const status = jobStatus(ref, value);
  const listed = job.readListed?.(ref, status) ? await findInList(client, ref.id, o) : undefined;
  return { value: listed ?? value, status };
}

/** The older form of a session from the list endpoint (newest first: recent sessions are on the first pages). */
async function findInList(
  client: ServiceClient,
  code: string,
  o: { signal?: AbortSignal | undefined; maxAttempts?: number },
): Promise<unknown> {
  for await (const { list } of listPages(client, { limit: 100, maxPages: 5, ...o })) {
    const found = list.results.find((s) => s.session_code === code);
    if (found) return found;
  }
  return undefined;
}
