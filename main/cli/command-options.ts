// The options and arguments the command table's commands share: the global options, the connection's, the image-to-3D
// options (from the contract's table), the lists' paging, the box and the pivot.
import { IMAGE_TO_3D_OPTIONS } from '../../shared/contract/image-to-3d-options.ts';
import type { ArgSpec, OptionSpec } from './command-types.ts';
import type { NumberRule } from './numbers.ts';

export const oneOf = (values: readonly string[]) => values.join('|');
export const SECONDS: NumberRule = { min: 0, minExclusive: true, max: 2_147_483, unit: 'seconds' };
export const PORT: NumberRule = { integer: true, min: 0, max: 65_535 };

export const GLOBAL_OPTIONS = {
  'base-url': { type: 'string', value: 'URL', text: 'service address (ASSET_STUDIO_BASE_URL)' },
  'legacy-base-url': {
    type: 'string',
    value: 'URL',
    text: 'address of the older endpoint variants (ASSET_STUDIO_LEGACY_BASE_URL)',
  },
  'api-key-file': {
    type: 'string',
    value: 'FILE',
    path: true,
    text: 'read the API key from FILE, or from standard input with "-" (also ASSET_STUDIO_API_KEY, or the file written by "key set")',
  },
  'api-key': {
    type: 'string',
    value: 'KEY',
    text: 'API key as an argument: visible to other users (ps), prefer --api-key-file',
  },
  'data-dir': { type: 'string', value: 'DIR', text: 'data folder (ASSET_STUDIO_DATA_DIR)' },
  json: {
    type: 'boolean',
    text: 'the result as JSON on stdout, nothing else there; an error as {"error": {"code", "message", "exitCode"}}',
  },
  wait: { type: 'boolean', text: 'after a create, wait until the job ends (progress on stderr)' },
  timeout: {
    type: 'string',
    value: 'SECONDS',
    text: 'with --wait, wait and watch: give up waiting after this long (exit 4)',
    number: SECONDS,
  },
  'operation-id': {
    type: 'string',
    value: 'ID',
    text: 'with a create: replay the journaled operation ID instead of creating again',
  },
  'engine-speed': {
    type: 'string',
    value: 'N',
    text: 'time factor of the embedded engine (default 10)',
    number: { min: 0, minExclusive: true },
  },
  help: { type: 'boolean', short: 'h', text: 'show the help of a command' },
} as const satisfies Record<string, OptionSpec>;

export type GlobalOption = keyof typeof GLOBAL_OPTIONS;

/** Global options that are about where and how to connect; every command takes them. */
export const CONNECTION_OPTIONS: readonly GlobalOption[] = [
  'base-url',
  'legacy-base-url',
  'api-key-file',
  'api-key',
  'data-dir',
  'engine-speed',
];

export const SESSION: ArgSpec = { name: '<session>', text: 'session code, e.g. SESSION_65b2…' };
export const IMAGE: ArgSpec = {
  name: '<image-url|file>',
  text: 'an http(s) image URL, a data: URI, or a local PNG, JPEG or WebP file (checked, then sent inline)',
  path: true,
};
export const JOB: ArgSpec = {
  name: '<job>',
  text: 'local job id (job_…), session code, or its name as the library shows it (exact, else the one name it starts, in any case)',
};

/** The paging of the service's lists (image-to-3D and mesh animation sessions). */
export const LIST_OPTIONS: Record<string, OptionSpec> = {
  limit: {
    type: 'string',
    value: 'N',
    text: 'sessions per page, 1 to 100 (default 10)',
    number: { integer: true },
  },
  page: { type: 'string', value: 'N', text: 'page number, from 1', number: { integer: true } },
};

export const PIVOT: Record<string, OptionSpec> = {
  'pivot-point': {
    type: 'string',
    value: 'X,Y,Z',
    text: 'origin of the model in its box, each from -0.5 to 0.5',
    number: {},
    list: true,
  },
};

/** The create-3d options, also taken by batch for its images: from the contract's table of them. */
export const IMAGE_OPTIONS: Record<string, OptionSpec> = Object.fromEntries(
  IMAGE_TO_3D_OPTIONS.map((o): [string, OptionSpec] => {
    if (o.kind === 'choice') return [o.option, { type: 'string', value: oneOf(o.choices), text: o.text }];
    if (o.kind === 'triple')
      return [o.option, { type: 'string', value: o.value, text: o.text, number: {}, list: true }];
    return [o.option, { type: 'boolean', text: o.text }];
  }),
);

/** The box of preview and refine: the same option as create-3d's. */
export const BBOX: Record<string, OptionSpec> = { 'scaled-bbox': IMAGE_OPTIONS['scaled-bbox']! };
