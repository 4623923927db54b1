// The composition root: builds the services of the app from its settings. The CLI, the web host and
// the Electron shell all start here. With no service configured it uses the embedded local engine:
// started in this process, or, when another process of this data folder runs it, that one; when that process
// ends, the client finds the engine again (another living process's, or one started here: reconnectEngine).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ServiceClient } from '../api/client.ts';
import type { Logger } from '../api/redact.ts';
import type { ConnectionSettings } from '../config/data-dir.ts';
import { writeFileDurableSync } from '../durable/write-file.ts';
// The engine's entry loads light: the engine itself (Babylon included) is loaded only when it is started, so a
// process connected to a service never loads it.
import {
  LocalEngineBusyError,
  startLocalEngine,
  type LocalEngineOptions,
  type RunningLocalEngine,
} from '../engine/index.ts';
import { createDownloadHook } from '../cache/auto-download.ts';
import { defaultCacheDir, DownloadCache } from '../cache/download-cache.ts';
import type { OutputFormat } from '../cache/outputs.ts';
import { RequestBudget } from '../jobs/budget.ts';
import { cacheSettings, DEFAULT_FORMATS, outputFormatsSetting, webhookSettings } from './setting-schemas.ts';
import { DEFAULT_TIMING, scaleTiming, type PollTiming } from '../jobs/schedule.ts';
import { startWebhookReceiver, type RunningReceiver } from '../jobs/webhook-receiver.ts';
import { Submitter } from '../jobs/submit.ts';
import { JobTracker } from '../jobs/tracker.ts';
import { claimLeaseFromEnv } from '../jobs/read-claim.ts';
import { recoverLostSubmissions } from '../jobs/lost-submissions.ts';
import { databasePath, openDatabase, type Store } from '../store/database.ts';
import { openDataFolder, stderrNotice, type Notice } from '../store/data-folder.ts';
import { CacheFolderError } from '../cache/folder.ts';
import { ServiceHealthMonitor } from './service-health.ts';
import { addressOnClose, ownerStopped } from './engine-owner.ts';
import { serviceClientOptions } from './service-client.ts';
import { thumbnailsSettled } from './thumbnails.ts';

export interface Services {
  mode: 'service' | 'embedded';
  client: ServiceClient;
  store: Store;
  tracker: JobTracker;
  submitter: Submitter;
  /** Every output of a finished job lands here, verified, for offline review. */
  cache: DownloadCache;
  /** The formats of a finished job that are downloaded (settings; GLB always). */
  outputFormats: readonly OutputFormat[];
  /** Set when this process runs the embedded local engine. */
  localEngine?: RunningLocalEngine;
  /** Whether the service (or engine) answers; checking starts with `health.start()` (the app does, the CLI not). */
  health: ServiceHealthMonitor;
  /** Starts the webhook receiver when the settings enable it; returns its URL (undefined when off). */
  startWebhooks(): Promise<string | undefined>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Time factor of the embedded engine (1 = realistic durations). */
  engineSpeed?: number;
  /** Credits of each account of the embedded engine at its first request (default: the engine's, 1000). */
  engineCredits?: number;
  /** The embedded engine's animation files: `fbx` as the service delivers them (default: the engine's). */
  engineAnimationFiles?: 'glb' | 'fbx';
  logger?: Logger;
  timeouts?: { connectTimeoutMs?: number; headersTimeoutMs?: number; bodyTimeoutMs?: number };
  timing?: PollTiming;
  budget?: { maxConcurrent?: number; maxPerSecond?: number };
  /** Where one-line notices go (a folder made private, a cache folder not usable). Default: standard error. */
  notice?: Notice;
  /** How long the claim of a job's read lasts unrenewed (main/jobs/read-claim.ts); default: the environment's, else 30 s. */
  claimLeaseMs?: number;
  /** Time between reachability checks once `health.start()` is called (default 30 s). */
  healthIntervalMs?: number;
}

export const DEFAULT_LOCAL_ENGINE_SPEED = 10;
/** How long a command waits for the engine another process of the folder is starting (its lock, no address yet). */
const ENGINE_START_WAIT_MS = 30_000;
const ENGINE_POLL_MS = 100;

interface Connection {
  /** The data folder's embedded engine (this process's, or another's found through its address file). */
  embedded: boolean;
  baseUrl: string;
  legacyBaseUrl: string | undefined;
  apiKey: string;
  localEngine?: RunningLocalEngine;
}

