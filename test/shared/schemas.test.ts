// Schema tests with the shapes shown in SERVICE_API.md: requests enforce every rule in words a user
// understands; responses accept unknown fields, keep unknown statuses, and name wrong-typed fields.
import { describe, expect, it } from 'vitest';
import {
  animationSession,
  createImageTo3dLegacyRequest,
  createImageTo3dRequest,
  createRetopologyRequest,
  createStyleRequest,
  createTextToImageRequest,
  envelope,
  get3dJobAck,
  imageTo3dList,
  imageTo3dSession,
  imageTo3dSessionOlder,
  JOINT_NAMES,
  meshAvailability,
  parseWith,
  previewRequest,
  refineRequest,
  retopologySession,
  submitSpinRequest,
  textMultiRequest,
  textMultiResult,
  textToImageSession,
  textToImageStyle,
  uploadResult,
  v3Session,
} from '../../shared/contract/index.ts';
import type * as z from 'zod';
import { fixture } from '../replay/replay-server.ts';

const T = '2026-11-21T10:00:00.000Z';
const PNG_URI = 'data:image/png;base64,iVBORw0KGgo=';

function issues(schema: z.ZodType, value: unknown) {
  const r = parseWith(schema, value);
  if (r.ok) throw new Error(`expected a rejection of ${JSON.stringify(value)}`);
  return r.issues;
}

