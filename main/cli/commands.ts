// The commands of `asset-studio`: one per endpoint of the contract, plus `engine` and `key`.
import type { ParseArgsOptionsConfig } from 'node:util';
import type { EndpointId } from '../../shared/contract/index.ts';
import type { CallArgs } from '../api/client.ts';
import { inspectFile } from '../files/inspect.ts';
import { imageArgument, parseNumber, parseNumberList, UsageError } from './values.ts';

export type Values = Record<string, string | boolean | string[] | undefined>;

export interface EndpointCommand {
  name: string;
  endpoint: EndpointId;
  /** Positional argument names for the usage line, `...` for a list. */
  args: string[];
  options: ParseArgsOptionsConfig;
  /** Can `--wait` follow the job this command starts? */
  waits: boolean;
  build(positionals: string[], values: Values): CallArgs | Promise<CallArgs>;
}

const str = (v: Values, k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);

/** Copies the options that were given into a request body. */
function fields(v: Values, map: Record<string, (text: string) => unknown>, flags: Record<string, string> = {}) {
  const out: Record<string, unknown> = {};
  for (const [option, convert] of Object.entries(map)) {
    const text = str(v, option);
    if (text !== undefined) out[option.replaceAll('-', '_')] = convert(text);
  }
  for (const [option, field] of Object.entries(flags)) if (v[option] === true) out[field] = true;
  return out;
}

const keep = (t: string) => t;
const triple = (option: string) => (t: string) => parseNumberList(option, t);

function need(positionals: string[], count: number, usage: string): string[] {
  if (positionals.length < count) throw new UsageError(`missing argument: ${usage}`);
  return positionals;
}

/** The create-3d options given on the command line (shared by create-3d and batch). */
export function imageOptionsFrom(v: Values): Record<string, unknown> {
  return fields(v, { 'geometry-model': keep, 'texture-model': keep, 'scaled-bbox': triple('scaled-bbox'), topology: keep, resolution: keep }, { 'preserve-aspect-ratio': 'preserve_aspect_ratio' });
}

const bboxOption = { 'scaled-bbox': { type: 'string' } } as const;
const pivotOption = { 'pivot-point': { type: 'string' } } as const;

