// Text to image: POST /tti-sessions makes a session read back with GET /tti-sessions/<code>; its output is one image.
import type { StatusTable } from '../contract/status.ts';
import { record, str } from './fields.ts';
import { startedBy, statusField } from './session-job.ts';
import { defineResource } from './types.ts';

const statuses: StatusTable = {
  queued: 'queued',
  in_progress: 'running',
  processing: 'running',
  completed: 'succeeded',
  complete: 'succeeded',
};

export const textToImage = defineResource({
  kind: 'text_to_image',
  label: 'Text to image',
  statuses,
  answers: ['createTextToImage', 'getTextToImage'],
  job: {
    ...startedBy('createTextToImage', 'session_code', 'unpublished'),
    read: 'getTextToImage',
    status: statusField(statuses),
    shortestMs: 8_000,
    outputs: (job) => [{ kind: { type: 'image' }, url: str(record(job.result).image_url) }],
    preview: 'model',
  },
});