describe('create image-to-3D request', () => {
  it('fills the defaults of the spec', () => {
    expect(createImageTo3dRequest.parse({ image_url: 'https://example.com/a.png' })).toEqual({
      image_url: 'https://example.com/a.png',
      geometry_model: 'base',
      texture_model: 'none',
      scaled_bbox: [-1, -1, -1],
      preserve_aspect_ratio: false,
      topology: 'tris',
      resolution: 'high_poly',
    });
  });

  it('accepts a data URI with an image MIME type', () => {
    expect(parseWith(createImageTo3dRequest, { image_url: PNG_URI }).ok).toBe(true);
  });

  it.each([
    [{}, 'image_url', /required/],
    [{ image_url: 'not a url' }, 'image_url', /http\(s\) URL or a base64 data URI/],
    [{ image_url: 'data:text/plain;base64,aGVsbG8=' }, 'image_url', /MIME type is text\/plain/],
    [{ image_url: 'ftp://x/a.png' }, 'image_url', /http\(s\) URL/],
    [{ image_url: PNG_URI, geometry_model: 'fast' }, 'geometry_model', /one of "base", "turbo"/],
    [{ image_url: PNG_URI, texture_model: 'rgb' }, 'texture_model', /"none", "baked", "pbr"/],
    [{ image_url: PNG_URI, topology: 'ngons' }, 'topology', /"tris", "quads"/],
    [{ image_url: PNG_URI, resolution: 'mid' }, 'resolution', /"low_poly", "high_poly"/],
    [{ image_url: PNG_URI, scaled_bbox: [1, 2] }, 'scaled_bbox', /exactly 3 numbers/],
    [{ image_url: PNG_URI, scaled_bbox: [1, 0, 2] }, 'scaled_bbox[1]', /above 0, or -1 for automatic \(got 0\)/],
    [{ image_url: PNG_URI, scaled_bbox: [1, -2, 2] }, 'scaled_bbox[1]', /-1 for automatic/],
    [{ image_url: PNG_URI, scaled_bbox: 'big' }, 'scaled_bbox', /list of 3 numbers/],
    [{ image_url: PNG_URI, preserve_aspect_ratio: 'yes' }, 'preserve_aspect_ratio', /true or false/],
  ])('rejects %j naming %s', (value, path, message) => {
    const found = issues(createImageTo3dRequest, value);
    expect(found).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('keeps -1 in some slots and sizes in others', () => {
    expect(createImageTo3dRequest.parse({ image_url: PNG_URI, scaled_bbox: [-1, 1.8, -1] }).scaled_bbox).toEqual([
      -1, 1.8, -1,
    ]);
  });
});

describe('older create, spin, preview and refine requests', () => {
  it('older create defaults', () => {
    expect(createImageTo3dLegacyRequest.parse({ image_url: PNG_URI })).toEqual({
      image_url: PNG_URI,
      model_version: '',
      auto_gen_3d: false,
    });
  });

  it('spin needs a session code and exactly one image', () => {
    expect(issues(submitSpinRequest, { session_code: 'abc', image_urls: [] })).toEqual([
      { path: 'session_code', message: expect.stringMatching(/SESSION_/) },
      { path: 'image_urls', message: expect.stringMatching(/exactly one image/) },
    ]);
    expect(
      submitSpinRequest.parse({ session_code: 'SESSION_1', image_urls: ['https://x/y.png'] }).image_urls,
    ).toHaveLength(1);
  });

  it('preview defaults and rules', () => {
    expect(previewRequest.parse({})).toEqual({ model_version: '1.1', selected_spin_index: 0, pivot_point: [0, 0, 0] });
    expect(previewRequest.parse(undefined)).toEqual({
      model_version: '1.1',
      selected_spin_index: 0,
      pivot_point: [0, 0, 0],
    });
    expect(issues(previewRequest, { selected_spin_index: 4 })).toContainEqual({
      path: 'selected_spin_index',
      message: expect.stringMatching(/0, 1, 2 or 3/),
    });
    expect(issues(previewRequest, { selected_spin_index: 1.5 })).toContainEqual({
      path: 'selected_spin_index',
      message: expect.stringMatching(/whole number/),
    });
    expect(issues(previewRequest, { model_version: '2.0' })).toContainEqual({
      path: 'model_version',
      message: expect.stringMatching(/"1.0", "1.1", "1.2"/),
    });
    expect(issues(previewRequest, { pivot_point: [0, -0.6, 0] })).toContainEqual({
      path: 'pivot_point[1]',
      message: 'must be between -0.5 and 0.5 (got -0.6)',
    });
    expect(previewRequest.parse({ pivot_point: [0.5, -0.5, 0] }).pivot_point).toEqual([0.5, -0.5, 0]);
  });

  it('refine accepts an empty object and checks its fields', () => {
    expect(refineRequest.parse({})).toEqual({});
    expect(issues(refineRequest, { pivot_point: [0, 0, 0.51] })[0]!.path).toBe('pivot_point[2]');
    expect(issues(refineRequest, { scaled_bbox: [1, 1, 1, 1] })[0]!.message).toMatch(/exactly 3 numbers/);
  });
});

describe('other requests', () => {
  it('text-to-image and styles', () => {
    expect(issues(createTextToImageRequest, { prompt: '   ' })).toContainEqual({
      path: 'prompt',
      message: expect.stringMatching(/must not be empty/),
    });
    expect(createTextToImageRequest.parse({ prompt: 'a red chair' })).toEqual({ prompt: 'a red chair' });
    expect(issues(createStyleRequest, { zip_url: 'x', description: '' }).map((i) => i.path)).toEqual([
      'zip_url',
      'description',
    ]);
  });

  it('text animations need non-empty texts', () => {
    expect(issues(textMultiRequest, { session_code: 'SESSION_1', texts: [] })).toContainEqual({
      path: 'texts',
      message: expect.stringMatching(/at least one/),
    });
    expect(issues(textMultiRequest, { session_code: 'SESSION_1', texts: ['walk', ' '] })).toContainEqual({
      path: 'texts[1]',
      message: expect.stringMatching(/must not be empty/),
    });
  });

  it('retopology: type, mesh reference, model and quads', () => {
    expect(createRetopologyRequest.parse({ type: 'retopology', input: { mesh: 'ASSET_abc' } })).toEqual({
      type: 'retopology',
      input: { mesh: 'ASSET_abc', model: 'swift', quads: true },
    });
    expect(issues(createRetopologyRequest, { type: 'image_to_3d', input: { mesh: 'ASSET_abc' } })).toContainEqual({
      path: 'type',
      message: 'must be "retopology"',
    });
    expect(issues(createRetopologyRequest, { type: 'retopology', input: { mesh: 'mesh.glb' } })).toContainEqual({
      path: 'input.mesh',
      message: expect.stringMatching(/URL of a GLB file or an asset id/),
    });
    expect(issues(createRetopologyRequest, { type: 'retopology', input: { mesh: 'ASSET_' } })[0]!.path).toBe(
      'input.mesh',
    );
    expect(
      issues(createRetopologyRequest, { type: 'retopology', input: { mesh: 'ASSET_1', model: 'fast' } }),
    ).toContainEqual({ path: 'input.model', message: 'must be one of "swift", "precision"' });
    expect(issues(createRetopologyRequest, { type: 'retopology' })).toContainEqual({
      path: 'input',
      message: 'is required',
    });
  });
});

const currentSession = {
  session_code: 'SESSION_abc',
  image_url: 'https://x/a.png',
  manual_segmentation: false,
  geometry_model: 'base',
  texture_model: 'none',
  topology: 'tris',
  resolution: 'high_poly',
  symmetry: 'auto',
  scaled_bbox: [-1, -1, -1],
  preserve_aspect_ratio: false,
  pivot_point: [0, 0, 0],
  mesh_url: '',
  mesh_url_obj: '',
  mesh_url_zip: '',
  mesh_url_glb: '',
  mesh_url_fbx: '',
  mesh_url_usdz: '',
  mp4_url: '',
  created_at: T,
  updated_at: T,
  session_status: 'queued',
  percent_done: 0,
};

/** An older-form session record, as the vendor's documentation shows one (test/replay/fixtures/image-to-3d-list.json). */
const olderSession = fixture('image-to-3d-list').data.results[0];

describe('responses', () => {
  it('parse the spec shapes inside the envelope', () => {
    const env = envelope(imageTo3dSession).parse({
      error: '',
      message: 'Created',
      statusCode: 201,
      data: currentSession,
    });
    expect(env.data.session_status).toBe('queued');
    expect(imageTo3dSessionOlder.parse(olderSession).inference[0]!.width).toBe(256);
    expect(
      imageTo3dList.parse({
        results: [olderSession],
        page: 1,
        skip: 0,
        limit: 10,
        totalPages: 1,
        totalResults: 1,
        credits: 90,
        image_to_3d_credits: 40,
      }).results,
    ).toHaveLength(1);
    expect(meshAvailability.parse({ status: 'preview_done', mesh_url_glb: 'https://x/m.glb' }).mesh_url).toBe('');
    expect(uploadResult.parse({ session_code: 'SESSION_a', mesh_url: '', status: 'init_processing' }).status).toBe(
      'init_processing',
    );
    expect(
      textMultiResult.parse({ responses: [{ text: 'walk', message: 'ok', isError: false }] }).responses[0]!.isError,
    ).toBe(false);
  });

  it('keep unknown extra fields and unknown status strings', () => {
    const parsed = imageTo3dSession.parse({ ...currentSession, session_status: 'quantum_state', brand_new_field: 42 });
    expect(parsed.session_status).toBe('quantum_state');
    expect((parsed as Record<string, unknown>).brand_new_field).toBe(42);
  });

  it('fail naming the field when a relied-on field has the wrong type', () => {
    expect(issues(imageTo3dSession, { ...currentSession, percent_done: '50' })).toContainEqual({
      path: 'percent_done',
      message: expect.stringMatching(/expected number/),
    });
    expect(
      issues(envelope(imageTo3dSession), {
        error: '',
        message: 'ok',
        statusCode: 200,
        data: { ...currentSession, session_status: 3 },
      })[0]!.path,
    ).toBe('data.session_status');
    expect(issues(imageTo3dSessionOlder, { ...olderSession, inference: [{ image_url: 7 }] })[0]!.path).toBe(
      'inference[0].image_url',
    );
  });

  it('decodes the JSON-encoded task_data of the get-3D acknowledgement', () => {
    const ack = get3dJobAck.parse({
      scenario: 'SESSION_a',
      unique_trial_key: 'k1',
      status: 'unprocessed',
      complete_job_data: {
        scenario: 'SESSION_a',
        job_priority: 'normal',
        username: '',
        call: 'preview',
        user_id: 'u',
        status: 'unprocessed',
        start_time: '1763719200.123',
        unique_trial_key: 'k1',
        task_data: '{"selected_spin_index":2,"model_version":"1.1"}',
        id: 'j1',
      },
    });
    expect(ack.complete_job_data?.task_data).toEqual({ selected_spin_index: 2, model_version: '1.1' });
    expect(
      issues(get3dJobAck, {
        scenario: 's',
        unique_trial_key: 'k',
        status: 'x',
        complete_job_data: { task_data: 'not json' },
      }),
    ).toContainEqual({
      path: 'complete_job_data.task_data',
      message: 'must be a JSON-encoded object',
    });
  });

  it('text-to-image session and style', () => {
    expect(
      textToImageSession.parse({
        _id: 'a',
        session_code: 'SESSION_t',
        style_id: '',
        prompt: 'p',
        guidance: 7.5,
        user_id: 'u',
        image_url: '',
        type: 'manual',
        status: 'in_progress',
        is_deleted: false,
        created_at: T,
        updated_at: T,
      }).status,
    ).toBe('in_progress');
    expect(
      textToImageStyle.parse({
        _id: 'a',
        description: 'd',
        user_id: 'u',
        style_id: 's',
        image_url: '',
        zip_url: 'https://x/z.zip',
        status: 'training',
        is_deleted: false,
        created_at: T,
        updated_at: T,
      }).is_public,
    ).toBe(false);
  });

  it('animation session with prompts, library and the 17 joints', () => {
    const joints = Object.fromEntries(JOINT_NAMES.map((n, i) => [n, [i, i * 2]]));
    const s = animationSession.parse({
      _id: 'a',
      session_code: 'SESSION_m',
      image_to_3d_session_code: '',
      render_url: 'https://x/r.png',
      mesh_url: '',
      thumbnail: '',
      animation_url: '',
      status: 'predefined_done',
      prompts: [
        {
          _id: 'p',
          session_code: 'SESSION_m',
          text: 'wave',
          mesh_url: '',
          usdz_url: '',
          status: 'text_done',
          created_at: T,
          updated_at: T,
        },
      ],
      animation_library: [{ label: 'Walk', url: 'https://x/w.glb', _id: 'l1' }],
      animation_joint_dict: joints,
      created_at: T,
      updated_at: T,
    });
    expect(Object.keys(s.animation_joint_dict)).toHaveLength(17);
    expect(issues(animationSession, { ...s, animation_joint_dict: { Pelvis: [1] } })[0]!.path).toBe(
      'animation_joint_dict.Pelvis',
    );
  });

  it('v3 retopology session', () => {
    const value = {
      _id: 'SESSION_v',
      user_id: 'u',
      status: 'incomplete',
      type: 'retopology',
      input: {
        mesh: { _id: 'ASSET_in', name: 'in.glb', status: 'complete', data: { glb_url: 'https://x/in.glb' } },
        model: 'swift',
        quads: true,
      },
      output: {
        meshes: [{ _id: 'ASSET_out', name: 'out', status: 'incomplete', data: { obj_url: '', image_url: '' } }],
      },
      created_at: T,
      updated_at: T,
    };
    expect(v3Session.parse(value).status).toBe('incomplete');
    expect(retopologySession.parse(value).output.meshes[0]!.data.obj_url).toBe('');
  });
});
