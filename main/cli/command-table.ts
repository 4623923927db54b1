// The one table of the commands of `asset-studio`: for each command its arguments, options (with the
// rules of numeric values), the global options that apply to it and an example. The parser of the
// command line, the general help and each command's `--help` are all derived from it.
import type { ParseArgsOptionsConfig } from 'node:util';
import { ENDPOINTS, type EndpointId } from '../../shared/contract/index.ts';
import { canFollow, kindOfCreate } from '../../shared/kinds/index.ts';
import { PREVIEW_MODEL_VERSIONS } from '../../shared/contract/image-to-3d.ts';
import { IMAGE_TO_3D_OPTIONS } from '../../shared/contract/image-to-3d-options.ts';
import { RETOPOLOGY_MODELS } from '../../shared/contract/v3.ts';
import { EXPORT_FORMATS, EXPORT_TARGETS, PIVOTS, UP_AXES } from '../../shared/export-options.ts';
import { PROFILE_NAMES } from '../../shared/target-profiles.ts';
import type { NumberRule } from './numbers.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** How the value is shown in help: `N`, `DIR`, `W,H,D`. */
  value?: string;
  text: string;
  /** The value is a number (or, with `list`, numbers separated by commas) written as a plain decimal. */
  number?: NumberRule;
  list?: boolean;
  /** The value is a local file or folder: when its name is not valid UTF-8 it is found by its bytes. */
  path?: boolean;
  short?: string;
}

export interface ArgSpec {
  /** As shown in the usage line: `<session>`, `<text>...`, `[OP]`. */
  name: string;
  text: string;
  /**
   * A local file or folder (unless it is an http(s) URL or a data URI): when its name is not valid UTF-8
   * it is found by its bytes. With `rest`, every remaining argument is one.
   */
  path?: boolean;
  rest?: boolean;
}

export type Group = 'Service commands' | 'Jobs' | 'Files' | 'Other';

export interface CommandSpec {
  name: string;
  group: Group;
  /** Endpoint commands take their summary from the contract. */
  summary?: string;
  endpoint?: EndpointId;
  args: ArgSpec[];
  options: Record<string, OptionSpec>;
  /** Global options that mean something for this command (besides --json and the connection ones). */
  globals?: GlobalOption[];
  /** Groups of options that exclude each other: at most one of each group may be given (else exit 2). */
  exclusive?: readonly (readonly string[])[];
  examples: string[];
}

const oneOf = (values: readonly string[]) => values.join('|');
const SECONDS: NumberRule = { min: 0, minExclusive: true, max: 2_147_483, unit: 'seconds' };
const PORT: NumberRule = { integer: true, min: 0, max: 65_535 };

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

const SESSION: ArgSpec = { name: '<session>', text: 'session code, e.g. SESSION_65b2…' };
const IMAGE: ArgSpec = {
  name: '<image-url|file>',
  text: 'an http(s) image URL, a data: URI, or a local PNG, JPEG or WebP file (checked, then sent inline)',
  path: true,
};
const JOB: ArgSpec = {
  name: '<job>',
  text: 'local job id (job_…), session code, or its name as the library shows it (exact, else the one name it starts, in any case)',
};

/** The paging of the service's lists (image-to-3D and mesh animation sessions). */
const LIST_OPTIONS: Record<string, OptionSpec> = {
  limit: {
    type: 'string',
    value: 'N',
    text: 'sessions per page, 1 to 100 (default 10)',
    number: { integer: true },
  },
  page: { type: 'string', value: 'N', text: 'page number, from 1', number: { integer: true } },
};

