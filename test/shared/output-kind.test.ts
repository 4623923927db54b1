import { describe, expect, it } from 'vitest';
import { JOB_KINDS, jobOutputs, outputLabelOf } from '../../shared/kinds/index.ts';
import {
  downloadFormat,
  formatOutputKind,
  isAnimatedModel,
  isPicture,
  modelFormat,
  outputLabel,
  parseOutputKind,
  type OutputKind,
} from '../../shared/output-kind.ts';

/** Every shape of key the app stores, with the kind it names (the strings are the cache's keys: they never change). */
const KEYS: [string, OutputKind][] = [
  ['glb', { type: 'mesh', stage: 'final', format: 'glb' }],
  ['obj', { type: 'mesh', stage: 'final', format: 'obj' }],
  ['zip', { type: 'mesh', stage: 'final', format: 'zip' }],
  ['fbx', { type: 'mesh', stage: 'final', format: 'fbx' }],
  ['usdz', { type: 'mesh', stage: 'final', format: 'usdz' }],
  ['preview_glb', { type: 'mesh', stage: 'preview', format: 'glb' }],
  ['preview_zip', { type: 'mesh', stage: 'preview', format: 'zip' }],
  ['polished_usdz', { type: 'mesh', stage: 'polished', format: 'usdz' }],
  ['mp4', { type: 'video' }],
  ['spin_0', { type: 'spin', index: 0 }],
  ['spin_3', { type: 'spin', index: 3 }],
  ['image', { type: 'image' }],
  ['mesh', { type: 'input-mesh' }],
  ['animation', { type: 'animation' }],
  ['render', { type: 'render' }],
  ['thumbnail', { type: 'thumbnail' }],
  ['library:5f3c', { type: 'clip', source: 'library', id: '5f3c', format: 'model' }],
  ['library:Walk:glb', { type: 'clip', source: 'library', id: 'Walk:glb', format: 'model' }],
  ['prompt:abc123', { type: 'clip', source: 'prompt', id: 'abc123', format: 'model' }],
  ['prompt:abc123:usdz', { type: 'clip', source: 'prompt', id: 'abc123', format: 'usdz' }],
  ['retopo_obj', { type: 'retopology', file: 'obj', index: 0 }],
  ['retopo_obj_1', { type: 'retopology', file: 'obj', index: 1 }],
  ['retopo_obj_12', { type: 'retopology', file: 'obj', index: 12 }],
  ['retopo_image', { type: 'retopology', file: 'image', index: 0 }],
  ['retopo_image_2', { type: 'retopology', file: 'image', index: 2 }],
  ['retopo_obj:mesh.mtl', { type: 'obj-file', of: 'retopo_obj', name: 'mesh.mtl' }],
  ['retopo_obj_1:mesh_1.png', { type: 'obj-file', of: 'retopo_obj_1', name: 'mesh_1.png' }],
  ['obj:mesh.mtl', { type: 'obj-file', of: 'obj', name: 'mesh.mtl' }],
  ['preview_obj:mesh.png', { type: 'obj-file', of: 'preview_obj', name: 'mesh.png' }],
];

/** Keys this version does not make: never a crash, shown as they are. */
const UNKNOWN = [
  '',
  'GLB',
  'glbx',
  'notglb',
  'preview_',
  'preview_mp4',
  'polished_image',
  'spin_',
  'spin_01',
  'spin_x',
  'spin_-1',
  'retopo_obj_0',
  'retopo_obj_01',
  'retopo_obj:../x.mtl',
  'retopo_obj:a/b.png',
  'retopo_obj:.mtl',
  'retopo_image:x.png',
  'retopo_obj_0:x.mtl',
  'glb:x.mtl',
  'zip:mesh.mtl',
  'retopo_mesh',
  'library:',
  'prompt:',
  'prompt::usdz',
  ':x',
  'foo:bar',
  'rig',
  'animations',
  '__proto__',
  'toString',
  'constructor',
];

