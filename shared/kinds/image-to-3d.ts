// Image to 3D (current form): POST /image-to-3d-sessions makes a session that is read back with
// GET /image-to-3d-sessions/<code>; its outputs are the mesh in every format and a turntable video.
import { type ImageTo3dSession, sessionPercentOf, sessionStatusOf } from '../contract/image-to-3d.ts';
import { normaliseWith, type StatusTable } from '../contract/status.ts';
import { record, str } from './fields.ts';
import { meshFiles } from './mesh-files.ts';
import { OLDER_FLOW } from './older-flow-status.ts';
import { startedBy } from './session-job.ts';
import { defineResource } from './types.ts';

const statuses: StatusTable = {
  queued: 'queued',
  uploaded: 'queued',
  in_progress: 'running',
  processing: 'running',
  running: 'running',
  complete: 'succeeded',
  completed: 'succeeded',
  ...OLDER_FLOW,
};

export const imageTo3d = defineResource({
  kind: 'image_to_3d',
  label: 'Image to 3D',
  statuses,
  answers: ['createImageTo3d', 'getImageTo3d'],
  job: {
    ...startedBy('createImageTo3d', 'session_code', 'image-to-3d-list'),
    read: 'getImageTo3d',
    status: (value) => {
      // Either form: the current one's session_status, or the older one's status (the real service answers both).
      const s = (value ?? {}) as Partial<ImageTo3dSession>;
      return normaliseWith({ statuses }, sessionStatusOf(s), { percent: sessionPercentOf(s) });
    },
    shortestMs: 30_000,
    outputs: (job) => {
      const r = record(job.result);
      return [...meshFiles(r, 'final'), { kind: { type: 'video' }, url: str(r.mp4_url) }];
    },
    preview: 'model',
  },
});
