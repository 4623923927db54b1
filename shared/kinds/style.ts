// A text-to-image style: POST /tti-styles creates and trains it. The service offers no way to read a style
// back, so its job is recorded with the status the create answered and never polled.
import type { StatusTable } from '../contract/status.ts';
import { startedBy, statusField } from './session-job.ts';
import { defineResource } from './types.ts';

const statuses: StatusTable = {
  training: 'running',
  trained: 'succeeded',
  completed: 'succeeded',
  complete: 'succeeded',
  ready: 'succeeded',
};

export const style = defineResource({
  kind: 'style',
  label: 'Style',
  statuses,
  answers: ['createStyle'],
  job: {
    ...startedBy('createStyle', 'style_id', 'unpublished'),
    status: statusField(statuses),
    shortestMs: 60_000,
    outputs: () => [],
    preview: 'model',
  },
});
