// The embedded local engine: an HTTP server implementing the service API of SERVICE_API.md, so the app
// works offline and tests talk to a real server. Two listeners: the base address and the legacy one.
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { makeAuthenticator } from './auth.ts';
import type { EngineContext } from './context.ts';
import { FileStore, outputsIn } from './file-store.ts';
import { ANIMATION_FILES_ENV } from './sessions/animation.ts';
import { DEFAULT_INPUT_SETTINGS, InputReader, REMOTE_INPUTS_ENV, type InputSettings } from './inputs.ts';
import { RetopologyRunner } from './retopology/runner.ts';
import { Faults, parseFaultRules, type FaultController, type FaultRule } from './faults.ts';
import { userIdOf } from './ids.ts';
import { lockDataDir } from './lock.ts';
import { makeClock } from './progress.ts';
import { startNotifier, type Notifier, type WebhookTarget } from './notifier.ts';
import { createPipeline } from './pipeline.ts';
import type { Base, Handlers } from './router.ts';
import { animationHandlers } from './sessions/animation.ts';
import { imageTo3dHandlers } from './sessions/image-to-3d-api.ts';
import { v3Handlers } from './sessions/v3.ts';
import { textToImageHandlers } from './sessions/text-to-image.ts';
import { loadSigner } from './signing.ts';
import { openState } from './state.ts';
import { WorkPool } from './work/pool.ts';

export type { FaultController, FaultRule } from './faults.ts';

export interface LocalEngineOptions {
  /** The engine's state and files live here and survive a restart. One engine per folder at a time. */
  dataDir: string;
  /**
   * Take the folder from an engine whose process is stopped (SIGSTOP, Ctrl-Z), handing it back when this one
   * closes (lock.ts); only for a caller that found that engine not answering at all (main/app/engine-owner.ts).
   */
  fromStoppedOwner?: boolean;
  /** 0 = a free port (default). */
  port?: number;
  /** The legacy base address: the same host with a second port; 0 = a free port (default). */
  legacyPort?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The one accepted x-api-key value. */
  apiKey: string;
  /** Time factor: 1 = realistic durations, 100 = 100 times faster. Default 1. */
  speed?: number;
  /** Lifetime of signed output URLs; default 1 hour. */
  urlTtlMs?: number;
  /** Credits of each account at its first request; default 1000. */
  initialCredits?: number;
  /**
   * An image uploaded as a data URI is always stored and answered as a hosted (signed) URL, like the service
   * does. `recompressed` also re-encodes it first (metadata dropped, data compressed again): the same
   * picture in other bytes, as some services store uploads. Default `as-sent`.
   */
  uploadedImages?: 'as-sent' | 'recompressed';
  /**
   * The files of an uploaded character's animation (each prompt's `mesh_url`, the library's clips, the session's
   * `animation_url` and `mesh_url`): `fbx` as the service delivers them (default: the character's mesh, skin and
   * bones with each clip a take named after its prompt or label), or `glb` (ASSET_STUDIO_ENGINE_ANIMATION_FILES=glb
   * sets it). Fixed for a session when its files are made. A model this engine made is rigged on its figure: GLB.
   */
  animationFiles?: 'glb' | 'fbx';
  /**
   * How inputs given by URL are read: size cap (default 1 GiB), time limit (default 60 s), and whether hosts
   * other than this machine are read (default `allow`; ASSET_STUDIO_ENGINE_REMOTE_INPUTS=refuse refuses them).
   */
  inputs?: Partial<InputSettings>;
  /** Initial fault rules; the rules of ASSET_STUDIO_ENGINE_FAULTS (a JSON array) are added after them. */
  faults?: FaultRule[];
  /** Start-up lines and internal errors; with `logRequests`, one line per request too. */
  log?: (line: string) => void;
  /**
   * What the user must read (its records database found damaged, kept aside and salvaged): default `log` when
   * given, else standard error. Never silent: the engine's owner may have lost sessions.
   */
  notice?: (line: string) => void;
  /** Where to send webhooks on every status change (also settable at runtime: POST /__engine/webhook). */
  webhook?: WebhookTarget;
  /** How often unfinished sessions are checked for status changes while webhooks are on; default 50 ms. */
  webhookIntervalMs?: number;
  logRequests?: boolean;
  /**
   * Worker threads doing the engine's CPU work (output files, retopologies, uploaded characters) off this
   * process's event loop; default `defaultPoolSize()` (work/pool.ts: cores − 1, 1 to 4). 0 does the work on the
   * event loop, as before the pool (the bench's baseline).
   */
  workers?: number;
  /** Heap limit of each worker, MB (default 2048): work that needs more fails its session, not the engine. */
  workerMemoryMb?: number;
}

export interface RunningLocalEngine {
  url: string;
  legacyUrl: string;
  faults: FaultController;
  webhooks: Pick<Notifier, 'configure' | 'target' | 'sent'>;
  /** Every file URL handed out so far answers 403 (expired) from now on; later ones are valid. */
  expireFileLinks(): void;
  close(): Promise<void>;
}

export const FAULTS_ENV = 'ASSET_STUDIO_ENGINE_FAULTS';

