// A text-to-image style: POST /tti-styles creates and trains it. The service offers no way to read a style
// back, so its job is recorded with the status the create answered and never polled.
import type { TextToImageStyle } from '../contract/text-to-image.ts';
import { normaliseWith, type StatusTable } from '../contract/status.ts';
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
    creates: { createStyle: (_, d) => ({ id: String(d.style_id) }) },
    costs: { createStyle: 'unpublished' },
    status: (value) => normaliseWith({ statuses }, String((value as Partial<TextToImageStyle>).status ?? '')),
    shortestMs: 60_000,
    outputs: () => [],
    preview: 'model',
  },
});