export const ENDPOINT_COMMANDS: EndpointCommand[] = [
  {
    name: 'create-3d', endpoint: 'createImageTo3d', args: ['<image-url|file>'], waits: true,
    options: {
      'geometry-model': { type: 'string' }, 'texture-model': { type: 'string' }, ...bboxOption,
      'preserve-aspect-ratio': { type: 'boolean' }, topology: { type: 'string' }, resolution: { type: 'string' },
    },
    build: async (p, v) => ({ body: { image_url: await imageArgument(need(p, 1, '<image-url|file>')[0]!), ...imageOptionsFrom(v) } }),
  },
  {
    name: 'create-3d-legacy', endpoint: 'createImageTo3dLegacy', args: ['<image-url|file>'], waits: true,
    options: { 'model-version': { type: 'string' }, 'auto-gen-3d': { type: 'boolean' } },
    build: async (p, v) => ({
      body: { image_url: await imageArgument(need(p, 1, '<image-url|file>')[0]!), ...fields(v, { 'model-version': keep }, { 'auto-gen-3d': 'auto_gen_3d' }) },
    }),
  },
  {
    name: 'spin', endpoint: 'submitSpin', args: ['<session>', '<image-url|file>'], waits: true, options: {},
    build: async (p) => {
      const [session, image] = need(p, 2, '<session> <image-url|file>');
      return { body: { session_code: session, image_urls: [await imageArgument(image!)] } };
    },
  },
  {
    name: 'preview', endpoint: 'preview', args: ['<session>'], waits: true,
    options: { 'model-version': { type: 'string' }, 'spin-index': { type: 'string' }, 'spin-url': { type: 'string' }, ...bboxOption, ...pivotOption },
    build: (p, v) => {
      const body = fields(v, { 'model-version': keep, 'scaled-bbox': triple('scaled-bbox'), 'pivot-point': triple('pivot-point') });
      const index = str(v, 'spin-index');
      if (index !== undefined) body.selected_spin_index = parseNumber('spin-index', index);
      const spin = str(v, 'spin-url');
      if (spin !== undefined) body.selected_spin = spin;
      return { params: { session_code: need(p, 1, '<session>')[0]! }, body };
    },
  },
  {
    name: 'refine', endpoint: 'refine', args: ['<session>'], waits: true, options: { ...bboxOption, ...pivotOption },
    build: (p, v) => ({
      params: { session_code: need(p, 1, '<session>')[0]! },
      body: fields(v, { 'scaled-bbox': triple('scaled-bbox'), 'pivot-point': triple('pivot-point') }),
    }),
  },
  {
    name: 'get', endpoint: 'getImageTo3d', args: ['<session>'], waits: false, options: {},
    build: (p) => ({ params: { session_code: need(p, 1, '<session>')[0]! } }),
  },
  {
    name: 'list', endpoint: 'listImageTo3d', args: [], waits: false, options: { limit: { type: 'string' }, page: { type: 'string' } },
    build: (_p, v) => ({ query: fields(v, { limit: keep, page: keep }) }),
  },
  {
    name: 'get-mesh', endpoint: 'getMesh', args: ['<session>'], waits: false, options: {},
    build: (p) => ({ params: { session_code: need(p, 1, '<session>')[0]! } }),
  },
  {
    name: 'text-to-image', endpoint: 'createTextToImage', args: ['<prompt>'], waits: true, options: { 'style-id': { type: 'string' } },
    build: (p, v) => ({ body: { prompt: need(p, 1, '<prompt>').join(' '), ...fields(v, { 'style-id': keep }) } }),
  },
  {
    name: 'get-image', endpoint: 'getTextToImage', args: ['<session>'], waits: false, options: {},
    build: (p) => ({ params: { session_code: need(p, 1, '<session>')[0]! } }),
  },
  {
    name: 'style', endpoint: 'createStyle', args: ['<zip-url>'], waits: false,
    options: { description: { type: 'string' }, public: { type: 'boolean' } },
    build: (p, v) => ({
      body: { zip_url: need(p, 1, '<zip-url>')[0], ...fields(v, { description: keep }, { public: 'is_public' }) },
    }),
  },
  {
    name: 'upload', endpoint: 'uploadAnimationMesh', args: ['<file.fbx|file.zip>'], waits: true, options: { url: { type: 'string' } },
    build: async (p, v) => {
      const url = str(v, 'url');
      if (url !== undefined) return { body: { mesh_url: url } };
      const file = need(p, 1, '<file.fbx|file.zip> (or --url URL)')[0]!;
      const inspected = await inspectFile(file);
      if (inspected.kind === 'image') throw new UsageError(`${file} is an image: animation needs an FBX file or a zip of FBX files. For a 3D model from an image use "create-3d".`);
      return { file };
    },
  },
  {
    name: 'animate-text', endpoint: 'submitTextAnimations', args: ['<session>', '<text>...'], waits: true, options: {},
    build: (p) => {
      const [session, ...texts] = need(p, 2, '<session> <text>...');
      return { body: { session_code: session, texts } };
    },
  },
  {
    name: 'get-animation', endpoint: 'getAnimation', args: ['<session>'], waits: false, options: {},
    build: (p) => ({ params: { session_code: need(p, 1, '<session>')[0]! } }),
  },
  {
    name: 'retopology', endpoint: 'createRetopology', args: ['<glb-url|ASSET_id>'], waits: true,
    options: { model: { type: 'string' }, 'no-quads': { type: 'boolean' } },
    build: (p, v) => {
      const input: Record<string, unknown> = { mesh: need(p, 1, '<glb-url|ASSET_id>')[0], ...fields(v, { model: keep }) };
      if (v['no-quads'] === true) input.quads = false;
      return { body: { type: 'retopology', input } };
    },
  },
  {
    name: 'get-v3', endpoint: 'getV3Session', args: ['<session>'], waits: false, options: {},
    build: (p) => ({ params: { session_id: need(p, 1, '<session>')[0]! } }),
  },
];
