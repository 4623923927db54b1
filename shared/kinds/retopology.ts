// Retopology (a generic v3 session): POST /v3/sessions with type `retopology` makes a session read back with
// GET /v3/sessions/<id>; its outputs are one OBJ and one image per output mesh (an asset each). Its job is
// compared with the mesh it was made from.
import type { StatusTable } from '../contract/status.ts';
import { list, record, str } from './fields.ts';
import { startedBy, statusField } from './session-job.ts';
import { defineResource, type OutputCandidate } from './types.ts';

const statuses: StatusTable = { incomplete: 'running', complete: 'succeeded', failed: 'failed' };

export const retopology = defineResource({
  kind: 'v3_session',
  label: 'Retopology',
  statuses,
  answers: ['createRetopology', 'getV3Session'],
  job: {
    ...startedBy('createRetopology', '_id', 'unpublished'),
    read: 'getV3Session',
    status: statusField(statuses),
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
