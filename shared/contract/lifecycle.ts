// One lifecycle for every resource of the service: queued | running | succeeded | failed | unknown.
// The mechanism is in status.ts; each kind's status table is in its own module under shared/kinds/.
export * from './status.ts';
export { normaliseStatus, RESOURCE_KINDS, STATUS_TABLES, type ResourceKind } from '../kinds/index.ts';
