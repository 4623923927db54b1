// The parts of a job kind that most kinds share: one create whose answer names the session to follow, and a
// status read from the resource's `status` field with the kind's table.
import type { EndpointId } from '../contract/endpoints.ts';
import { normaliseWith, type NormalisedStatus, type StatusTable } from '../contract/status.ts';
import { record } from './fields.ts';
import type { CostBasis, CreateCall, JobDef, JobRef } from './types.ts';

/** A job started by `create` alone: its ref is the answer's `idField` (a session code or id); `cost` as JobDef.costs. */
export function startedBy(create: EndpointId, idField: string, cost: CostBasis): Pick<JobDef, 'creates' | 'costs'> {
  const refOf = (_: CreateCall, data: Readonly<Record<string, unknown>>): JobRef => ({ id: String(data[idField]) });
  return { creates: { [create]: refOf }, costs: { [create]: cost } };
}

/** The status of a resource as its `status` field says it, read with `statuses` (a missing one reads as ''). */
export function statusField(statuses: StatusTable): (value: unknown) => NormalisedStatus {
  return (value) => normaliseWith({ statuses }, String(record(value).status ?? ''));
}