export async function createServices(settings: ConnectionSettings, options: ServiceOptions = {}): Promise<Services> {
  // Every entry point opens the data folder first (main/store/data-folder.ts); so does this, for any other caller.
  openDataFolder(settings.dataDir, { notice: options.notice });
  const connection = await connect(settings, options);
  const speed = options.engineSpeed ?? DEFAULT_LOCAL_ENGINE_SPEED;
  let closed = false;
  const client = new ServiceClient({
    ...serviceClientOptions(options, connection),
    // The engine of another process of this data folder (a CLI command) ends with it: found again, or started here.
    ...(connection.embedded && {
      reconnect: async () => {
        if (closed) return undefined;
        const found = await reconnectEngine(settings, options, connection);
        if (closed)
          await connection.localEngine?.close(); // closed meanwhile: the engine it started goes too
        else configureEngineWebhooks();
        return closed ? undefined : found;
      },
    }),
  });
  const store = openDatabase(databasePath(settings.dataDir));
  // Creates whose sender died while they were on the wire become `submission_unknown` jobs (main/jobs/lost-submissions.ts).
  recoverLostSubmissions(store, { now: Date.now() });
  let receiver: RunningReceiver | undefined;
  const cacheConfig = store.settings.get('cache', cacheSettings) ?? {};
  const formats = store.settings.get('outputFormats', outputFormatsSetting) ?? DEFAULT_FORMATS;
  const cache = openCache(store, settings.dataDir, cacheConfig, options.notice ?? stderrNotice);
  const mode = connection.localEngine || settings.baseUrl === undefined ? 'embedded' : 'service';
  const tracker = new JobTracker({
    // Where the jobs it adds are made (a lost submission found after a crash keeps an unknown origin).
    origin: mode === 'embedded' ? 'local-engine' : 'service',
    onFinished: createDownloadHook(cache, store, { formats }),
    store,
    client,
    budget: new RequestBudget(options.budget),
    // Against the embedded engine, time runs `speed` times faster: so does polling.
    timing: options.timing ?? (settings.baseUrl === undefined ? scaleTiming(DEFAULT_TIMING, speed) : DEFAULT_TIMING),
    webhooks: () => receiver !== undefined,
    // A read's claim runs out this long after its reader stopped renewing it (default 30 s).
    claimLeaseMs: options.claimLeaseMs ?? claimLeaseFromEnv(process.env),
  });
  // The engine of this process is told where to send them; a real service is set up in its dashboard.
  const configureEngineWebhooks = () => {
    const config = store.settings.get('webhooks', webhookSettings);
    if (receiver && config?.enabled)
      connection.localEngine?.webhooks.configure({ url: receiver.url, secret: config.secret });
  };
  const submitter = new Submitter({ store, client, tracker });
  const health = new ServiceHealthMonitor({
    probe: (signal) => client.listImageTo3d({ page: 1, limit: 1 }, { signal, maxAttempts: 1 }),
    ...(options.healthIntervalMs !== undefined && { intervalMs: options.healthIntervalMs }),
  });
  return {
    mode,
    client,
    store,
    tracker,
    submitter,
    cache,
    outputFormats: formats,
    // The engine this process runs: from the start, or started when another process's engine it used ended.
    get localEngine() {
      return connection.localEngine;
    },
    health,
    async startWebhooks() {
      if (receiver) return receiver.url;
      const config = store.settings.get('webhooks', webhookSettings);
      if (!config?.enabled) return undefined;
      receiver = await startWebhookReceiver({
        store,
        host: config.host,
        port: config.port,
        path: config.path,
        secret: config.secret,
        onEvent: (event) => tracker.wake(event.sessionId, event.newStatus),
      });
      configureEngineWebhooks();
      return receiver.url;
    },
    close: async () => {
      closed = true;
      health.stop();
      await tracker.stop();
      await thumbnailsSettled(cache); // a render's worker is never stopped mid-render with the process
      await cache.close();
      await receiver?.close();
      await client.close();
      store.close();
      await connection.localEngine?.close();
    },
  };
}

/**
 * The download cache in the folder of the settings, or the default one (with a notice) when that folder
 * cannot be used now (e.g. a drive that is not mounted): the setting is kept for the next start.
 */
function openCache(
  store: Store,
  dataDir: string,
  config: { dir?: string | undefined; maxBytes?: number | undefined },
  notice: Notice,
): DownloadCache {
  const open = (dir: string) =>
    new DownloadCache({ store, dir, notice, ...(config.maxBytes && { maxBytes: config.maxBytes }) });
  if (config.dir === undefined) return open(defaultCacheDir(dataDir));
  try {
    return open(config.dir);
  } catch (error) {
    if (!(error instanceof CacheFolderError)) throw error;
    notice(`warning: ${error.message} Until then the default cache folder ${defaultCacheDir(dataDir)} is used.`);
    return open(defaultCacheDir(dataDir));
  }
}

function engineOptions(options: ServiceOptions): Omit<LocalEngineOptions, 'dataDir' | 'apiKey'> {
  return {
    speed: options.engineSpeed ?? DEFAULT_LOCAL_ENGINE_SPEED,
    ...(options.engineCredits !== undefined && { initialCredits: options.engineCredits }),
    ...(options.engineAnimationFiles !== undefined && { animationFiles: options.engineAnimationFiles }),
    // The engine's damaged records kept aside and salvaged: said where the process's notices go (a terminal's stderr).
    ...(options.notice !== undefined && { notice: options.notice }),
  };
}

async function connect(settings: ConnectionSettings, options: ServiceOptions): Promise<Connection> {
  if (settings.baseUrl !== undefined && settings.apiKey !== undefined) {
    return {
      embedded: false,
      baseUrl: settings.baseUrl,
      legacyBaseUrl: settings.legacyBaseUrl,
      apiKey: settings.apiKey,
    };
  }
  const found = await findOrStartEngine(settings, options);
  return { embedded: true, apiKey: localEngineKey(settings.dataDir), ...found };
}

