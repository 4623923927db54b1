// Retopology (a generic v3 session): POST /v3/sessions with type `retopology` makes a session read back with
// GET /v3/sessions/<id>; its outputs are one OBJ and one image per output mesh (an asset each). Its job is
// compared with the mesh it was made from.
import type { V3Session } from '../contract/v3.ts';
import { normaliseWith, type StatusTable } from '../contract/status.ts';
import { list, record, str } from './fields.ts';
import { defineResource, type OutputCandidate } from './types.ts';

const statuses: StatusTable = { incomplete: 'running', complete: 'succeeded', failed: 'failed' };

export const retopology = defineResource({
  kind: 'v3_session',
  label: 'Retopology',
  statuses,
  answers: ['createRetopology', 'getV3Session'],
  job: {
    creates: { createRetopology: (_, d) => ({ id: String(d._id) }) },
    costs: { createRetopology: 'unpublished' },
    read: 'getV3Session',
    status: (value) => normaliseWith({ statuses }, (value as V3Session).status),
    shortestMs: 4 * 60_000, // "swift" runs about 5 to 10 minutes per the service's documentation
    outputs: (job) =>
      list(record(record(job.result).output).meshes).flatMap((asset, index): OutputCandidate[] => {
        const data = record(asset.data);
        return [
          { kind: { type: 'retopology', file: 'obj', index }, url: str(data.obj_url) },
          { kind: { type: 'retopology', file: 'image', index }, url: str(data.image_url) },
        ];
      }),
    preview: 'model',
    hasOriginal: true,
  },
});

/** A v3 asset (an input or output mesh of a session). */
export const asset = defineResource({
  kind: 'asset',
  label: 'Asset',
  statuses,
  answers: [],
});
