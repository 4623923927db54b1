// The bridge service: every command of shared/bridge/contract.ts implemented over the Services, and the
// events of the tracker, batches and cache forwarded as bridge events. Both transports (Electron IPC in
// main/electron/, the web host in web-host.ts) call this one class; what only Electron can do (dialogs,
// the OS keychain) comes in through `platform`, so the class runs and is tested in plain Node.
// Every input is parsed with its command's schema first; every output, event and error is redacted with
// the keys the host knows, so no API key ever crosses the bridge.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { z } from 'zod';
import { COMMANDS, type CommandName, type CommandOutput, type ConnectionView, type EventName, type EventPayload, type SettingsView } from '../../shared/bridge/contract.ts';
import { describeIssues } from '../../shared/contract/issues.ts';
import type { EndpointId } from '../../shared/contract/index.ts';
import { redactSecrets } from '../api/redact.ts';
import { cacheSettings, DEFAULT_FORMATS, exportSettings, outputFormatsSetting, webhookSettings } from '../app/setting-schemas.ts';
import type { Services } from '../app/services.ts';
import { ConnectionError, connectionView, resolveConnection, savedProfile, type ConnectionSources, type ResolvedConnection } from '../app/connection.ts';
import { fetchJobOutputs } from '../cache/auto-download.ts';
import { findOriginal } from '../cache/original.ts';
import { cachedZipEntries, ZipEntryError } from '../cache/zip-entries.ts';
import { CacheFolderError, cacheOwnerId, claimCacheFolder } from '../cache/folder.ts';
import { ProfileStore, SessionKeyVault, type KeyVault, type Profile } from '../config/profiles.ts';
import type { ConnectionSettings } from '../config/data-dir.ts';
import { readKeyFile } from '../config/key-file.ts';
import { detectProject } from '../export/index.ts';
import { exportJob } from '../export/from-job.ts';
import { runBatch, type BatchItem } from '../files/batch.ts';
import { inspectFile, sha256File } from '../files/inspect.ts';
import { reconcileJournal } from '../jobs/reconcile.ts';
import { databasePath, openDatabase, type Store } from '../store/database.ts';
import type { JobRecord } from '../store/jobs.ts';
import { BridgeFailure, conflict, invalidInput, notFound, toBridgeError, unsupported } from './errors.ts';
import { ANIMATION_KIND, modelFormatOfKind } from '../../shared/model-formats.ts';
import { CANCELLED_STATUS, toCachedOutput, toJobView } from './views.ts';

export type FileRef = { path: string } | { uploadId: string };

export interface Dialogs {
  openFiles(options: { filters?: string[] | undefined; multiple: boolean }): Promise<string[]>;
  chooseFolder(options: { title?: string | undefined }): Promise<string | null>;
}

/** What differs between the transports. */
export interface HostPlatform {
  transport: 'electron' | 'web';
  /** Keys kept across launches; undefined where nothing keeps them safely (then session-only keys). */
  keyVault?: KeyVault | undefined;
  /** Native dialogs (Electron only). */
  dialogs?: Dialogs | undefined;
  /** The local path of a file a command names: Electron takes paths, the web host upload ids. */
  resolveFile(ref: FileRef): string;
  /** The URL the renderer loads a complete cached output from. */
  cacheUrl(sessionId: string, kind: string): string;
}

export interface BridgeServiceOptions {
  dataDir: string;
  platform: HostPlatform;
  /** Builds the services of a connection: `(c) => createServices(c, serviceOptions)`. */
  openServices(connection: ConnectionSettings): Promise<Services>;
  /**
   * The host's own flags and environment (ASSET_STUDIO_BASE_URL, ASSET_STUDIO_API_KEY...): they win over
   * the saved profile (main/app/connection.ts). None given: the saved profile, else the embedded engine.
   */
  connectionSources?: Pick<ConnectionSources, 'flags' | 'env'>;
}

type Input<C extends CommandName> = z.output<(typeof COMMANDS)[C]['input']>;
type Handlers = { [C in CommandName]: (input: Input<C>) => Promise<CommandOutput<C>> };

