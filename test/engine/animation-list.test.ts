// `GET /mesh-animation` (issue #32 item 4): the vendor's docs page "List User Sessions" of mesh animation lists a
// user's animation sessions with the image-to-3D list's paging, newest first; its answer has no `skip`.
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../main/api/client.ts';
import { KEY, call, expectSuccess, inputUrl, useTestEngine } from './helpers.ts';

const engine = useTestEngine();

describe('GET /mesh-animation', () => {
  it('lists the caller’s animation sessions, newest first, in pages', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const made = expectSuccess(
        'uploadAnimationMesh',
        await call(engine, 'uploadAnimationMesh', { json: { mesh_url: inputUrl('hero.fbx') } }),
      );
      codes.push(made.session_code);
    }
    const first = expectSuccess('listAnimations', await call(engine, 'listAnimations', { query: 'limit=2&page=1' }));
    expect(first).toMatchObject({ page: 1, limit: 2, totalPages: 2, totalResults: 3 });
    expect(first).not.toHaveProperty('skip');
    expect(first.results.map((r: { session_code: string }) => r.session_code)).toEqual([codes[2], codes[1]]);
    expect(first.results[0]).toHaveProperty('animation_joint_dict');
    const second = expectSuccess('listAnimations', await call(engine, 'listAnimations', { query: 'limit=2&page=2' }));
    expect(second.results.map((r: { session_code: string }) => r.session_code)).toEqual([codes[0]]);
    // The docs' own request (`?page=1`, the default limit of 10).
    const all = expectSuccess('listAnimations', await call(engine, 'listAnimations', { query: 'page=1' }));
    expect(all.results).toHaveLength(3);
  });

  it('answers the API client, and refuses a bad limit with the field named', async () => {
    const client = new ServiceClient({ baseUrl: engine.url, apiKey: KEY });
    const listed = await client.listAnimations({ limit: 1 });
    expect(listed.results).toHaveLength(1);
    expect(listed.totalResults).toBeGreaterThanOrEqual(1);
    const bad = await call(engine, 'listAnimations', { query: 'limit=0' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('limit');
  });
});
