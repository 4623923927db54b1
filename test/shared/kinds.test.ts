import { describe, expect, it } from 'vitest';
import { ENDPOINTS, pathParams, type EndpointDef, type EndpointId } from '../../shared/contract/index.ts';
import {
  canFollow,
  JOB_KINDS,
  jobDef,
  jobStatus,
  kindLabel,
  kindOfCreate,
  kindOfData,
  normaliseStatus,
  readEndpointOfCreate,
  refOfCreate,
  RESOURCE_KINDS,
  resourceDef,
  shortestDurations,
  type ResourceKind,
} from '../../shared/kinds/index.ts';

const ENDPOINT_IDS = Object.keys(ENDPOINTS) as EndpointId[];
const def = (id: EndpointId): EndpointDef => ENDPOINTS[id];

describe('the registry of kinds', () => {
  it('every create of the endpoint table starts a job of one kind; reads and lists start none', () => {
    for (const id of ENDPOINT_IDS) {
      if (def(id).mutating) expect(kindOfCreate(id), id).toBeDefined();
      else expect(kindOfCreate(id), id).toBeUndefined();
    }
  });

  it('each kind is declared once, with a label users can read', () => {
    expect(new Set(RESOURCE_KINDS).size).toBe(RESOURCE_KINDS.length);
    for (const kind of RESOURCE_KINDS) {
      expect(resourceDef(kind)?.kind).toBe(kind);
      expect(kindLabel(kind)).toMatch(/^[A-Z0-9]/);
    }
    expect(new Set(RESOURCE_KINDS.map(kindLabel)).size).toBe(RESOURCE_KINDS.length);
    expect(kindLabel('a_kind_of_a_newer_version')).toBe('a_kind_of_a_newer_version');
  });

  it('the job kinds are the ones the library lists', () => {
    expect(JOB_KINDS).toEqual([
      'image_to_3d',
      'image_to_3d_older',
      'text_to_image',
      'style',
      'animation_session',
      'animation_prompt',
      'v3_session',
    ]);
  });

  it('a job kind is read back with a GET of the table that takes its id as the one path parameter', () => {
    for (const kind of JOB_KINDS) {
      const read = jobDef(kind)!.read;
      if (read === undefined) continue;
      expect(def(read).method, kind).toBe('GET');
      expect(def(read).mutating, kind).toBe(false);
      expect(pathParams(def(read).path), kind).toHaveLength(1);
    }
    expect(JOB_KINDS.filter((k) => !canFollow(k))).toEqual(['style']); // the service offers no read of a style
    expect(canFollow('get3d_job')).toBe(false);
    expect(canFollow('no_such_kind')).toBe(false);
  });

  it('an endpoint answers with at most one kind of resource', () => {
    const claims = RESOURCE_KINDS.flatMap((k) => resourceDef(k)!.answers);
    expect(new Set(claims).size).toBe(claims.length);
    for (const e of claims) expect(ENDPOINTS[e], e).toBeDefined();
    // Everything has a kind to read its status with, but the two answers that carry no status.
    expect(ENDPOINT_IDS.filter((e) => kindOfData(e) === undefined)).toEqual(['submitSpin', 'submitTextAnimations']);
    expect(kindOfData('listAnimations')).toBe('animation_session');
    expect(kindOfData('preview')).toBe('get3d_job');
    expect(kindOfData('uploadAnimationMesh')).toBe('animation_upload');
    expect(kindOfData('getAnimation')).toBe('animation_session');
  });

  it('gives the job each create started, from its request and answer', () => {
    const cases: [EndpointId, { params?: Record<string, string>; body?: unknown }, unknown, object][] = [
      ['createImageTo3d', {}, { session_code: 'S1' }, { kind: 'image_to_3d', id: 'S1' }],
      [
        'createImageTo3dLegacy',
        { body: { auto_gen_3d: true } },
        { session_code: 'S2' },
        { kind: 'image_to_3d_older', id: 'S2', step: 'preview' },
      ],
      [
        'createImageTo3dLegacy',
        { body: {} },
        { session_code: 'S2' },
        { kind: 'image_to_3d_older', id: 'S2', step: 'spin' },
      ],
      ['submitSpin', { body: { session_code: 'S3' } }, {}, { kind: 'image_to_3d_older', id: 'S3', step: 'spin' }],
      ['preview', { params: { session_code: 'S4' } }, {}, { kind: 'image_to_3d_older', id: 'S4', step: 'preview' }],
      ['refine', { params: { session_code: 'S5' } }, {}, { kind: 'image_to_3d_older', id: 'S5', step: 'refine' }],
      ['createTextToImage', {}, { session_code: 'T1' }, { kind: 'text_to_image', id: 'T1' }],
      ['createStyle', {}, { style_id: 'ST1', status: 'training' }, { kind: 'style', id: 'ST1' }],
      ['uploadAnimationMesh', {}, { session_code: 'A1' }, { kind: 'animation_session', id: 'A1' }],
      [
        'submitTextAnimations',
        { body: { session_code: 'A1', texts: ['walk', 'run'] } },
        {
          responses: [
            { text: 'walk', isError: false },
            { text: 'run', isError: true },
          ],
        },
        { kind: 'animation_prompt', id: 'A1', texts: ['walk'] },
      ],
      [
        'submitTextAnimations',
        { body: { session_code: 'A1', texts: ['walk', 'run'] } },
        {},
        { kind: 'animation_prompt', id: 'A1', texts: ['walk', 'run'] },
      ],
      ['createRetopology', {}, { _id: 'V1' }, { kind: 'v3_session', id: 'V1' }],
    ];
    for (const [endpoint, call, data, ref] of cases) expect(refOfCreate(endpoint, call, data), endpoint).toEqual(ref);
    expect(refOfCreate('getImageTo3d', {}, {})).toBeUndefined();
    // A lost answer (no data at all) still says which kind of job it was.
    expect(refOfCreate('createStyle', {}, null)?.kind).toBe('style');
    expect(refOfCreate('createRetopology', {}, undefined)?.kind).toBe('v3_session');
  });

  it('the CLI shows a followed create as its kind reads it back', () => {
    expect(readEndpointOfCreate('createImageTo3d')).toBe('getImageTo3d');
    expect(readEndpointOfCreate('preview')).toBe('getMesh');
    expect(readEndpointOfCreate('submitTextAnimations')).toBe('getAnimation');
    expect(readEndpointOfCreate('createRetopology')).toBe('getV3Session');
    expect(readEndpointOfCreate('createStyle')).toBeUndefined();
    expect(readEndpointOfCreate('getMesh')).toBeUndefined();
  });

  it('each followed kind declares how long it takes at least (the first read waits for most of it)', () => {
    expect(shortestDurations()).toEqual({
      image_to_3d: 30_000,
      'image_to_3d_older:spin': 10_000,
      'image_to_3d_older:preview': 20_000,
      'image_to_3d_older:refine': 45_000,
      text_to_image: 8_000,
      style: 60_000,
      animation_session: 30_000,
      animation_prompt: 25_000,
      v3_session: 4 * 60_000,
    });
  });

  it('reads a job status from its resource by its kind', () => {
    expect(jobStatus({ kind: 'image_to_3d', id: 'S' }, { session_status: 'in_progress', percent_done: 40 })).toEqual({
      state: 'running',
      raw: 'in_progress',
      percent: 40,
      final: false,
    });
    expect(
      jobStatus({ kind: 'image_to_3d_older', id: 'S', step: 'spin' }, [{ status: 'spin_generate_done' }]).final,
    ).toBe(true);
    expect(jobStatus({ kind: 'image_to_3d_older', id: 'S', step: 'preview' }, [])).toMatchObject({
      state: 'unknown',
      raw: 'unknown',
    });
    const prompts = [
      { text: 'walk', status: 'text_done' },
      { text: 'run', status: 'text_processing' },
    ];
    expect(jobStatus({ kind: 'animation_prompt', id: 'A', texts: ['walk'] }, { prompts })).toMatchObject({
      state: 'succeeded',
      percent: 100,
    });
    expect(jobStatus({ kind: 'animation_prompt', id: 'A', texts: ['walk', 'run'] }, { prompts })).toMatchObject({
      state: 'running',
      percent: 50,
      final: false,
    });
    expect(jobStatus({ kind: 'style', id: 'ST' }, { status: 'trained' }).state).toBe('succeeded');
    expect(() => jobStatus({ kind: 'get3d_job', id: 'x' }, {})).toThrow(/not a job/);
  });

  it('a kind name this version does not know keeps its status unknown, never an error', () => {
    expect(normaliseStatus('from_a_newer_version' as ResourceKind, 'complete')).toEqual({
      state: 'unknown',
      raw: 'complete',
      final: false,
    });
    expect(normaliseStatus('from_a_newer_version' as ResourceKind, 'failed').state).toBe('failed');
  });
});
