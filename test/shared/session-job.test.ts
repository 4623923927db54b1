import { describe, expect, it } from 'vitest';
import { startedBy, statusField } from '../../shared/kinds/session-job.ts';
import { jobStatus, refOfCreate } from '../../shared/kinds/index.ts';

describe('the job parts kinds share', () => {
  it("startedBy: one create, the job's ref from a field of its answer, its cost", () => {
    const parts = startedBy('createRetopology', '_id', 'unpublished');
    expect(Object.keys(parts.creates)).toEqual(['createRetopology']);
    expect(parts.creates.createRetopology!({}, { _id: 'abc', session_code: 'SESSION_x' })).toEqual({ id: 'abc' });
    expect(parts.costs).toEqual({ createRetopology: 'unpublished' });
  });

  it("statusField: the `status` field through the kind's table; missing or odd records read as unknown", () => {
    const status = statusField({ training: 'running', trained: 'succeeded' });
    expect(status({ status: 'Trained' })).toEqual({ state: 'succeeded', raw: 'Trained', final: true });
    expect(status({ status: 'training' })).toMatchObject({ state: 'running', final: false });
    expect(status({})).toMatchObject({ state: 'unknown', raw: '' });
    expect(status(null)).toMatchObject({ state: 'unknown', raw: '' });
  });

  it('the kinds built on them follow their sessions as before', () => {
    expect(refOfCreate('createTextToImage', {}, { session_code: 'SESSION_t' })).toEqual({
      kind: 'text_to_image',
      id: 'SESSION_t',
    });
    expect(refOfCreate('createStyle', {}, { style_id: 'st_1' })).toEqual({ kind: 'style', id: 'st_1' });
    expect(refOfCreate('uploadAnimationMesh', {}, { session_code: 'SESSION_a' })?.id).toBe('SESSION_a');
    expect(refOfCreate('createImageTo3d', {}, { session_code: 'SESSION_i' })?.id).toBe('SESSION_i');
    expect(jobStatus({ kind: 'text_to_image', id: 'x' }, { status: 'completed' })).toMatchObject({
      state: 'succeeded',
    });
    expect(jobStatus({ kind: 'v3_session', id: 'x' }, { status: 'incomplete' })).toMatchObject({ state: 'running' });
  });
});
