// The one table of the commands of `asset-studio`: for each command its arguments, options (with the
// rules of numeric values), the global options that apply to it and an example. The parser of the
// command line, the general help and each command's `--help` are all derived from it.
import type { ParseArgsOptionsConfig } from 'node:util';
import { ENDPOINTS } from '../../shared/contract/index.ts';
import { canFollow, kindOfCreate } from '../../shared/kinds/index.ts';
import { EXPORT_FORMATS, EXPORT_TARGETS, PIVOTS, UP_AXES } from '../../shared/export-options.ts';
import { PROFILE_NAMES } from '../../shared/target-profiles.ts';
import { GLOBAL_OPTIONS, type GlobalOption, JOB, oneOf, PORT } from './command-options.ts';
import type { CommandSpec, OptionSpec } from './command-types.ts';
import { SERVICE_COMMANDS } from './service-commands.ts';

export type { ArgSpec, CommandSpec, Group, OptionSpec } from './command-types.ts';
export { CONNECTION_OPTIONS, GLOBAL_OPTIONS, type GlobalOption, IMAGE_OPTIONS } from './command-options.ts';

export const COMMANDS: readonly CommandSpec[] = [
  ...SERVICE_COMMANDS,
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