/**
 * The data folder's engine: one started in this process, or, when another process of the folder runs it (the
 * app, `asset-studio engine`, a command started at the same moment), that one, by its address file; but when that
 * process is stopped and its engine does not answer at all (engine-owner.ts), one started here, borrowing the
 * folder. A lock whose holder has not published its address yet (it is starting its engine) is waited for, up to
 * ENGINE_START_WAIT_MS: the busy error only after that.
 */
async function findOrStartEngine(
  settings: ConnectionSettings,
  options: ServiceOptions,
): Promise<{ baseUrl: string; legacyBaseUrl: string; localEngine?: RunningLocalEngine }> {
  const started = async (fromStoppedOwner: boolean) => {
    const engine = await startDataFolderEngine(settings.dataDir, {
      ...engineOptions(options),
      ...(fromStoppedOwner && { fromStoppedOwner }),
    });
    return { baseUrl: engine.url, legacyBaseUrl: engine.legacyUrl, localEngine: engine };
  };
  const deadline = Date.now() + ENGINE_START_WAIT_MS;
  let borrow = false;
  for (;;) {
    try {
      return await started(borrow);
    } catch (error) {
      if (!(error instanceof LocalEngineBusyError)) throw error;
      const running = readEngineAddress(settings.dataDir);
      // The address of the lock's holder: its engine is up (an address another process left is not its).
      if (running && error.pid !== undefined && running.pid === error.pid) {
        if (!borrow && (await ownerStopped(running.url, error.pid))) {
          borrow = true; // take the folder from the stopped owner for this command
          continue;
        }
        return { baseUrl: running.url, legacyBaseUrl: running.legacyUrl };
      }
      borrow = false;
      if (Date.now() >= deadline) {
        if (running) return { baseUrl: running.url, legacyBaseUrl: running.legacyUrl };
        throw error;
      }
      await delay(ENGINE_POLL_MS); // its holder is starting its engine: its address comes soon
    }
  }
}

/**
 * The address of the data folder's engine when the one in use stopped answering: the engine another process
 * of the folder runs now (its address file), or, when no living process holds the folder's engine lock (the
 * CLI command that ran it exited), an engine started in this process on the same data folder (its jobs and
 * files are the folder's, so every job goes on). Undefined when this process runs the engine already.
 */
async function reconnectEngine(
  settings: ConnectionSettings,
  options: ServiceOptions,
  connection: Connection,
): Promise<{ baseUrl: string; legacyBaseUrl: string } | undefined> {
  if (connection.localEngine) return undefined;
  const found = await findOrStartEngine(settings, options).catch((error: unknown) => {
    if (error instanceof LocalEngineBusyError) return undefined; // busy, and its owner's address not written yet
    throw error;
  });
  if (found?.localEngine) connection.localEngine = found.localEngine;
  return found && { baseUrl: found.baseUrl, legacyBaseUrl: found.legacyBaseUrl };
}

/**
 * Starts the embedded engine of a data folder and publishes its address in the folder, so other
 * processes of the same folder (the CLI next to the app) use it instead of starting their own.
 */
export async function startDataFolderEngine(
  dataDir: string,
  options: Omit<LocalEngineOptions, 'dataDir' | 'apiKey'> = {},
): Promise<RunningLocalEngine> {
  const engine = await startLocalEngine({
    ...options,
    dataDir: join(dataDir, 'engine'),
    apiKey: localEngineKey(dataDir),
  });
  const address = engineAddressFile(dataDir);
  const leaveAddress = addressOnClose(address, options.fromStoppedOwner === true); // a borrowed folder's is put back
  writeFileDurableSync(address, JSON.stringify({ pid: process.pid, url: engine.url, legacyUrl: engine.legacyUrl })); // never read half written
  return {
    ...engine,
    close: async () => {
      leaveAddress();
      await engine.close();
    },
  };
}

function engineAddressFile(dataDir: string): string {
  return join(dataDir, 'engine', 'address.json');
}

function readEngineAddress(dataDir: string): { url: string; legacyUrl: string; pid: number | undefined } | undefined {
  try {
    const value = JSON.parse(readFileSync(engineAddressFile(dataDir), 'utf8')) as {
      url?: unknown;
      legacyUrl?: unknown;
      pid?: unknown;
    };
    return typeof value.url === 'string' && typeof value.legacyUrl === 'string'
      ? { url: value.url, legacyUrl: value.legacyUrl, pid: typeof value.pid === 'number' ? value.pid : undefined }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The key of the embedded engine: made once per data folder, readable by its owner only. */
export function localEngineKey(dataDir: string): string {
  const path = join(dataDir, 'engine-key');
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    const key = `local_${randomBytes(24).toString('hex')}`;
    try {
      writeFileDurableSync(path, key, { exclusive: true }); // 0600, complete or absent; never replaces another process's key
    } catch (error) {
      // Another process of the folder (a command started at the same moment) made it first: its key is the folder's.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
      throw error;
    }
    return key;
  }
}
