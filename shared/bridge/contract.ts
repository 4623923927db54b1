// The bridge between the UI (renderer) and the main process: one contract, two transports (Electron IPC
// and the local web host). Every command has an input and an output schema, every event a payload schema;
// main validates every input it receives. The API key crosses the bridge in one direction only (key.set):
// no output or event ever carries it.
import * as z from 'zod';
import { ENDPOINTS, type EndpointId } from '../contract/endpoints.ts';
import { textMultiRequest } from '../contract/animation.ts';
import { createImageTo3dRequest } from '../contract/image-to-3d.ts';
import { LIFECYCLE_STATES, OLDER_STEPS, RESOURCE_KINDS } from '../contract/lifecycle.ts';
import {
  EXPORT_TARGETS,
  exportClipsSchema,
  exportFormatSchema,
  gameReadyReportSchema,
  transformsSchema,
} from '../export-options.ts';
import { MODEL_FORMATS } from '../model-formats.ts';
import { GAME_READY_COMMANDS } from './game-ready.ts';
import { FILE_FORMATS } from '../file-format.ts';
import { profileEditSchema } from '../target-profiles.ts';
import {
  cacheMaxBytes,
  exportEngine,
  targetProfilesSetting,
  webhookPath,
  webhookPort,
  webhookSecret,
} from '../setting-fields.ts';

// ---- views of main's records (what the UI may see) --------------------------------------------

const jobViewBase = z.object({
  id: z.string(),
  kind: z.enum(RESOURCE_KINDS),
  remoteId: z.string().nullable(),
  step: z.enum(OLDER_STEPS).nullable(),
  /** A text-animation job's prompts (its clips are named by them); null for other kinds. */
  texts: z.array(z.string()).nullable(),
  label: z.string(),
  /** The name shown: the one the user gave it (jobs.rename), else the label (the input file name or prompt). */
  name: z.string().optional(),
  /** Where it was made: the embedded local engine (a procedural stand-in) or a service; null: unknown (older records). */
  origin: z.enum(['local-engine', 'service']).nullable(),
  state: z.union([z.enum(LIFECYCLE_STATES), z.literal('submission_unknown'), z.literal('cancelled')]),
  rawStatus: z.string(),
  percent: z.number().nullable(),
  final: z.boolean(),
  error: z.string().nullable(),
  operationId: z.string().nullable(),
  parentId: z.string().nullable(),
  /** The resource as last read from the service (its output URLs are signed and expire). */
  result: z.unknown(),
  createdAt: z.number(),
  updatedAt: z.number(),
  finishedAt: z.number().nullable(),
  outputsFetched: z.boolean(),
});
export const jobView = jobViewBase.extend({
  /** jobs.list: the URL of the job's cached picture; null: none cached yet (jobs.thumbnail makes one). */
  thumbnail: z.string().nullable().optional(),
  /** jobs.list grouped: the steps of an older-flow session, oldest first (this entry is its first). */
  steps: z.array(jobViewBase).optional(),
});
export type JobView = z.output<typeof jobView>;

export const cachedOutput = z.object({
  sessionId: z.string(),
  kind: z.string(),
  state: z.enum(['pending', 'partial', 'complete', 'failed']),
  size: z.number().nullable(),
  /** A URL the renderer can load (through the transport's own file route), when complete. */
  url: z.string().nullable(),
  error: z.string().nullable(),
  /** The file's format from its bytes and URL (shared/file-format.ts), when known: an animation's clips are FBX or GLB. */
  format: z.enum(FILE_FORMATS).optional(),
});
export type CachedOutput = z.output<typeof cachedOutput>;

/** A model file of the cache: its output, format, and the library job it belongs to (if any). */
export const cachedModel = z.object({
  sessionId: z.string(),
  kind: z.string(),
  format: z.enum(MODEL_FORMATS),
  url: z.string(),
  size: z.number().nullable(),
  jobId: z.string().nullable(),
  /** The job's label (or the session id) and the output kind, for a list. */
  label: z.string(),
});
export type CachedModel = z.output<typeof cachedModel>;