export async function startLocalEngine(options: LocalEngineOptions): Promise<RunningLocalEngine> {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new RangeError(`speed must be a number above 0, got ${options.speed}`);
  if (options.apiKey === '') throw new RangeError('apiKey must not be empty');
  const faults = new Faults([...(options.faults ?? []), ...envFaultRules()]);

  const work = new WorkPool({
    ...(options.workers !== undefined && { size: options.workers }),
    ...(options.workerMemoryMb !== undefined && { maxOldGenerationSizeMb: options.workerMemoryMb }),
  });
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 }); // holds its signing secret: private, like every file in it
  const lock = await lockDataDir(options.dataDir, { fromStoppedOwner: options.fromStoppedOwner === true });
  const servers: Server[] = [];
  let stopNotifier: (() => Promise<void>) | undefined;
  let stopInputs: (() => Promise<void>) | undefined;
  let stopRetopologies: (() => Promise<void>) | undefined;
  let closeStore: (() => Promise<void>) | undefined;
  try {
    const log = options.log ?? (() => undefined);
    const notice = options.notice ?? options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
    const store = await openState(options.dataDir, { log, notice });
    closeStore = () => store.close();
    const signer = await loadSigner(options.dataDir);
    const files = new FileStore(join(options.dataDir, 'files'), signer, options.urlTtlMs ?? 3_600_000, work);
    files.register(outputsIn(store.state)); // outputs of sessions finished before a restart
    const inputs = new InputReader(files, inputSettings(options.inputs), (ref) => store.save(ref));
    stopInputs = () => inputs.close();
    const retopologies = new RetopologyRunner(files);
    stopRetopologies = () => retopologies.close();
    const services: EngineContext = {
      state: store.state,
      save: (...changed) => store.save(...changed),
      files,
      clock: makeClock(speed),
      initialCredits: options.initialCredits ?? 1000,
      uploadedImages: options.uploadedImages ?? 'as-sent',
      animationFiles:
        options.animationFiles ?? (process.env[ANIMATION_FILES_ENV] === 'glb' ? ('glb' as const) : ('fbx' as const)),
      inputs,
      retopologies,
      faults,
    };
    const handlers: Handlers = {
      ...imageTo3dHandlers(services),
      ...textToImageHandlers(services),
      ...animationHandlers(services),
      ...v3Handlers(services),
    };
    const notifier = startNotifier({ state: store.state, handlers, intervalMs: options.webhookIntervalMs ?? 50, log });
    notifier.configure(options.webhook);
    stopNotifier = () => notifier.stop();
    const answer = createPipeline({
      notifier,
      handlers,
      faults,
      files,
      signer,
      authenticate: makeAuthenticator(options.apiKey),
      userId: userIdOf(options.apiKey),
      log,
      logRequests: options.logRequests ?? false,
    });

    const listen = async (base: Base, port: number) => {
      const server = createServer((req, res) => {
        answer(base, req, res).catch((error: unknown) => {
          log(`internal error: ${String(error)}`);
          res.destroy();
        });
      });
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, options.host ?? '127.0.0.1', () => resolve());
      });
      const { address, port: bound } = server.address() as AddressInfo;
      return `http://${address.includes(':') ? `[${address}]` : address}:${bound}`;
    };
    const url = await listen('base', options.port ?? 0);
    const legacyUrl = await listen('legacy', options.legacyPort ?? 0);
    files.baseUrl = url;
    inputs.resume(store.state); // inputs being read when the engine stopped
    log(`engine listening at ${url} (legacy ${legacyUrl}), data in ${options.dataDir}, speed ${speed}`);

    let closing: Promise<void> | undefined;
    return {
      url,
      legacyUrl,
      faults,
      webhooks: notifier,
      expireFileLinks: () => files.expireIssuedLinks(),
      close: () =>
        (closing ??= (async () => {
          await notifier.stop();
          await inputs.close();
          await retopologies.close();
          await work.close(); // no work left running: what was under way fails, and nothing is written after
          await files.close();
          await closeServers(servers);
          await store.close();
          await lock.release();
        })()),
    };
  } catch (error) {
    await stopNotifier?.();
    await stopInputs?.();
    await stopRetopologies?.();
    await work.close();
    await closeServers(servers);
    await closeStore?.();
    await lock.release();
    throw error;
  }
}

function inputSettings(given: Partial<InputSettings> = {}): InputSettings {
  const env = process.env[REMOTE_INPUTS_ENV];
  if (env !== undefined && env !== '' && env !== 'allow' && env !== 'refuse') {
    throw new Error(`${REMOTE_INPUTS_ENV} must be "allow" or "refuse", got ${JSON.stringify(env)}`);
  }
  const settings: InputSettings = {
    ...DEFAULT_INPUT_SETTINGS,
    ...(env === 'allow' || env === 'refuse' ? { remoteHosts: env } : {}),
    ...given,
  };
  if (!(settings.maxBytes > 0) || !(settings.timeoutMs > 0))
    throw new RangeError('inputs.maxBytes and inputs.timeoutMs must be above 0');
  return settings;
}

function envFaultRules(): FaultRule[] {
  const text = process.env[FAULTS_ENV];
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${FAULTS_ENV} must hold a JSON array of fault rules: ${(error as Error).message}`);
  }
  return parseFaultRules(value, FAULTS_ENV);
}

async function closeServers(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}
