// The commands of `asset-studio` that call one endpoint of the contract: how each builds its request from
// the command line. Their arguments, options and help are in the command table (command-table.ts).
import { IMAGE_TO_3D_OPTIONS } from '../../shared/contract/image-to-3d-options.ts';
import type { EndpointId } from '../../shared/contract/index.ts';
import type { CallArgs } from '../api/client.ts';
import { findCommand, waitsFor } from './command-table.ts';
import { imageArgument, parseNumber, parseNumberList } from './values.ts';
import { UsageError } from './usage-error.ts';

export type Values = Record<string, string | boolean | string[] | undefined>;

type Build = (positionals: string[], values: Values) => CallArgs | Promise<CallArgs>;

export interface EndpointCommand {
  name: string;
  endpoint: EndpointId;
  /** Can `--wait` follow the job this command starts? */
  waits: boolean;
  build: Build;
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

/** The create-3d options given on the command line (shared by create-3d and batch), by the contract's table of them. */
export function imageOptionsFrom(v: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of IMAGE_TO_3D_OPTIONS) {
    if (o.kind === 'flag') {
      if (v[o.option] === true) out[o.field] = true;
      continue;
    }
    const text = str(v, o.option);
    if (text !== undefined) out[o.field] = o.kind === 'triple' ? parseNumberList(o.option, text) : text;
  }
  return out;
}

const session = (p: string[]) => ({ params: { session_code: need(p, 1, '<session>')[0]! } });
const decimal = (option: string) => (t: string) => parseNumber(option, t);

/** How each endpoint command builds its request from its arguments and options. */
const BUILDERS: Record<string, Build> = {
  'create-3d': async (p, v) => ({
    body: { image_url: await imageArgument(need(p, 1, '<image-url|file>')[0]!), ...imageOptionsFrom(v) },
  }),
  'create-3d-legacy': async (p, v) => ({
    body: {
      image_url: await imageArgument(need(p, 1, '<image-url|file>')[0]!),
      ...fields(v, { 'model-version': keep }, { 'auto-gen-3d': 'auto_gen_3d' }),
    },
  }),
  spin: async (p) => {
    const [code, image] = need(p, 2, '<session> <image-url|file>');
    return { body: { session_code: code, image_urls: [await imageArgument(image!)] } };
  },
  preview: (p, v) => {
    const body = fields(v, {
      'model-version': keep,
      'scaled-bbox': triple('scaled-bbox'),
      'pivot-point': triple('pivot-point'),
    });
    const index = str(v, 'spin-index');
    if (index !== undefined) body.selected_spin_index = parseNumber('spin-index', index);
    const spin = str(v, 'spin-url');
    if (spin !== undefined) body.selected_spin = spin;
    return { ...session(p), body };
  },
  refine: (p, v) => ({
    ...session(p),
    body: fields(v, { 'scaled-bbox': triple('scaled-bbox'), 'pivot-point': triple('pivot-point') }),
  }),
  get: session,
  list: (_p, v) => ({ query: fields(v, { limit: decimal('limit'), page: decimal('page') }) }),
  'get-mesh': session,
  'text-to-image': (p, v) => ({
    body: { prompt: need(p, 1, '<prompt>').join(' '), ...fields(v, { 'style-id': keep }) },
  }),
  'get-image': session,
  style: (p, v) => ({
    body: { zip_url: need(p, 1, '<zip-url>')[0], ...fields(v, { description: keep }, { public: 'is_public' }) },
  }),
  upload: async (p, v) => {
    const url = str(v, 'url');
    if (url !== undefined) return { body: { mesh_url: url } };
    const file = need(p, 1, '<file.fbx|file.zip> (or --url URL)')[0]!;
    const { inspectFile } = await import('../files/inspect.ts'); // an upload's check, loaded when a file is given
    const inspected = await inspectFile(file);
    if (inspected.kind === 'image')
      throw new UsageError(
        `${file} is an image: animation needs an FBX file or a zip of FBX files. For a 3D model from an image use "create-3d".`,
      );
    return { file };
  },
  'animate-text': (p) => {
    const [code, ...texts] = need(p, 2, '<session> <text>...');
    return { body: { session_code: code, texts } };
  },
  'get-animation': session,
  retopology: (p, v) => {
    const input: Record<string, unknown> = { mesh: need(p, 1, '<glb-url|ASSET_id>')[0], ...fields(v, { model: keep }) };
    if (v['no-quads'] === true) input.quads = false;
    return { body: { type: 'retopology', input } };
  },
  'get-v3': (p) => ({ params: { session_id: need(p, 1, '<session>')[0]! } }),
};

/** The endpoint command of this name (its endpoint from the command table), or undefined. */
export function endpointCommand(name: string): EndpointCommand | undefined {
  const spec = findCommand(name);
  const build = BUILDERS[name];
  if (!spec?.endpoint || !build) return undefined;
  return { name, endpoint: spec.endpoint, waits: waitsFor(spec), build };
}
