import { describe, expect, it } from 'vitest';
import { normaliseStatus, type ResourceKind, STATUS_TABLES } from '../../shared/contract/lifecycle.ts';

/** Statuses the service answers, by resource kind, and the state each is normalised to. */
const STATES: Partial<Record<ResourceKind, Record<string, 'queued' | 'running' | 'succeeded' | 'failed'>>> = {
  image_to_3d: { queued: 'queued', complete: 'succeeded', in_progress: 'running' },
  v3_session: { incomplete: 'running', complete: 'succeeded', failed: 'failed' },
  asset: { complete: 'succeeded' },
  get3d_job: { unprocessed: 'queued' },
  text_to_image: { in_progress: 'running', processing: 'running', completed: 'succeeded' },
  style: { training: 'running' },
  animation_upload: { init_processing: 'running' },
  animation_session: { init_done: 'running', predefined_done: 'succeeded' },
  animation_prompt: { text_done: 'succeeded' },
  image_to_3d_older: {
    uploaded: 'queued',
    spin_generate_processing: 'running',
    spin_generate_failed: 'failed',
    refine_failed: 'failed',
  },
  mesh_availability: { preview_done: 'succeeded' },
};

describe('normalised lifecycle', () => {
  it.each(
    Object.entries(STATES).flatMap(([kind, states]) =>
      Object.entries(states).map(([raw, state]) => [kind as ResourceKind, raw, state] as const),
    ),
  )('%s %s → %s', (kind, raw, state) => {
    const s = normaliseStatus(kind, raw);
    expect(s.state).toBe(state);
    expect(s.raw).toBe(raw);
    expect(s.final).toBe(state === 'succeeded' || state === 'failed');
  });

  it('the older flow is final only at the *_done of the step asked for', () => {
    expect(normaliseStatus('image_to_3d_older', 'spin_generate_done', { step: 'spin' }).state).toBe('succeeded');
    expect(normaliseStatus('image_to_3d_older', 'spin_generate_done', { step: 'preview' })).toMatchObject({
      state: 'running',
      final: false,
    });
    expect(normaliseStatus('image_to_3d_older', 'preview_done', { step: 'preview' }).final).toBe(true);
    expect(normaliseStatus('image_to_3d_older', 'preview_done', { step: 'refine' }).final).toBe(false);
    expect(normaliseStatus('image_to_3d_older', 'uploaded', { step: 'refine' }).state).toBe('queued');
    expect(normaliseStatus('image_to_3d_older', 'refine_done', { step: 'refine' }).state).toBe('succeeded');
    expect(normaliseStatus('image_to_3d_older', 'preview_failed', { step: 'refine' }).state).toBe('failed');
  });

  it('keeps unknown strings as unknown and not final, with the raw text', () => {
    const s = normaliseStatus('image_to_3d', 'Reticulating_Splines', { percent: 140 });
    expect(s).toEqual({ state: 'unknown', raw: 'Reticulating_Splines', percent: 100, final: false });
    expect(normaliseStatus('style', 'new_thing_failed').state).toBe('failed');
  });

  it('every table covers the statuses the spec names for its resource', () => {
    expect(STATUS_TABLES.image_to_3d).toMatchObject({ queued: 'queued', complete: 'succeeded' });
    expect(Object.keys(STATUS_TABLES.image_to_3d_older)).toEqual(
      expect.arrayContaining([
        'spin_generate_processing',
        'spin_generate_done',
        'spin_generate_failed',
        'preview_done',
        'preview_failed',
        'refine_done',
        'refine_failed',
      ]),
    );
    for (const s of ['init_processing', 'init_done', 'predefined_done', 'text_done'])
      expect(STATUS_TABLES.animation_session[s]).toBeDefined();
  });
});
