// Each request rule of the contract is enforced with a 400 whose message names the field.
import { describe, expect, it } from 'vitest';
import type { EndpointId } from '../../shared/contract/index.ts';
import { call, expectError, inputUrl, send, useTestEngine } from './helpers.ts';

const engine = useTestEngine();

const IMAGE = inputUrl('chair.png');
/** Requests that break one rule, by endpoint: [what is wrong, the body, what the 400's message names]. */
const RULES: Partial<Record<EndpointId, [string, unknown, string[]][]>> = {
  createImageTo3d: [
    ['missing image_url', {}, ['image_url: is required']],
    [
      'image data URI with a non-image MIME',
      { image_url: 'data:text/plain;base64,aGVsbG8=' },
      ['image_url', 'text/plain'],
    ],
    ['image_url not a URL', { image_url: 'chair.png' }, ['image_url', 'data URI']],
    ['scaled_bbox with 2 numbers', { image_url: IMAGE, scaled_bbox: [1, 2] }, ['scaled_bbox', 'exactly 3']],
    ['scaled_bbox with 0', { image_url: IMAGE, scaled_bbox: [1, 0, 1] }, ['scaled_bbox[1]', '-1 for automatic']],
    ['geometry_model enum', { image_url: IMAGE, geometry_model: 'fast' }, ['geometry_model', '"base", "turbo"']],
    ['texture_model enum', { image_url: IMAGE, texture_model: 'shiny' }, ['texture_model', '"none", "baked", "pbr"']],
    ['topology enum', { image_url: IMAGE, topology: 'ngons' }, ['topology', '"tris", "quads"']],
    ['resolution enum', { image_url: IMAGE, resolution: 'mid' }, ['resolution', '"low_poly", "high_poly"']],
    [
      'preserve_aspect_ratio type',
      { image_url: IMAGE, preserve_aspect_ratio: 'yes' },
      ['preserve_aspect_ratio', 'true or false'],
    ],
  ],
  createImageTo3dLegacy: [['legacy auto_gen_3d type', { image_url: IMAGE, auto_gen_3d: 1 }, ['auto_gen_3d']]],
  submitSpin: [
    ['spin with two images', { session_code: 'SESSION_x', image_urls: [IMAGE, IMAGE] }, ['image_urls', 'exactly one']],
    ['spin without a session code', { session_code: 'abc', image_urls: [IMAGE] }, ['session_code', 'SESSION_']],
  ],
  createTextToImage: [['text-to-image empty prompt', { prompt: '  ' }, ['prompt', 'must not be empty']]],
  createStyle: [
    ['style without description', { zip_url: 'https://x/s.zip' }, ['description: is required']],
    ['style zip_url not http', { zip_url: 'ftp://x/s.zip', description: 'ink' }, ['zip_url', 'http']],
  ],
  uploadAnimationMesh: [['upload mesh_url not a URL', { mesh_url: 'mesh.fbx' }, ['mesh_url']]],
  submitTextAnimations: [
    ['text-multi empty texts', { session_code: 'SESSION_x', texts: [] }, ['texts', 'at least one']],
    ['text-multi blank text', { session_code: 'SESSION_x', texts: ['walk', ' '] }, ['texts[1]', 'must not be empty']],
  ],
};
const CASES = Object.entries(RULES).flatMap(([id, cases]) =>
  cases.map(([name, json, mentions]) => [name, id as EndpointId, json, mentions] as const),
);

