// Text to image: POST /tti-sessions makes a session read back with GET /tti-sessions/<code>; its output is one image.
import type { TextToImageSession } from '../contract/text-to-image.ts';
import { normaliseWith, type StatusTable } from '../contract/status.ts';
import { record, str } from './fields.ts';
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
    creates: { createTextToImage: (_, d) => ({ id: String(d.session_code) }) },
    costs: { createTextToImage: 'unpublished' },
    read: 'getTextToImage',
    status: (value) => normaliseWith({ statuses }, (value as TextToImageSession).status),
    shortestMs: 8_000,
    outputs: (job) => [{ kind: { type: 'image' }, url: str(record(job.result).image_url) }],
    preview: 'model',
  },
});