const APP_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const CANCEL_MESSAGE =
  'You stopped following this job in Asset Studio. The service offers no way to cancel it, so it may still finish there (and use credits): find it in the service list, or retry it here to start again.';
const PROGRESS_INTERVAL_MS = 100;


export class BridgeService {
  readonly dataDir: string;
  readonly #platform: HostPlatform;
  readonly #open: (connection: ConnectionSettings) => Promise<Services>;
  /** The host's own connection to the database, for the settings (Services come and go with profiles). */
  readonly #settingsDb: Store;
  readonly #profiles: ProfileStore;
  readonly #events = new EventEmitter();
  readonly #secrets = new Set<string>();
  readonly #batches = new Map<string, AbortController>();
  /** Creates still sending, by operation id: jobs.cancel cuts them off. */
  readonly #creates = new Map<string, AbortController>();
  readonly #lastProgress = new Map<string, number>();
  #services!: Services;
  #connection!: ResolvedConnection;
  readonly #sources: Pick<ConnectionSources, 'flags' | 'env'>;
  #detach: () => void = () => undefined;
  #lastNotice = '';
  readonly #handlers: Handlers;

  private constructor(options: BridgeServiceOptions) {
    this.dataDir = options.dataDir;
    this.#platform = options.platform;
    this.#open = options.openServices;
    this.#sources = options.connectionSources ?? {};
    this.#settingsDb = openDatabase(databasePath(options.dataDir));
    this.#profiles = new ProfileStore(this.#settingsDb.settings, { persistent: options.platform.keyVault, session: new SessionKeyVault() });
    this.#handlers = this.#makeHandlers();
  }

  /** Opens the services of the active profile (the embedded engine when its key is missing, with a notice). */
  static async open(options: BridgeServiceOptions): Promise<BridgeService> {
    const bridge = new BridgeService(options);
    try {
      await bridge.#rebuild();
    } catch (error) {
      bridge.#settingsDb.close();
      throw error;
    }
    return bridge;
  }

  get services(): Services {
    return this.#services;
  }