export const batchItemView = z.object({
  batchId: z.string(),
  index: z.number().int(),
  name: z.string(),
  state: z.enum(['inspecting', 'rejected', 'queued', 'uploading', 'submitted', 'failed', 'cancelled']),
  sent: z.number().optional(),
  total: z.number().optional(),
  jobId: z.string().optional(),
  /** The job of the animation prompts asked of an uploaded FBX/zip. */
  promptsJobId: z.string().optional(),
  error: z.string().optional(),
});
export type BatchItemView = z.output<typeof batchItemView>;

/** A batch as main keeps it (in the data folder, so it is shown again after a reload or a restart). */
export const batchView = z.object({
  batchId: z.string(),
  createdAt: z.number(),
  items: z.array(
    z.object({
      index: z.number().int(),
      name: z.string(),
      size: z.number().optional(),
      state: batchItemView.shape.state,
      jobId: z.string().optional(),
      /** The job of the animation prompts asked of an uploaded FBX/zip. */
      promptsJobId: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
  /** Files the app never got (the browser could not send them), with why. */
  notSent: z.array(z.object({ name: z.string(), size: z.number(), error: z.string() })),
  /** Set once every file has its final state. */
  finishedAt: z.number().optional(),
});
export type BatchView = z.output<typeof batchView>;

/** Files found at paths (folders walked) for the batch dialog to confirm: each with its name and size, and how many were left out. */
export const batchOffer = z.object({
  files: z.array(z.object({ path: z.string(), name: z.string(), size: z.number() })),
  skipped: z.number().int(),
});

/** What one create costs: credits (null when the service does not publish it) and where the figure comes from. */
export const costView = z.object({
  credits: z.number().nullable(),
  basis: z.string(),
  /** The balance is known not to pay for it (the service's list says it pays for none). */
  short: z.boolean().optional(),
});
export type CostView = z.output<typeof costView>;

/** The account's balance and the price of every create, by endpoint id. */
export const creditsView = z.object({
  /** Credits left; null when unknown (then `balanceError` says why). */
  balance: z.number().nullable(),
  balanceError: z.string().optional(),
  source: z.enum(['local-engine', 'service']),
  costs: z.record(z.string(), costView),
});
export type CreditsView = z.output<typeof creditsView>;

export const profileView = z.object({
  name: z.string(),
  /** Undefined: the embedded local engine. */
  baseUrl: z.string().optional(),
  legacyBaseUrl: z.string().optional(),
  /** Whether a key is stored, and where; never the key. */
  key: z.object({
    configured: z.boolean(),
    storage: z.enum(['os-keychain', 'session-only', 'file', 'environment', 'none']),
  }),
});
export type ProfileView = z.output<typeof profileView>;

export const settingsView = z.object({
  profiles: z.array(profileView),
  activeProfile: z.string(),
  webhooks: z.object({
    enabled: z.boolean(),
    host: z.string(),
    port: z.number(),
    path: z.string(),
    secretSet: z.boolean(),
  }),
  cache: z.object({ dir: z.string(), maxBytes: z.number(), usedBytes: z.number() }),
  export: z.object({ engine: exportEngine.optional(), projectDir: z.string().optional() }),
  outputFormats: z.array(z.string()),
  /** The target profile chosen by default (`none`: exports as they came; unset: none chosen) and the user's edits. */
  targetProfiles: z.object({
    defaultProfile: z.string().optional(),
    edits: z.record(z.string(), profileEditSchema),
  }),
});
export type SettingsView = z.output<typeof settingsView>;

/** Where the active connection comes from, in the order they win: flags > environment > saved profile > engine. */
export const CONNECTION_ORIGINS = ['flag', 'environment', 'profile', 'engine'] as const;
/** Where the API key comes from (never the key itself). */
export const KEY_SOURCES = ['argument', 'file', 'stdin', 'environment', 'profile', 'key-file', 'engine'] as const;

export const connectionView = z.object({
  origin: z.enum(CONNECTION_ORIGINS),
  mode: z.enum(['service', 'local-engine']),
  /** The service address (no user info, no query); undefined for the embedded engine. */
  address: z.string().optional(),
  /** The saved profile it comes from (origin `profile`), or the active profile it overrides. */
  profile: z.string().optional(),
  keySource: z.enum(KEY_SOURCES),
  /** What the user should know about it (e.g. a profile without a key here, so the engine is used). */
  note: z.string().optional(),
});
export type ConnectionView = z.output<typeof connectionView>;

/** Did the service (or the embedded engine) answer recently? Checked by main, pushed as the `service` event. */
export const serviceHealth = z.object({
  state: z.enum(['unknown', 'reachable', 'unreachable', 'failing']),
  /** Why it is unreachable or failing, in words. */
  reason: z.string().optional(),
  /** When it was last checked (ms since the epoch). */
  checkedAt: z.number().optional(),
});
export type ServiceHealth = z.output<typeof serviceHealth>;

export const appInfo = z.object({
  version: z.string(),
  mode: z.enum(['embedded', 'service']),
  transport: z.enum(['electron', 'web']),
  dataDir: z.string(),
  credits: z.number().optional(),
  connection: connectionView,
  service: serviceHealth,
});

// ---- inputs ------------------------------------------------------------------------------------

/** The orders of the library: newest or oldest first, name A-Z, kind, state. */
export const LIBRARY_SORTS = ['newest', 'oldest', 'name', 'kind', 'state'] as const;
/** The library's state filter: not ended yet, done, failed (cancelled included). */
export const LIBRARY_STATES = ['active', 'succeeded', 'failed'] as const;

const id = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);

/** A create of any endpoint that makes something, with the same body rules as the CLI and client. */
const MUTATING = Object.entries(ENDPOINTS)
  .filter(([, d]) => d.mutating)
  .map(([k]) => k) as [EndpointId, ...EndpointId[]];
export const createInput = z.object({
  endpoint: z.enum(MUTATING),
  params: z.record(z.string(), z.string()).optional(),
  /** Validated against the endpoint's request schema in main (errors name the field). */
  body: z.unknown().optional(),
  /** A local FBX/zip for the animation upload: a path (Electron) or an upload id (web host). */
  file: z.union([z.object({ path }), z.object({ uploadId: id })]).optional(),
  label: z.string().max(200).optional(),
  /** Chosen by the UI: makes the create idempotent (a repeat replays it) and lets jobs.cancel cut off its upload. */
  operationId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'letters, digits, _ and - only (at most 100)')
    .optional(),
});

/** What export.plan and export.run are asked: the job, the game project's folder and the export's options. */
const exportJobInput = z.object({
  jobId: id,
  projectDir: path,
  engine: z.enum(EXPORT_TARGETS).optional(),
  name: z.string().min(1).max(64).optional(),
  transforms: transformsSchema.optional(),
  /** The one mesh format written; the engine's default when omitted (Unity FBX or GLB with glTFast, Unreal FBX, Godot GLB). */
  format: exportFormatSchema.optional(),
  /**
   * An animation job's clips to put into its GLB, by output kind (`library:<id>`, `prompt:<id>`), id or name;
   * `library` every library clip, `all` every clip. Omitted: the user's prompts (every clip when the job has
   * none), the one default of the app, the CLI and the Blender add-on (main/export/from-job.ts defaultClips).
   */
  clips: exportClipsSchema.optional(),
  /** A target profile (shared/target-profiles.ts) whose fixes the export applies; omitted or `none`: as today. */
  profile: z.string().optional(),
});

// ---- the commands -------------------------------------------------------------------------------

export const COMMANDS = {
  'app.info': { input: z.object({}), output: appInfo },
  'jobs.list': {
    input: z.object({
      active: z.boolean().optional(),
      search: z.string().max(200).optional(),
      kinds: z.array(z.enum(RESOURCE_KINDS)).optional(),
      state: z.enum(LIBRARY_STATES).optional(),
      /** Created at or after / before (ms since the epoch). */
      since: z.number().int().optional(),
      until: z.number().int().optional(),
      sort: z.enum(LIBRARY_SORTS).default('newest'),
      /** One entry per older-flow session, its steps inside (`steps`). */
      group: z.boolean().optional(),
      limit: z.number().int().min(1).max(2000).default(200),
      offset: z.number().int().min(0).default(0),
    }),
    output: z.object({ jobs: z.array(jobView), total: z.number().int() }),
  },
  /** Names a library entry; null or blank: back to its label (the input file name or prompt). */
  'jobs.rename': { input: z.object({ id, name: z.string().max(400).nullable() }), output: jobView },
  /**
   * Deletes library entries here: their records (an older-flow entry: every step) and cached files. The
   * service's copies are left alone (`note` says so). Refused when one is still running.
   */
  'jobs.delete': {
    input: z.object({ ids: z.array(id).min(1).max(1000) }),
    output: z.object({ deleted: z.array(z.string()), files: z.number().int(), note: z.string() }),
  },
  /** The job's picture for the library: cached, or rendered now from its cached model and kept. `url` null: `reason` says why. */
  'jobs.thumbnail': {
    input: z.object({ id }),
    output: z.object({ url: z.string().nullable(), reason: z.string().nullable() }),
  },
  'jobs.get': { input: z.object({ id }), output: jobView },
  /**
   * Stops following a job here (the service offers no cancel). `id` may also be the operationId of a create
   * still sending its file: the upload is cut off (nothing is created) and the answer is null.
   */
  'jobs.cancel': { input: z.object({ id }), output: jobView.nullable() },
  /** Sends a failed or abandoned job's request again, as a new operation. */
  'jobs.retry': { input: z.object({ id }), output: jobView },
  'jobs.reconcile': {
    input: z.object({
      operationId: id.optional(),
      sessionCode: z.string().startsWith('SESSION_').optional(),
      abandon: z.boolean().optional(),
    }),
    output: z.object({
      results: z.array(
        z.object({
          operationId: z.string(),
          outcome: z.string(),
          candidates: z
            .array(z.object({ sessionCode: z.string(), createdAt: z.string(), status: z.string() }))
            .optional(),
        }),
      ),
    }),
  },
  /** The service's own list (image-to-3D sessions, newest first) with paging and credits. */
  'sessions.list': {
    input: z.object({ page: z.number().int().min(1).default(1), limit: z.number().int().min(1).max(100).default(20) }),
    output: z.object({
      results: z.array(z.record(z.string(), z.unknown())),
      page: z.number(),
      totalPages: z.number(),
      totalResults: z.number(),
      credits: z.number().optional(),
    }),
  },
  /** The balance and what each create costs (read from the service's list; the local engine's own prices). */
  'credits.get': { input: z.object({}), output: creditsView },
  create: {
    input: createInput,
    output: z.object({
      operationId: z.string(),
      job: jobView.optional(),
      status: z.enum(['created', 'replayed', 'reconciled']),
    }),
  },
  'batch.start': {
    input: z.object({
      files: z
        .array(z.union([z.object({ path }), z.object({ uploadId: id })]))
        .min(1)
        .max(10_000),
      /** Image-to-3D settings of the pictures (the image itself is each file). */
      imageOptions: createImageTo3dRequest.omit({ image_url: true }).partial().optional(),
      /** Animations asked of every FBX/zip once uploaded. */
      animationTexts: textMultiRequest.shape.texts.optional(),
      /** Files of the drop the browser could not send to the app: kept with the batch, with why. */
      notSent: z
        .array(z.object({ name: z.string().max(1000), size: z.number(), error: z.string().max(2000) }))
        .max(10_000)
        .optional(),
    }),
    output: z.object({ batchId: z.string() }),
  },
  /**
   * The batch dialog's check before its quote: each file inspected as batch.start will inspect it (its content,
   * sizes, zip contents), what it becomes or why it is refused. Nothing reaches the service.
   */
  'batch.check': {
    input: z.object({
      files: z
        .array(z.union([z.object({ path }), z.object({ uploadId: id })]))
        .min(1)
        .max(10_000),
    }),
    output: z.object({
      files: z.array(z.union([z.object({ kind: z.enum(['image', 'mesh']) }), z.object({ refused: z.string() })])),
    }),
  },
  'batch.cancel': { input: z.object({ batchId: id }), output: z.object({ cancelled: z.boolean() }) },
  /** The files of dropped folders (desktop app: a drop gives paths), for the batch dialog; nothing is sent. */
  'batch.expand': { input: z.object({ files: z.array(z.object({ path })).min(1).max(10_000) }), output: batchOffer },
  /** The batches kept in the data folder, newest first (one still running included). */
  'batch.list': { input: z.object({}), output: z.object({ batches: z.array(batchView) }) },
  /**
   * The states of a batch's jobs, in one read: each job still in the library with its state; a job left out
   * was deleted from the library (the queue counts it as removed).
   */
  'batch.jobs': {
    input: z.object({ ids: z.array(id).max(20_000) }),
    output: z.object({
      jobs: z.array(
        z.object({ id: z.string(), state: z.string(), final: z.boolean(), percent: z.number().nullable().optional() }),
      ),
    }),
  },
  /** Forgets finished batches (the queue's Clear finished); a running one is kept. */
  'batch.forget': {
    input: z.object({ batchIds: z.array(id).max(10_000) }),
    output: z.object({ forgotten: z.number().int() }),
  },
  'cache.outputs': { input: z.object({ sessionId: id }), output: z.object({ outputs: z.array(cachedOutput) }) },
  'cache.fetch': { input: z.object({ jobId: id }), output: z.object({ outputs: z.array(cachedOutput) }) },
  /** The files inside a complete cached zip output (e.g. `zip`: the OBJ, its MTL and texture), each with a URL that serves it. */
  'cache.entries': {
    input: z.object({ sessionId: id, kind: id }),
    output: z.object({ entries: z.array(z.object({ name: z.string(), size: z.number(), url: z.string() })) }),
  },
  /**
   * The original of a retopology job: the library job whose cached output is its input mesh (matched by URL
   * without the signature query), to compare with. `original` null: `reason` says why in words.
   */
  'jobs.original': {
    input: z.object({ id }),
    output: z.object({
      /** The input mesh as the job names it: a URL without its query string, or an `ASSET_` id; null when unknown. */
      mesh: z.string().nullable(),
      original: z.object({ jobId: z.string(), sessionId: z.string(), kind: z.string(), label: z.string() }).nullable(),
      /** The retopologized output of this job to compare (`retopo_obj`), null when it is not cached yet. */
      kind: z.string().nullable(),
      reason: z.string().nullable(),
    }),
  },
  /**
   * A model file of this computer (GLB, OBJ or FBX) as a URL the embedded local engine reads, for a retopology's
   * input mesh (the service takes a URL or an ASSET_ id only). Refused when connected to a remote service,
   * which cannot reach this computer.
   */
  'files.meshLink': {
    input: z.object({
      file: z.union([z.object({ path }), z.object({ uploadId: id })]),
      name: z.string().min(1).max(255),
    }),
    output: z.object({ url: z.string() }),
  },
  /** Every complete model file in the download cache (newest use first), for offline review in the viewer. */
  'cache.models': { input: z.object({}), output: z.object({ models: z.array(cachedModel) }) },
  'export.detect': {
    input: z.object({ projectDir: path }),
    /**
     * `dir`: the folder typed, resolved (`..` steps and links): where the export goes, shown before it is written.
     * `newFolder`: the folder does not exist yet; the export creates it (an ordinary answer, not an error).
     */
    output: z.object({
      engine: z.enum(EXPORT_TARGETS),
      root: z.string(),
      dir: z.string(),
      newFolder: z.boolean().optional(),
      /** Unity: the glTF package found in Packages/manifest.json (`glTFast`, `UnityGLTF`), null when none. */
      gltfPackage: z.string().nullable().optional(),
    }),
  },
  /**
   * What export.run would write for these options, before anything is written: the one mesh format (and why,
   * when not the engine's default), the files with their names, and those left out with the reason.
   */
  'export.plan': {
    input: exportJobInput,
    output: z.object({
      engine: z.enum(EXPORT_TARGETS),
      /** The asset folder written; `exists`: an earlier export is there (only overwrite replaces it). */
      targetDir: z.string(),
      exists: z.boolean(),
      format: exportFormatSchema.nullable(),
      note: z.string().optional(),
      /** `transformed`: made from the transformed model (an FBX or OBJ made again from the transformed GLB). */
      write: z.array(z.object({ name: z.string(), kind: z.string(), from: z.string(), transformed: z.boolean() })),
      skip: z.array(z.object({ name: z.string(), kind: z.string(), why: z.string() })),
      /** An animated model's clips: those the job has, those the GLB will hold, and those that cannot go in. */
      clips: z
        .object({
          available: z.array(z.object({ id: z.string(), name: z.string(), source: z.enum(['prompt', 'library']) })),
          written: z.array(z.string()),
          skipped: z.array(z.object({ name: z.string(), why: z.string() })),
        })
        .optional(),
      /** With a profile: the LODs (triangles, error), the texture sizes and what the export fixes. */
      gameReady: gameReadyReportSchema.optional(),
    }),
  },
  'export.run': {
    input: exportJobInput.extend({
      overwrite: z.boolean().optional(),
      /**
       * false: the export's engine and folder are not kept as the next export's (the Blender add-on exports an
       * animated job into its own download folder to import it). Default true.
       */
      remember: z.boolean().optional(),
    }),
    output: z.object({
      engine: z.string(),
      targetDir: z.string(),
      files: z.array(z.object({ path: z.string(), size: z.number() })),
      manifestPath: z.string(),
      /** An earlier export was replaced (overwrite); `kept`: its entries carried over (Unity .meta files, user files). */
      replaced: z.boolean(),
      kept: z.array(z.string()),
      /** An animated model's clips: the animations written (by name) and those that could not go in, with why. */
      clips: z
        .object({
          written: z.array(z.string()),
          skipped: z.array(z.object({ name: z.string(), why: z.string() })),
        })
        .optional(),
    }),
  },
  ...GAME_READY_COMMANDS,
  'settings.get': { input: z.object({}), output: settingsView },
  'settings.update': {
    input: z.object({
      profile: z
        .object({
          name: z.string().min(1).max(60),
          baseUrl: z.string().url().optional(),
          legacyBaseUrl: z.string().url().optional(),
        })
        .optional(),
      activeProfile: z.string().optional(),
      webhooks: z
        .object({
          enabled: z.boolean(),
          host: z.string().optional(),
          port: webhookPort.optional(),
          path: webhookPath.optional(),
          secret: webhookSecret.optional(),
        })
        .optional(),
      cache: z.object({ maxBytes: cacheMaxBytes.optional(), dir: path.optional() }).optional(),
      export: z.object({ engine: exportEngine.optional(), projectDir: path.optional() }).optional(),
      outputFormats: z.array(z.string()).optional(),
      /** Replaces the saved target profiles (default and edits), checked against each profile's rules. */
      targetProfiles: targetProfilesSetting.optional(),
    }),
    output: settingsView,
  },
  /** Stores the key of a profile (OS keychain; or for this session only). Write-only: never read back. */
  'key.set': {
    input: z.object({ profile: z.string(), key: z.string().min(8).max(4096), sessionOnly: z.boolean().default(false) }),
    output: profileView,
  },
  'key.remove': { input: z.object({ profile: z.string() }), output: profileView },
  /** Native dialogs (Electron only; the web host answers that the browser's own picker is to be used). */
  'dialog.openFiles': {
    input: z.object({ filters: z.array(z.string()).optional(), multiple: z.boolean().default(true) }),
    output: z.object({ paths: z.array(z.string()) }),
  },
  'dialog.chooseFolder': {
    input: z.object({ title: z.string().optional() }),
    output: z.object({ path: z.string().nullable() }),
  },
} as const;

export type CommandName = keyof typeof COMMANDS;
export type CommandInput<C extends CommandName> = z.input<(typeof COMMANDS)[C]['input']>;
export type CommandOutput<C extends CommandName> = z.output<(typeof COMMANDS)[C]['output']>;

// ---- events (main → UI) ---------------------------------------------------------------------

export const EVENTS = {
  job: jobView,
  'batch.item': batchItemView,
  /** Files chosen in a native dialog (folders walked), for the batch dialog to confirm: nothing is sent yet. */
  'batch.offer': batchOffer,
  'batch.done': z.object({
    batchId: z.string(),
    total: z.number(),
    submitted: z.number(),
    rejected: z.number(),
    failed: z.number(),
    cancelled: z.number(),
  }),
  'cache.progress': z.object({
    sessionId: z.string(),
    kind: z.string(),
    bytes: z.number(),
    total: z.number().nullable(),
  }),
  'cache.output': cachedOutput,
  /** A create's file being sent to the service (after the web host got it from the browser): bytes so far. */
  'create.upload': z.object({ operationId: z.string(), sent: z.number(), total: z.number() }),
  settings: settingsView,
  notice: z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  /** The service's (or embedded engine's) reachability changed. */
  service: serviceHealth,
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]>;

/** An error crossing the bridge: the message is for people (what happened, what to do). */
export const bridgeError = z.object({
  code: z.string(),
  message: z.string(),
  /** Field issues of a rejected input or request. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type BridgeError = z.output<typeof bridgeError>;

/** The one API the renderer sees, whatever the transport. */
export interface BridgeApi {
  call<C extends CommandName>(command: C, input: CommandInput<C>): Promise<CommandOutput<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