describe('request validation', () => {
  it.each(CASES)('%s', async (_name, id, json, mentions) => {
    expectError(await call(engine, id, { json }), 400, ...mentions);
  });

  it.each([
    ['pivot_point out of range', { pivot_point: [0, 0.6, 0] }, ['pivot_point[1]', 'between -0.5 and 0.5']],
    ['selected_spin_index above 3', { selected_spin_index: 4 }, ['selected_spin_index', '0, 1, 2 or 3']],
    ['selected_spin_index not whole', { selected_spin_index: 1.5 }, ['selected_spin_index', 'whole number']],
    ['model_version enum', { model_version: '2.0' }, ['model_version', '"1.0", "1.1", "1.2"']],
  ])('preview: %s', async (_name, json, mentions) => {
    expectError(await call(engine, 'preview', { params: { session_code: 'SESSION_x' }, json }), 400, ...mentions);
  });

  it('refine: pivot out of range', async () => {
    expectError(
      await call(engine, 'refine', { params: { session_code: 'SESSION_x' }, json: { pivot_point: [-0.7, 0, 0] } }),
      400,
      'pivot_point[0]',
    );
  });

  it('list: limit and page', async () => {
    expectError(await call(engine, 'listImageTo3d', { query: 'limit=0' }), 400, 'limit', 'at least 1');
    expectError(await call(engine, 'listImageTo3d', { query: 'page=abc' }), 400, 'page');
  });

  /** A good retopology input, whose rules the cases below break. */
  const SWIFT = { mesh: 'https://x/m.glb', model: 'swift' };
  it.each([
    [
      'type must be one the engine creates',
      { type: 'text_to_image', input: SWIFT },
      ['type', '"retopology", "image_to_3d", "image_to_kit", "multiview_to_3d"'],
    ],
    ['image_to_3d needs an image', { type: 'image_to_3d', input: SWIFT }, ['input.image', 'is required']],
    [
      'mesh must be a URL or ASSET_',
      { type: 'retopology', input: { ...SWIFT, mesh: 'm.glb' } },
      ['input.mesh', 'ASSET_'],
    ],
    ['model enum', { type: 'retopology', input: { ...SWIFT, model: 'fast' } }, ['input.model', '"swift", "precision"']],
    ['input required', { type: 'retopology' }, ['input']],
  ])('v3: %s (bare error object)', async (_name, json, mentions) => {
    const answer = await call(engine, 'createRetopology', { json });
    expectError(answer, 400, ...mentions);
    expect(answer.body).not.toHaveProperty('data');
  });

  it('an unknown asset id is a 400', async () => {
    const answer = await call(engine, 'createRetopology', {
      json: { type: 'retopology', input: { mesh: 'ASSET_nope', model: 'swift' } },
    });
    expectError(answer, 400, 'input.mesh', 'ASSET_nope');
  });

  it('an unknown style is a 400', async () => {
    expectError(
      await call(engine, 'createTextToImage', { json: { prompt: 'a cat', style_id: 'STYLE_nope' } }),
      400,
      'style_id',
      'STYLE_nope',
    );
  });

  it('rejected requests cost nothing and create nothing', async () => {
    const list = await call(engine, 'listImageTo3d');
    expect(list.body.data.totalResults).toBe(0);
    expect(list.body.data.credits).toBe(1000);
  });
});

describe('body types (415)', () => {
  const lamp = JSON.stringify({ prompt: 'a lamp' });

  it.each([
    ['text/plain', { 'content-type': 'text/plain;charset=UTF-8' }],
    ['form-encoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['JSON in another charset', { 'content-type': 'application/json; charset=iso-8859-1' }],
  ])('a JSON endpoint refuses a %s body with 415 in the envelope, naming application/json', async (_name, headers) => {
    const answer = await send(`${engine.url}/tti-sessions`, { body: lamp, headers });
    expectError(answer, 415, 'application/json');
    expect(answer.body).toMatchObject({ error: 'Unsupported Media Type', statusCode: 415, data: null });
    expect(answer.headers.get('accept-post')).toBe('application/json');
  });

  it('a body without a Content-Type is a 415 too; nothing is created', async () => {
    const answer = await send(`${engine.url}/image-to-3d-sessions`, {
      body: new TextEncoder().encode(JSON.stringify({ image_url: IMAGE })),
    });
    expectError(answer, 415, 'no Content-Type', 'application/json');
    const list = await call(engine, 'listImageTo3d');
    expect(list.body.data.totalResults).toBe(0);
  });

  it('/v3 answers 415 with the bare error object', async () => {
    const answer = await send(`${engine.url}/v3/sessions`, {
      body: JSON.stringify({ type: 'retopology', input: { mesh: 'https://x/m.glb', model: 'swift' } }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({
      error: 'Unsupported Media Type',
      message: expect.stringContaining('application/json'),
      statusCode: 415,
    });
  });

  it('the animation upload names both JSON and multipart/form-data', async () => {
    const answer = await send(`${engine.url}/mesh-animation/upload`, {
      body: 'mesh_url=https%3A%2F%2Fx%2Fa.fbx',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(answer, 415, 'application/json', 'multipart/form-data');
    expect(answer.headers.get('accept-post')).toBe('application/json, multipart/form-data');
  });

  it('the engine control endpoints take JSON only', async () => {
    expectError(
      await send(`${engine.url}/__engine/faults`, { body: '[]', headers: { 'content-type': 'text/plain' } }),
      415,
      'application/json',
    );
  });

  it('accepts application/json with a charset parameter in any case, and a POST without a body', async () => {
    const created = await send(`${engine.url}/tti-sessions`, {
      body: lamp,
      headers: { 'content-type': 'Application/JSON; Charset="UTF-8"' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const unknown = await send(`${engine.url}/image-to-3d-sessions/get-3d/refine/SESSION_000000000000000000000000`, {
      method: 'POST',
    });
    expectError(unknown, 404, 'not found');
  });
});