const PIVOT: Record<string, OptionSpec> = {
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
const BBOX: Record<string, OptionSpec> = { 'scaled-bbox': IMAGE_OPTIONS['scaled-bbox']! };

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'create-3d',
    group: 'Service commands',
    endpoint: 'createImageTo3d',
    args: [IMAGE],
    options: IMAGE_OPTIONS,
    examples: ['asset-studio create-3d chair.png --topology quads --wait'],
  },
  {
    name: 'create-3d-legacy',
    group: 'Service commands',
    endpoint: 'createImageTo3dLegacy',
    args: [IMAGE],
    options: {
      'model-version': { type: 'string', value: 'V', text: 'model version of the older variant' },
      'auto-gen-3d': { type: 'boolean', text: 'go on to the 3D steps without waiting for a choice of spin' },
    },
    examples: ['asset-studio create-3d-legacy https://example.com/chair.png --auto-gen-3d'],
  },
  {
    name: 'spin',
    group: 'Service commands',
    endpoint: 'submitSpin',
    args: [SESSION, { ...IMAGE, text: 'the image used for the spin: URL, data: URI or local file' }],
    options: {},
    examples: ['asset-studio spin SESSION_65b2… chair.png --wait'],
  },
  {
    name: 'preview',
    group: 'Service commands',
    endpoint: 'preview',
    args: [SESSION],
    options: {
      'model-version': { type: 'string', value: oneOf(PREVIEW_MODEL_VERSIONS), text: 'model version (default 1.1)' },
      'spin-index': {
        type: 'string',
        value: 'N',
        text: 'which of the four spin images to use, 0 to 3',
        number: { integer: true },
      },
      'spin-url': { type: 'string', value: 'URL', text: 'an image to use instead of the spin images' },
      ...BBOX,
      ...PIVOT,
    },
    examples: ['asset-studio preview SESSION_65b2… --spin-index 2 --wait'],
  },
  {
    name: 'refine',
    group: 'Service commands',
    endpoint: 'refine',
    args: [SESSION],
    options: { ...BBOX, ...PIVOT },
    examples: ['asset-studio refine SESSION_65b2… --scaled-bbox 1,-1,-1 --wait'],
  },
  {
    name: 'get',
    group: 'Service commands',
    endpoint: 'getImageTo3d',
    args: [SESSION],
    options: {},
    examples: ['asset-studio get SESSION_65b2… --json'],
  },
  {
    name: 'list',
    group: 'Service commands',
    endpoint: 'listImageTo3d',
    args: [],
    options: LIST_OPTIONS,
    examples: ['asset-studio list --limit 20 --page 2'],
  },
  {
    name: 'list-animations',
    group: 'Service commands',
    endpoint: 'listAnimations',
    args: [],
    options: LIST_OPTIONS,
    examples: ['asset-studio list-animations --limit 20'],
  },
  {
    name: 'get-mesh',
    group: 'Service commands',
    endpoint: 'getMesh',
    args: [SESSION],
    options: {},
    examples: ['asset-studio get-mesh SESSION_65b2…'],
  },
  {
    name: 'text-to-image',
    group: 'Service commands',
    endpoint: 'createTextToImage',
    args: [{ name: '<prompt>', text: 'what to draw; several words are joined with spaces' }],
    options: { 'style-id': { type: 'string', value: 'ID', text: 'a trained style' } },
    examples: ['asset-studio text-to-image a red lamp --wait'],
  },
  {
    name: 'get-image',
    group: 'Service commands',
    endpoint: 'getTextToImage',
    args: [SESSION],
    options: {},
    examples: ['asset-studio get-image SESSION_65b2…'],
  },
  {
    name: 'style',
    group: 'Service commands',
    endpoint: 'createStyle',
    args: [{ name: '<zip-url>', text: "URL of a zip of the style's example images" }],
    options: {
      description: { type: 'string', value: 'TEXT', text: 'what the style is' },
      public: { type: 'boolean', text: 'let others use it' },
    },
    examples: ['asset-studio style https://example.com/style.zip --description "ink sketches"'],
  },
  {
    name: 'upload',
    group: 'Service commands',
    endpoint: 'uploadAnimationMesh',
    args: [
      {
        name: '<file.fbx|file.zip>',
        text: 'an FBX file or a zip of FBX files (checked first; progress on a terminal)',
        path: true,
      },
    ],
    options: { url: { type: 'string', value: 'URL', text: 'the mesh at this URL instead of a local file' } },
    examples: ['asset-studio upload character.fbx --wait'],
  },
  {
    name: 'animate-text',
    group: 'Service commands',
    endpoint: 'submitTextAnimations',
    args: [
      { name: '<session>', text: 'animation session code' },
      { name: '<text>...', text: 'one animation per prompt' },
    ],
    options: {},
    examples: ['asset-studio animate-text SESSION_65b2… "walk forward" "wave hello" --wait'],
  },
  {
    name: 'get-animation',
    group: 'Service commands',
    endpoint: 'getAnimation',
    args: [SESSION],
    options: {},
    examples: ['asset-studio get-animation SESSION_65b2…'],
  },
  {
    name: 'retopology',
    group: 'Service commands',
    endpoint: 'createRetopology',
    args: [{ name: '<glb-url|ASSET_id>', text: 'a GLB by URL, or an asset id of the service' }],
    options: {
      model: { type: 'string', value: oneOf(RETOPOLOGY_MODELS), text: 'remeshing model' },
      'no-quads': { type: 'boolean', text: 'triangles instead of quads' },
    },
    examples: ['asset-studio retopology https://example.com/chair.glb --model precision --wait'],
  },
  {
    name: 'get-v3',
    group: 'Service commands',
    endpoint: 'getV3Session',
    args: [SESSION],
    options: {},
    examples: ['asset-studio get-v3 0b9a…'],
  },
  {
    name: 'batch',
    group: 'Service commands',
    summary: 'Submit files and folders: images become image-to-3D jobs, FBX/zip animation uploads',
    args: [
      {
        name: '<file or folder>...',
        text: 'files, and folders walked for images, FBX and zip files',
        path: true,
        rest: true,
      },
    ],
    options: {
      ...IMAGE_OPTIONS,
      concurrency: {
        type: 'string',
        value: 'N',
        text: 'files sent at the same time',
        number: { integer: true, min: 1 },
      },
    },
    globals: ['wait', 'timeout'],
    examples: ['asset-studio batch ~/renders --topology quads --wait'],
  },
  {
    name: 'jobs',
    group: 'Jobs',
    summary: 'List the jobs of this app',
    args: [],
    options: {
      active: { type: 'boolean', text: 'only the jobs that have not ended' },
      limit: {
        type: 'string',
        value: 'N',
        text: 'at most N jobs, newest first (default 50)',
        number: { integer: true, min: 1 },
      },
    },
    examples: ['asset-studio jobs --active --json'],
  },
  {
    name: 'job',
    group: 'Jobs',
    summary: 'Show one job (local id or session code)',
    args: [JOB],
    options: {},
    examples: ['asset-studio job SESSION_65b2…'],
  },
  {
    name: 'wait',
    group: 'Jobs',
    summary: 'Wait until the given jobs end (progress bars on a terminal)',
    args: [{ ...JOB, name: '<job>...' }],
    options: {},
    globals: ['timeout'],
    examples: ['asset-studio wait job_a1c7… --timeout 600'],
  },
  {
    name: 'watch',
    group: 'Jobs',
    summary: 'Live view of all unfinished jobs until they end',
    args: [],
    options: {},
    globals: ['timeout'],
    examples: ['asset-studio watch'],
  },
  {
    name: 'cancel',
    group: 'Jobs',
    summary: 'Stop following a job here (the service offers no cancel: it may still finish there)',
    args: [JOB],
    options: {},
    examples: ['asset-studio cancel job_a1c7…'],
  },
  {
    name: 'retry',
    group: 'Jobs',
    summary: "Send a failed, cancelled or abandoned job's request again, as a new job",
    args: [JOB],
    options: {},
    globals: ['wait', 'timeout'],
    examples: ['asset-studio retry job_a1c7… --wait'],
  },
  {
    name: 'rename',
    group: 'Jobs',
    summary: 'Give a job the name the library shows ("" goes back to its input file name or prompt)',
    args: [JOB, { name: '<name>', text: 'the new name (at most 200 characters)' }],
    options: {},
    examples: ['asset-studio rename job_a1c7… "Hero barrel"'],
  },
  {
    name: 'delete',
    group: 'Jobs',
    summary: "Delete jobs from the library here, with their cached files (the service's copy stays)",
    args: [{ ...JOB, name: '<job>...' }],
    options: {},
    examples: ['asset-studio delete job_a1c7… job_b2d8…'],
  },
  {
    name: 'reconcile',
    group: 'Jobs',
    summary: 'Find creates whose answer was lost, at the service, or give them up',
    args: [{ name: '[OP]', text: 'one operation id (op_…); without it, every lost submission' }],
    options: {
      session: { type: 'string', value: 'CODE', text: 'the session you found at the service for OP' },
      abandon: { type: 'boolean', text: 'OP was never created: forget it' },
    },
    examples: ['asset-studio reconcile op_ab19… --session SESSION_65b2…'],
  },
  {
    name: 'pull',
    group: 'Files',
    summary: 'Download every output of a finished job into the local cache',
    args: [JOB],
    options: {},
    examples: ['asset-studio pull job_a1c7…'],
  },
  {
    name: 'cache',
    group: 'Files',
    summary: 'The local cache of outputs, which works offline: list, verify, evict',
    args: [
      {
        name: '[ls|verify|gc]',
        text: 'list the outputs (default), re-hash every file (damaged ones are removed), or evict the least recently used',
      },
    ],
    options: {},
    examples: ['asset-studio cache verify'],
  },
  {
    name: 'export',
    group: 'Files',
    summary: "Put a job's cached outputs into a game project (Unity, Unreal, Godot or a folder)",
    args: [JOB],
    options: {
      project: { type: 'string', value: 'DIR', path: true, text: 'the game project (required)' },
      engine: {
        type: 'string',
        value: oneOf(EXPORT_TARGETS),
        text: "the project's engine (found from the project when not given)",
      },
      format: {
        type: 'string',
        value: oneOf(EXPORT_FORMATS),
        text: 'the one mesh format written (default: Unity FBX, or GLB with glTFast/UnityGLTF; Unreal FBX; Godot and a folder GLB)',
      },
      clips: {
        type: 'string',
        value: 'A,B',
        text: 'an animated job: the clips exported, by prompt or library name, or `library`, `all` (default: its prompts)',
      },
      profile: {
        type: 'string',
        value: oneOf(PROFILE_NAMES),
        text: 'a target profile: LOD0 within its triangle budget, LODs as the engine imports them (Unity _LOD0.._LODn meshes, Unreal a LOD group, glTF MSFT_lod; Godot makes its own), maps resized to its largest size (default: the asset as it came)',
      },
      name: { type: 'string', value: 'N', text: 'name of the asset folder' },
      overwrite: { type: 'boolean', text: 'replace an earlier export of the same name' },
      'scale-height': {
        type: 'string',
        value: 'M',
        text: 'scale to this height in metres',
        number: { min: 0, minExclusive: true, unit: 'metres' },
      },
      'scale-largest': {
        type: 'string',
        value: 'M',
        text: 'scale so the largest side is this many metres',
        number: { min: 0, minExclusive: true, unit: 'metres' },
      },
      'scale-factor': {
        type: 'string',
        value: 'F',
        text: 'scale by this factor',
        number: { min: 0, minExclusive: true },
      },
      pivot: {
        type: 'string',
        value: oneOf([...PIVOTS, 'as-is']),
        text: "move the origin; default: bottom-center into a Unity, Unreal or Godot project (a static model with a GLB: the service's models have their origin at the centre of their box, half below the floor), as-is into a plain folder or for an animated character",
      },
      'up-axis': {
        type: 'string',
        value: oneOf(UP_AXES),
        text: "turn the model: z-to-y fixes a model made Z up; y-to-z is for a tool that does not convert (engines' importers already turn Y up into their own axes)",
      },
    },
    exclusive: [['scale-height', 'scale-largest', 'scale-factor']],
    examples: [
      'asset-studio export job_a1c7… --project ~/games/my-game --pivot bottom-center',
      'asset-studio export job_a1c7… --project ~/games/my-game --profile unity-mobile',
    ],
  },
  {
    name: 'check',
    group: 'Files',
    summary:
      "Check a job's model against a game engine's target profile: triangles, textures, texel density, size, pivot, axes, UVs, normals, names, bones",
    args: [JOB],
    options: {
      profile: {
        type: 'string',
        value: oneOf(PROFILE_NAMES),
        text: 'the target profile (default: the one chosen in Settings, else unity-desktop)',
      },
      height: {
        type: 'string',
        value: 'METRES',
        text: "record the model's real height first (kept for the job: the check and the export scale to it)",
        number: { min: 0, minExclusive: true, max: 10_000, unit: 'metres' },
      },
    },
    examples: ['asset-studio check job_a1c7… --profile unity-mobile --height 0.12'],
  },
  {
    name: 'doctor',
    group: 'Other',
    summary: 'Check the local database; a damaged one is kept aside and what can be read is salvaged into a new one',
    args: [],
    options: {},
    examples: ['asset-studio doctor'],
  },
  {
    name: 'engine',
    group: 'Other',
    summary: 'Start the embedded local engine and print its address',
    args: [],
    options: {
      port: { type: 'string', value: 'N', text: 'port of the service address (default: any free port)', number: PORT },
      'legacy-port': {
        type: 'string',
        value: 'N',
        text: 'port of the legacy address (default: any free port)',
        number: PORT,
      },
    },
    examples: ['asset-studio engine --port 8080'],
  },
  {
    name: 'key',
    group: 'Other',
    summary: 'The API key file: save the key read from standard input, remove it, or show whether one is configured',
    args: [
      {
        name: 'set|remove|status',
        text: 'save the key read from standard input (readable by you only; with --base-url or ASSET_STUDIO_BASE_URL, for that address only: it is never sent to another), delete it, or say whether a key is configured',
      },
    ],
    options: {},
    examples: ['asset-studio key set --base-url https://api.example.com < key.txt'],
  },
  {
    name: 'webhooks',
    group: 'Other',
    summary: "Receive the service's status notifications while jobs are followed: enable, disable, status",
    args: [
      {
        name: 'enable|disable|status',
        text: 'turn the receiver on (with the options below) or off, or show its settings',
      },
    ],
    options: {
      port: { type: 'string', value: 'N', text: 'port to listen on (default 8787; 0 for any free port)', number: PORT },
      host: { type: 'string', value: 'H', text: 'address to listen on' },
      path: { type: 'string', value: '/p', text: 'path of the receiver' },
      'secret-file': {
        type: 'string',
        value: 'FILE|-',
        path: true,
        text: 'read the signing secret (whsec_…) from FILE, or standard input with "-"',
      },
      secret: {
        type: 'string',
        value: 'whsec_…',
        text: 'the signing secret as an argument: visible to other users (ps), prefer --secret-file',
      },
    },
    examples: ['asset-studio webhooks enable --port 8787 --secret-file secret.txt'],
  },
];