describe('output kinds', () => {
  it.each(KEYS)('%s parses to its kind and formats back to the same key', (key, kind) => {
    expect(parseOutputKind(key)).toEqual(kind);
    expect(formatOutputKind(kind)).toBe(key);
  });

  it.each(UNKNOWN)('an unknown key %j parses to undefined and is shown as it is', (key) => {
    expect(parseOutputKind(key)).toBeUndefined();
    expect(outputLabel(key)).toBe(key);
    expect(outputLabelOf(key, { kind: 'animation_session', result: null })).toBe(key);
    expect(modelFormat(parseOutputKind(key))).toBeUndefined();
    expect(isAnimatedModel(parseOutputKind(key))).toBe(false);
    expect(isPicture(parseOutputKind(key))).toBe(false);
  });

  it.each([
    ['glb', 'glb'],
    ['preview_glb', 'glb'],
    ['polished_usdz', 'usdz'],
    ['retopo_obj_1', 'obj'],
    ['retopo_obj_12', 'obj'],
    ['fbx', 'fbx'],
    ['prompt:abc123:usdz', 'usdz'],
  ])('%s holds a %s model', (key, format) => {
    expect(modelFormat(parseOutputKind(key))).toBe(format);
  });

  it.each(['library:Walk:glb', 'animation', 'prompt:abc123'])(
    '%s is an animated model whose format is never assumed: it is the one its file shows',
    (key) => {
      expect(modelFormat(parseOutputKind(key))).toBeUndefined();
      expect(modelFormat(parseOutputKind(key), 'fbx')).toBe('fbx');
      expect(modelFormat(parseOutputKind(key), 'glb')).toBe('glb');
    },
  );

  it.each(['zip', 'preview_zip', 'image', 'retopo_image_1', 'mp4', 'thumbnail', 'render', 'spin_0', 'mesh'])(
    '%s holds no model the viewer opens',
    (key) => {
      expect(modelFormat(parseOutputKind(key))).toBeUndefined();
    },
  );

  it('tells the animated models of a mesh-animation session apart from its other files', () => {
    for (const key of ['animation', 'library:5f3c', 'prompt:abc123'])
      expect(isAnimatedModel(parseOutputKind(key)), key).toBe(true);
    for (const key of ['prompt:abc123:usdz', 'render', 'mesh', 'glb', 'retopo_obj'])
      expect(isAnimatedModel(parseOutputKind(key)), key).toBe(false);
  });

  it('knows which outputs are pictures (for thumbnails)', () => {
    expect(KEYS.filter(([key]) => isPicture(parseOutputKind(key))).map(([key]) => key)).toEqual([
      'spin_0',
      'spin_3',
      'image',
      'render',
      'thumbnail',
      'retopo_image',
      'retopo_image_2',
    ]);
  });

  it('puts each output in its download group; the main results have none (always downloaded)', () => {
    const groups = Object.fromEntries(KEYS.map(([key, kind]) => [key, downloadFormat(kind) ?? null]));
    expect(groups).toMatchObject({
      glb: 'glb',
      zip: 'zip',
      polished_usdz: 'usdz',
      mp4: 'mp4',
      spin_0: 'image',
      image: 'image',
      render: 'image',
      mesh: null,
      animation: null,
    });
    expect(groups).toMatchObject({
      'library:5f3c': null,
      'prompt:abc123': null,
      'prompt:abc123:usdz': 'usdz',
      retopo_obj: null,
      retopo_image_2: 'image',
    });
  });

  it('names outputs for users: clips by their prompt text or library label, never by id when the name is known', () => {
    const result = {
      prompts: [{ _id: 'p1', text: 'walk forward' }],
      animation_library: [{ _id: 'l1', label: 'Jump' }, { label: 'Idle' }],
    };
    const job = { kind: 'animation_prompt', result };
    expect(outputLabelOf('prompt:p1', job)).toBe('Prompt: walk forward');
    expect(outputLabelOf('prompt:p1:usdz', job)).toBe('Prompt: walk forward (USDZ)');
    expect(outputLabelOf('prompt:p1:usdz', job, { format: false })).toBe('Prompt: walk forward');
    expect(outputLabelOf('library:l1', { kind: 'animation_session', result })).toBe('Library: Jump');
    expect(outputLabelOf('library:Idle', { kind: 'animation_session', result })).toBe('Library: Idle'); // no _id: keyed by its label
    expect(outputLabelOf('prompt:p2', job)).toBe('Prompt: p2'); // not in the result (yet): its id, rather than nothing
    expect(outputLabelOf('prompt:p1')).toBe('Prompt: p1');
    expect(outputLabelOf('animation', job)).toBe('Session animation (all clips)');
    expect(outputLabel('preview_glb')).toBe('Preview mesh (GLB)');
    expect(outputLabel('polished_obj', { format: false })).toBe('Refined mesh');
    expect(outputLabel('spin_2')).toBe('Spin view 3');
    expect(outputLabel('retopo_obj_1')).toBe('Retopologized mesh 2 (OBJ)');
    expect(outputLabelOf('glb', { kind: 'no_such_kind', result: 42 })).toBe('Mesh (GLB)');
  });

  it('every output of every job kind formats to a key that parses back to it', () => {
    const url = (name: string) => `https://files.example/${name}`;
    const mesh = (prefix: string) =>
      Object.fromEntries(
        ['', '_glb', '_obj', '_zip', '_fbx', '_usdz'].map((s) => [`${prefix}mesh_url${s}`, url(`${prefix}${s}`)]),
      );
    const results: Record<string, { step?: 'spin' | 'preview' | 'refine'; texts?: string[]; result: unknown }[]> = {
      image_to_3d: [{ result: { ...mesh(''), mp4_url: url('mp4') } }],
      image_to_3d_older: [
        {
          result: {
            inference: [0, 1, 2, 3].map((i) => ({ image_url: url(`spin${i}`) })),
            ...mesh('preview_'),
            ...mesh(''),
            ...mesh('polished_'),
          },
        },
      ],
      text_to_image: [{ result: { image_url: url('image') } }],
      style: [{ result: { style_id: 's1', status: 'training' } }],
      animation_session: [
        {
          result: {
            mesh_url: url('m'),
            animation_url: url('a'),
            render_url: url('r'),
            thumbnail: url('t'),
            animation_library: [
              { _id: 'l1', label: 'Walk', url: url('l1') },
              { label: 'Jump', url: url('l2') },
            ],
          },
        },
      ],
      animation_prompt: [
        {
          texts: ['walk'],
          result: {
            prompts: [
              { _id: 'p1', text: 'walk', mesh_url: url('p1'), usdz_url: url('p1u') },
              { _id: 'p2', text: 'run', mesh_url: url('p2'), usdz_url: '' },
            ],
          },
        },
      ],
      v3_session: [
        {
          result: {
            output: { meshes: [0, 1].map((i) => ({ data: { obj_url: url(`o${i}`), image_url: url(`i${i}`) } })) },
          },
        },
      ],
    };
    expect(Object.keys(results).sort()).toEqual([...JOB_KINDS].sort());
    const keys: Record<string, string[]> = {};
    for (const kind of JOB_KINDS) {
      for (const r of results[kind]!) {
        for (const output of jobOutputs({ kind, step: r.step ?? null, texts: r.texts ?? null, result: r.result })) {
          const key = formatOutputKind(output.kind);
          expect(parseOutputKind(key), key).toEqual(output.kind);
          expect(outputLabel(output.kind), key).not.toBe('');
          (keys[kind] ??= []).push(key);
        }
      }
    }
    // The keys themselves are what earlier versions stored: they must not change.
    expect(keys.image_to_3d).toEqual(['glb', 'glb', 'obj', 'zip', 'fbx', 'usdz', 'mp4']);
    expect(keys.image_to_3d_older).toEqual([
      'spin_0',
      'spin_1',
      'spin_2',
      'spin_3',
      ...['preview_', '', 'polished_'].flatMap((p) =>
        ['glb', 'glb', 'obj', 'zip', 'fbx', 'usdz'].map((f) => `${p}${f}`),
      ),
    ]);
    expect(keys.text_to_image).toEqual(['image']);
    expect(keys.style).toBeUndefined();
    expect(keys.animation_session).toEqual(['mesh', 'animation', 'render', 'thumbnail', 'library:l1', 'library:Jump']);
    expect(keys.animation_prompt).toEqual(['prompt:p1', 'prompt:p1:usdz']);
    expect(keys.v3_session).toEqual(['retopo_obj', 'retopo_image', 'retopo_obj_1', 'retopo_image_1']);
  });

  it('an odd result gives no outputs, never an error', () => {
    for (const kind of [...JOB_KINDS, 'no_such_kind']) {
      for (const result of [
        null,
        undefined,
        42,
        'text',
        [],
        [null],
        { prompts: 'x', animation_library: [1, null], output: { meshes: {} }, inference: 7 },
      ]) {
        expect(() => jobOutputs({ kind, step: null, texts: null, result })).not.toThrow();
        expect(jobOutputs({ kind, step: null, texts: null, result }).filter((o) => o.url !== '')).toEqual([]);
      }
    }
  });
});