  /** Where the active connection comes from (never the key). */
  get connection(): ConnectionView {
    return connectionView(this.#connection);
  }

  /** The profiles (no keys): the Electron shell allows links to their service hosts. */
  profiles(): Profile[] {
    return this.#profiles.list();
  }

  /** Runs a command: the input is parsed first; a failure is thrown as a BridgeFailure (redacted). */
  async call(command: string, input: unknown): Promise<unknown> {
    try {
      if (!Object.hasOwn(COMMANDS, command)) {
        throw invalidInput('The command', [{ path: 'command', message: `"${command}" is not a command of Asset Studio (known: ${Object.keys(COMMANDS).join(', ')})` }]);
      }
      const name = command as CommandName;
      const parsed = COMMANDS[name].input.safeParse(input ?? {});
      if (!parsed.success) throw invalidInput(`The input of ${name}`, describeIssues(parsed.error));
      const handler = this.#handlers[name] as (input: unknown) => Promise<unknown>;
      return this.#redact(await handler(parsed.data));
    } catch (error) {
      throw new BridgeFailure(toBridgeError(error, this.#secretList()));
    }
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.#events.on(event, listener);
    return () => this.#events.off(event, listener);
  }

  /** Every event, for transports that forward them all (the web host's socket, Electron's webContents). */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void {
    this.#events.on('*', listener);
    return () => this.#events.off('*', listener);
  }

  async close(): Promise<void> {
    this.#abortAll();
    this.#detach();
    await this.#services.close();
    this.#settingsDb.close();
  }

  // ---- the commands -------------------------------------------------------------------------

  #makeHandlers(): Handlers {
    return {
      'app.info': async () => ({
        version: APP_VERSION,
        mode: this.#services.mode,
        transport: this.#platform.transport,
        dataDir: this.dataDir,
        connection: this.connection,
        service: this.#services.health.status,
      }),
      'jobs.list': async (i) => {
        const filter = { ...(i.active && { final: false }), ...(i.kinds && { kinds: i.kinds }), ...(i.search && { search: i.search }) };
        const jobs = this.#services.store.jobs;
        return { jobs: jobs.list({ ...filter, limit: i.limit, offset: i.offset }).map(toJobView), total: jobs.count(filter) };
      },
      'jobs.get': async (i) => toJobView(this.#job(i.id)),
      'jobs.cancel': async (i) => this.#cancel(i.id),
      'jobs.retry': async (i) => this.#retry(i.id),
      'jobs.reconcile': async (i) => this.#reconcile(i),
      'sessions.list': async (i) => {
        const { client, health } = this.#services;
        const data = await client.listImageTo3d({ page: i.page, limit: i.limit }).catch((error: unknown) => {
          health.record({ error });
          throw error;
        });
        health.record({ ok: true });
        const credits = data.credits ?? data.image_to_3d_credits;
        return { results: data.results as Record<string, unknown>[], page: data.page, totalPages: data.totalPages, totalResults: data.totalResults, ...(credits !== undefined && { credits }) };
      },
      create: async (i) => this.#create(i),
      'batch.start': async (i) => this.#startBatch(i.files.map((f) => this.#platform.resolveFile(f)), i.imageOptions),
      'batch.cancel': async (i) => {
        const batch = this.#batches.get(i.batchId);
        batch?.abort();
        return { cancelled: batch !== undefined };
      },
      'cache.outputs': async (i) => ({ outputs: this.#outputsOf(i.sessionId) }),
      'cache.models': async () => ({ models: this.#cachedModels() }),
      'cache.fetch': async (i) => {
        const job = this.#job(i.jobId);
        if (job.state !== 'succeeded' || job.remoteId === null) throw conflict(`"${job.label}" has no outputs to download: it is ${job.rawStatus || job.state}. Wait until it has succeeded.`);
        const { cache, store, tracker } = this.#services;
        await fetchJobOutputs(cache, store, job, () => tracker.refresh(job.id), this.#outputFormats());
        return { outputs: this.#outputsOf(job.remoteId) };
      },
      'cache.entries': async (i) => {
        try {
          const entries = await cachedZipEntries(this.#services.cache, i.sessionId, i.kind);
          const base = this.#platform.cacheUrl(i.sessionId, i.kind);
          return { entries: entries.map((e) => ({ ...e, url: `${base}/${e.name.split('/').map(encodeURIComponent).join('/')}` })) };
        } catch (error) {
          if (!(error instanceof ZipEntryError)) throw error;
          throw error.status === 404 ? notFound(error.message) : conflict(error.message);
        }
      },
      'jobs.original': async (i) => findOriginal(this.#services.store, this.#job(i.id)),
      'export.detect': async (i) => {
        const project = await detectProject(i.projectDir);
        return { engine: project.engine, root: project.root, ...(project.newFolder && { newFolder: true }) };
      },
      'export.run': async (i) => this.#export(i),
      'settings.get': async () => this.#settingsView(),
      'settings.update': async (i) => this.#updateSettings(i),
      'key.set': async (i) => {
        this.#secrets.add(i.key);
        this.#profiles.setKey(i.profile, i.key, i.sessionOnly);
        if (i.profile === this.#profiles.activeName()) await this.#rebuild();
        this.#emitSettings();
        return this.#profileView(i.profile);
      },
      'key.remove': async (i) => {
        this.#profiles.removeKey(i.profile);
        if (i.profile === this.#profiles.activeName() && this.#profiles.get(i.profile).baseUrl !== undefined) await this.#rebuild();
        this.#emitSettings();
        return this.#profileView(i.profile);
      },
      'dialog.openFiles': async (i) => ({ paths: await this.#dialogs().openFiles(i) }),
      'dialog.chooseFolder': async (i) => ({ path: await this.#dialogs().chooseFolder(i) }),
    };
  }

  #job(id: string): JobRecord {
    const store = this.#services.store;
    const job = store.jobs.get(id) ?? store.jobs.findByRemoteId(id);
    if (!job) throw notFound(`There is no job "${id}" in this app. It may belong to another profile or data folder; refresh the job list.`);
    return job;
  }

  async #create(i: Input<'create'>): Promise<CommandOutput<'create'>> {
    const file = i.file && this.#platform.resolveFile(i.file);
    const abort = new AbortController();
    const operationId = i.operationId ?? `op_${randomUUID()}`;
    if (this.#creates.has(operationId)) throw conflict(`The create ${operationId} is already being sent. Wait for its answer.`);
    this.#creates.set(operationId, abort);
    try {
      let fileHash: string | undefined;
      if (file !== undefined) {
        await inspectFile(file);
        fileHash = await sha256File(file, abort.signal);
      }
      const { submitter } = this.#services;
      const outcome = await submitter.submit(
        i.endpoint,
        {
          ...(i.params && { params: i.params }),
          ...(i.body !== undefined && { body: i.body }),
          ...(file !== undefined && {
            file,
            // Progress of sending the file to the service (a large FBX takes a while), a few times a second.
            onUploadProgress: (p: { sent: number; total: number }) => {
              if (this.#due(`create:${operationId}`, p.sent === p.total)) this.#emit('create.upload', { operationId, sent: p.sent, total: p.total });
            },
          }),
          signal: abort.signal,
        },
        { label: i.label ?? labelOf(i.endpoint, i.body, file), operationId, fileHash },
      );
      return { operationId: outcome.operationId, status: outcome.status, ...(outcome.job && { job: toJobView(outcome.job) }) };
    } finally {
      this.#creates.delete(operationId);
    }
  }

  #cancel(id: string): CommandOutput<'jobs.cancel'> {
    const sending = this.#creates.get(id);
    if (sending) {
      sending.abort();
      return null;
    }
    const job = this.#job(id);
    if (job.final) throw conflict(`"${job.label}" has already ended (${job.rawStatus || job.state}): there is nothing to cancel.`);
    const store = this.#services.store;
    const now = Date.now();
    store.jobs.updateStatus(job.id, { state: 'failed', rawStatus: CANCELLED_STATUS, final: true, error: CANCEL_MESSAGE, now });
    const stopped = store.jobs.schedule(job.id, null, now);
    this.#emit('job', toJobView(stopped));
    return toJobView(stopped);
  }

  async #retry(id: string): Promise<CommandOutput<'jobs.retry'>> {
    const job = this.#job(id);
    if (!job.final || job.state === 'succeeded') throw conflict(`"${job.label}" is ${job.rawStatus || job.state}: only a failed, cancelled or abandoned job can be retried.`);
    const entry = job.operationId === null ? undefined : this.#services.store.journal.get(job.operationId);
    if (!entry) throw conflict(`"${job.label}" has no recorded request to send again (it was found at the service, not created here). Create it again.`);
    if (entry.filePath !== null && !existsSync(entry.filePath)) {
      throw conflict(`The file of "${job.label}" (${basename(entry.filePath)}) is no longer there. Drop it again to create a new job.`);
    }
    const args = { params: entry.params, ...(entry.filePath === null ? { body: entry.body } : { file: entry.filePath }) };
    const outcome = await this.#services.submitter.submit(entry.endpoint, args, {
      label: job.label,
      parentId: job.parentId ?? undefined,
      fileHash: entry.fileHash ?? undefined,
    });
    if (!outcome.job) throw conflict(`The request of "${job.label}" was sent again (operation ${outcome.operationId}) but creates nothing that can be followed.`);
    return toJobView(outcome.job);
  }

  async #reconcile(i: Input<'jobs.reconcile'>): Promise<CommandOutput<'jobs.reconcile'>> {
    const { store, client, tracker } = this.#services;
    if (i.operationId !== undefined && !store.journal.get(i.operationId)) {
      throw notFound(`There is no recorded operation ${i.operationId}. Refresh the list of lost submissions.`);
    }
    const results = await reconcileJournal({ store, client, tracker }, i);
    for (const r of results) if (r.job) this.#emit('job', toJobView(r.job));
    return { results: results.map((r) => ({ operationId: r.operationId, outcome: r.outcome, ...(r.candidates && { candidates: r.candidates }) })) };
  }

  #startBatch(paths: string[], imageOptions: Record<string, unknown> | undefined): CommandOutput<'batch.start'> {
    const batchId = `batch_${randomUUID()}`;
    const abort = new AbortController();
    this.#batches.set(batchId, abort);
    const onItem = (item: Readonly<BatchItem>) => {
      if (item.state === 'uploading' && !this.#due(`${batchId}:${item.index}`, item.sent === item.total)) return;
      this.#emit('batch.item', {
        batchId, index: item.index, name: item.name, state: item.state,
        ...(item.sent !== undefined && { sent: item.sent }), ...(item.total !== undefined && { total: item.total }),
        ...(item.jobId !== undefined && { jobId: item.jobId }), ...(item.error !== undefined && { error: item.error.replaceAll(item.path, item.name) }), // not the temp path of an upload
      });
    };
    runBatch(paths, { submitter: this.#services.submitter, signal: abort.signal, onItem, ...(imageOptions && { imageOptions }) })
      .then(
        (s) => this.#emit('batch.done', { batchId, total: s.total, submitted: s.submitted, rejected: s.rejected, failed: s.failed, cancelled: s.cancelled }),
        (error) => this.#notice('error', `The batch could not run: ${toBridgeError(error, this.#secretList()).message}`),
      )
      .finally(() => this.#batches.delete(batchId));
    return { batchId };
  }

  #cachedModels(): CommandOutput<'cache.models'>['models'] {
    const { cache, store } = this.#services;
    const models: CommandOutput<'cache.models'>['models'] = [];
    for (const entry of cache.list().sort((a, b) => b.lastAccessAt - a.lastAccessAt)) {
      const format = modelFormatOfKind(entry.kind) ?? (ANIMATION_KIND.test(entry.kind) ? 'glb' : undefined);
      const view = toCachedOutput(entry, this.#platform.cacheUrl);
      if (format === undefined || view.state !== 'complete' || view.url === null) continue;
      const job = store.jobs.findByRemoteId(entry.sessionId);
      models.push({ sessionId: entry.sessionId, kind: entry.kind, format, url: view.url, size: view.size, jobId: job?.id ?? null, label: `${job?.label ?? entry.sessionId} · ${entry.kind}` });
    }
    return models;
  }

  #outputsOf(sessionId: string): CommandOutput<'cache.outputs'>['outputs'] {
    return this.#services.cache.list().filter((e) => e.sessionId === sessionId).map((e) => toCachedOutput(e, this.#platform.cacheUrl));
  }

  async #export(i: Input<'export.run'>): Promise<CommandOutput<'export.run'>> {
    const { cache, store, tracker, outputFormats } = this.#services;
    const result = await exportJob({ cache, store, refresh: (id) => tracker.refresh(id), formats: outputFormats }, this.#job(i.jobId), {
      projectDir: i.projectDir,
      engine: i.engine,
      name: i.name,
      transforms: i.transforms,
      overwrite: i.overwrite,
    });
    this.#settingsDb.settings.set('export', { engine: result.engine, projectDir: i.projectDir });
    return { engine: result.engine, targetDir: result.targetDir, files: result.files.map((f) => ({ path: f.path, size: f.size })), manifestPath: result.manifestPath };
  }

  // ---- settings and profiles ------------------------------------------------------------------

  #settingsView(): SettingsView {
    const settings = this.#settingsDb.settings;
    const hooks = settings.get('webhooks', webhookSettings) ?? webhookSettings.parse({});
    const { cache } = this.#services;
    return {
      profiles: this.#profiles.list().map((p) => this.#profileView(p.name)),
      activeProfile: this.#profiles.activeName(),
      webhooks: { enabled: hooks.enabled, host: hooks.host, port: hooks.port, path: hooks.path, secretSet: hooks.secret !== undefined },
      cache: { dir: cache.dir, maxBytes: cache.maxBytes, usedBytes: cache.usage().bytes },
      export: settings.get('export', exportSettings) ?? {},
      outputFormats: this.#outputFormats(),
    };
  }

  #outputFormats() {
    return this.#settingsDb.settings.get('outputFormats', outputFormatsSetting) ?? [...DEFAULT_FORMATS];
  }

  #profileView(name: string): CommandOutput<'key.set'> {
    const profile = this.#profiles.get(name);
    return { ...profile, key: this.#profiles.keyStatus(name) };
  }

  async #updateSettings(i: Input<'settings.update'>): Promise<SettingsView> {
    const settings = this.#settingsDb.settings;
    // First, so a refused folder changes nothing: the folder the cache will use, its own (see cache/folder.ts).
    const cacheDir = i.cache?.dir === undefined ? undefined : this.#claimCacheFolder(i.cache.dir);
    if (i.outputFormats) {
      const formats = outputFormatsSetting.safeParse(i.outputFormats);
      if (!formats.success) throw invalidInput('The settings', describeIssues(formats.error).map((x) => ({ ...x, path: `outputFormats${x.path === '(body)' ? '' : x.path}` })));
      settings.set('outputFormats', formats.data);
    }
    if (i.profile) this.#profiles.save(i.profile);
    if (i.export) settings.set('export', i.export);
    let rebuild = i.activeProfile !== undefined && i.activeProfile !== this.#profiles.activeName();
    if (i.activeProfile !== undefined) this.#profiles.activate(i.activeProfile);
    if (i.profile && i.profile.name === this.#profiles.activeName()) rebuild = true;
    if (i.webhooks) {
      const current = settings.get('webhooks', webhookSettings) ?? webhookSettings.parse({});
      settings.set('webhooks', webhookSettings.parse({ ...current, ...i.webhooks }));
      if (i.webhooks.secret) this.#secrets.add(i.webhooks.secret);
      rebuild = true;
    }
    if (i.cache) {
      settings.set('cache', { ...settings.get('cache', cacheSettings), ...i.cache, ...(cacheDir !== undefined && { dir: cacheDir }) });
      rebuild = true;
    }
    if (rebuild) await this.#rebuild();
    this.#emitSettings();
    return this.#settingsView();
  }

  /** The chosen folder, or its subfolder when it holds other files; refused when neither can be the cache's. */
  #claimCacheFolder(chosen: string): string {
    try {
      return claimCacheFolder(chosen, cacheOwnerId(this.#settingsDb), { notice: (line) => this.#notice('info', line) });
    } catch (error) {
      if (error instanceof CacheFolderError) throw invalidInput('The cache folder', [{ path: 'cache.dir', message: error.message }]);
      throw error;
    }
  }

  #emitSettings(): void {
    this.#emit('settings', this.#settingsView());
  }

  /** (Re)opens the services of the active profile; the old ones are closed after the new ones opened. */
  async #rebuild(): Promise<void> {
    const connection = this.#resolveConnection();
    if (connection.apiKey !== undefined) this.#secrets.add(connection.apiKey);
    const next = await this.#open(connection);
    this.#connection = connection;
    const previous = this.#services as Services | undefined;
    if (previous) {
      this.#abortAll();
      this.#detach();
      await previous.close();
    }
    this.#services = next;
    this.#detach = this.#attach(next);
    await next.startWebhooks().catch((error: unknown) => this.#notice('warning', `Webhooks are not received: ${toBridgeError(error, this.#secretList()).message}`));
    next.tracker.start();
    next.health.start();
  }

  /**
   * The connection: the host's flags and environment, then the active profile, then the embedded engine.
   * A profile whose key is not here (a session-only key after a restart) falls back to the engine, and
   * the connection's note says why, rather than keeping the app from starting.
   */
  #resolveConnection(): ResolvedConnection {
    // The key file of `asset-studio key set` is read only when no key is given (one others can read is refused).
    const given = this.#sources.flags?.apiKey ?? this.#sources.env?.ASSET_STUDIO_API_KEY;
    const sources = { ...this.#sources, dataDir: this.dataDir, keyFile: given?.trim() ? undefined : readKeyFile(this.dataDir) };
    const saved = savedProfile(this.#profiles);
    try {
      return resolveConnection({ ...sources, saved });
    } catch (error) {
      if (!(error instanceof ConnectionError) || error.problem !== 'profile-key-missing') throw error;
      return { ...resolveConnection({ ...sources, saved: { profile: saved.profile } }), note: { level: 'warning', text: `${error.message} Until then the embedded local engine is used.` } };
    }
  }

  /** Forwards the events of a set of services; returns the function that stops it. */
  #attach(s: Services): () => void {
    const job = (record: JobRecord) => this.#emit('job', toJobView(record));
    const progress = (p: { sessionId: string; kind: string; bytes: number; total: number | undefined }) => {
      if (this.#due(`${p.sessionId}\n${p.kind}`, p.bytes === p.total)) this.#emit('cache.progress', { ...p, total: p.total ?? null });
    };
    const output = (entry: Parameters<typeof toCachedOutput>[0]) => this.#emit('cache.output', toCachedOutput(entry, this.#platform.cacheUrl));
    const readError = (_record: JobRecord, error: Error) => {
      s.health.record({ error });
      this.#notice('warning', error.message);
    };
    const health = (status: EventPayload<'service'>) => this.#emit('service', status);
    s.health.on('change', health);
    const tracker = [['job-added', job], ['progress', job], ['finished', job], ['failed', job], ['read-error', readError]] as const;
    for (const [event, listener] of tracker) s.tracker.on(event, listener as never);
    s.cache.on('progress', progress);
    s.cache.on('downloaded', output);
    s.cache.on('failed', output);
    return () => {
      s.health.off('change', health);
      for (const [event, listener] of tracker) s.tracker.off(event, listener as never);
      s.cache.off('progress', progress);
      s.cache.off('downloaded', output);
      s.cache.off('failed', output);
    };
  }

  #dialogs() {
    if (!this.#platform.dialogs) throw unsupported('Native dialogs exist only in the desktop app: use the browser\'s file picker or drop the files on the page.');
    return this.#platform.dialogs;
  }

  #abortAll(): void {
    for (const abort of [...this.#batches.values(), ...this.#creates.values()]) abort.abort();
  }

  /** Throttles progress events of one key to one per PROGRESS_INTERVAL_MS; the last one always passes. */
  #due(key: string, last: boolean): boolean {
    const now = Date.now();
    if (!last && now - (this.#lastProgress.get(key) ?? 0) < PROGRESS_INTERVAL_MS) return false;
    if (last) this.#lastProgress.delete(key);
    else this.#lastProgress.set(key, now);
    return true;
  }

  #notice(level: 'info' | 'warning' | 'error', message: string): void {
    if (message === this.#lastNotice) return; // a read failing again and again is said once
    this.#lastNotice = message;
    this.#emit('notice', { level, message });
  }

  #emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const safe = this.#redact(payload);
    this.#events.emit(event, safe);
    this.#events.emit('*', event, safe);
  }

  #secretList(): string[] {
    return [...this.#secrets];
  }

  /** The value itself when it holds no secret (the usual case, cheap); otherwise a redacted copy. */
  #redact<T>(value: T): T {
    if (value === undefined || this.#secrets.size === 0) return value;
    const text = JSON.stringify(value);
    const safe = redactSecrets(text, this.#secretList());
    return safe === text ? value : (JSON.parse(safe) as T);
  }
}

/** What the user sees for a new job: the file name, the prompt, or the endpoint and session. */
function labelOf(endpoint: EndpointId, body: unknown, file: string | undefined): string {
  if (file !== undefined) return basename(file);
  const b = (body ?? {}) as Record<string, unknown>;
  const text = [b.text, b.texts, b.description, b.prompt].find((v) => typeof v === 'string' || Array.isArray(v));
  if (text !== undefined) return String(Array.isArray(text) ? text.join(', ') : text).slice(0, 120);
  const url = [b.image_url, b.mesh_url, b.zip_url].find((v): v is string => typeof v === 'string');
  if (url !== undefined) return url.startsWith('data:') ? `${endpoint} image` : (basename(url.split('?')[0]!) || endpoint).slice(0, 120);
  return endpoint;
}