export function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

export function summaryOf(command: CommandSpec): string {
  return command.summary ?? (command.endpoint ? ENDPOINTS[command.endpoint].summary : '');
}

/** Can `--wait` follow what `command` starts? When it starts a job whose kind can be read back (shared/kinds/). */
export function waitsFor(command: CommandSpec): boolean {
  const kind = command.endpoint === undefined ? undefined : kindOfCreate(command.endpoint);
  return kind !== undefined && canFollow(kind);
}

/** The global options that mean something for `command`, after its own options in its help. */
export function globalsOf(command: CommandSpec): GlobalOption[] {
  const mutating = command.endpoint !== undefined && ENDPOINTS[command.endpoint].mutating;
  const fromKind: GlobalOption[] = [
    ...(waitsFor(command) ? (['wait', 'timeout'] as const) : []),
    ...(mutating ? (['operation-id'] as const) : []),
  ];
  return [...new Set([...fromKind, ...(command.globals ?? []), 'json' as const])];
}

/** The options node:util parseArgs takes for `command`: the global options and its own. */
export function parseArgsOptions(command: CommandSpec | undefined): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = {};
  for (const [name, o] of Object.entries({ ...GLOBAL_OPTIONS, ...command?.options } as Record<string, OptionSpec>)) {
    config[name] = { type: o.type, ...(o.short !== undefined && { short: o.short }) };
  }
  return config;
}
