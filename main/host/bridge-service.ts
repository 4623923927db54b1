// The bridge service: every command of shared/bridge/contract.ts, as parse → call → redact. The input is
// parsed with its command's schema; the call goes to a use case of main/app (create, cancel, retry,
// export, settings, keys, over the AppSession that keeps the services of the active connection) or to a
// view of the store and cache; every output, event and error is redacted with the keys the app knows, so
// no API key ever crosses the bridge. Both transports (Electron IPC in main/electron/, the web host in
// web-host.ts) call this one class; what only Electron can do (dialogs, the OS keychain) comes in through
// `platform`, so the class runs and is tested in plain Node.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import {
  COMMANDS,
  type CommandName,
  type CommandOutput,
  type ConnectionView,
  type EventName,
  type EventPayload,
} from '../../shared/bridge/contract.ts';
import { describeIssues } from '../../shared/contract/issues.ts';
import { AppSession } from '../app/app-session.ts';
import { connectionView, type ConnectionSources } from '../app/connection.ts';
import { creditsView } from '../app/costs.ts';
import { SendingCreates } from '../app/create-job.ts';
import { MeshLinkError, MeshLinks } from '../app/mesh-links.ts';
import { exportAndRemember, planJobExport } from '../app/export-actions.ts';
import { cancelJob, retryJob } from '../app/job-actions.ts';
import { deleteFromLibrary, entryRows, isGroupEntry, renameJob } from '../app/library-actions.ts';
import { cachedPicture, thumbnailsOf } from '../app/thumbnails.ts';
import { removeKey, setKey } from '../app/profile-actions.ts';
import type { Services } from '../app/services.ts';
import { savedOutputFormats, settingsView, updateSettings } from '../app/settings-actions.ts';
import { pullJobOutputs } from '../app/pull-outputs.ts';
import { findOriginal } from '../cache/original.ts';
import { cachedZipEntries, ZipEntryError } from '../cache/zip-entries.ts';
import type { KeyVault, Profile } from '../config/profiles.ts';
import type { ConnectionSettings } from '../config/data-dir.ts';
import { detectProject } from '../export/index.ts';
import { listPageNumber } from '../jobs/list-pages.ts';
import { reconcileJournal } from '../jobs/reconcile.ts';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { JobRecord } from '../store/jobs.ts';
import { BatchLog } from './batch-log.ts';
import { BridgeBatches } from './bridge-batches.ts';
import { BridgeEvents, forwardServiceEvents, redacted } from './bridge-events.ts';
import { BridgeFailure, conflict, invalidInput, notFound, toBridgeError, unsupported } from './errors.ts';
import { outputLabelOf } from '../../shared/kinds/index.ts';
import { isAnimatedModel, modelFormat, parseOutputKind } from '../../shared/output-kind.ts';
import type { FileFormat } from '../../shared/file-format.ts';
import { toCachedOutput, toJobView } from './views.ts';

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

const APP_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export class BridgeService {
  readonly dataDir: string;
  readonly #platform: HostPlatform;
  readonly #session: AppSession;
  readonly #events: BridgeEvents;
  readonly #batches: BridgeBatches;
  /** Creates still sending: jobs.cancel cuts them off. */
  readonly #creates: SendingCreates;
  readonly #handlers: Handlers;
  /** Local model files handed to the embedded engine (retopology of a file of this computer). */
  readonly #meshLinks = new MeshLinks();

  private constructor(
    session: AppSession,
    platform: HostPlatform,
    events: BridgeEvents,
    batches: BridgeBatches,
    creates: SendingCreates,
  ) {
    this.dataDir = session.dataDir;
    this.#session = session;
    this.#platform = platform;
    this.#events = events;
    this.#batches = batches;
    this.#creates = creates;
    this.#handlers = this.#makeHandlers();
  }

  /** Opens the services of the active profile (the embedded engine when its key is missing, with a notice). */
  static async open(options: BridgeServiceOptions): Promise<BridgeService> {
    const secrets = new Set<string>();
    const events = new BridgeEvents(secrets);
    const describe = (error: unknown) => toBridgeError(error, [...secrets]).message;
    const batches = new BridgeBatches(
      events,
      describe,
      new BatchLog(options.dataDir, (message) => events.notice('warning', message)),
    );
    const creates = new SendingCreates();
    const session = await AppSession.open({
      dataDir: options.dataDir,
      keyVault: options.platform.keyVault,
      openServices: options.openServices,
      connectionSources: options.connectionSources,
      secrets,
      attach: (services) => forwardServiceEvents(services, events, options.platform.cacheUrl),
      stopWork: () => {
        batches.cancelAll();
        creates.abortAll();
      },
      webhooksFailed: (error) => events.notice('warning', `Webhooks are not received: ${describe(error)}`),
    });
    return new BridgeService(session, options.platform, events, batches, creates);
  }

  /** Files chosen in a native dialog (the desktop app's File › Add Files…): the UI asks for a confirm before they are sent. */
  offerFiles(paths: readonly string[]): Promise<void> {
    return this.#batches.offer(paths);
  }

  get services(): Services {
    return this.#session.services;
  }

  /** Where the active connection comes from (never the key). */
  get connection(): ConnectionView {
    return connectionView(this.#session.connection);
  }

  /** The profiles (no keys): the Electron shell allows links to their service hosts. */
  profiles(): Profile[] {
    return this.#session.listProfiles();
  }

  /** Runs a command: the input is parsed first; a failure is thrown as a BridgeFailure (redacted). */
  async call(command: string, input: unknown): Promise<unknown> {
    try {
      if (!Object.hasOwn(COMMANDS, command)) {
        throw invalidInput('The command', [
          {
            path: 'command',
            message: `"${command}" is not a command of Asset Studio (known: ${Object.keys(COMMANDS).join(', ')})`,
          },
        ]);
      }
      const name = command as CommandName;
      const parsed = COMMANDS[name].input.safeParse(input ?? {});
      if (!parsed.success) throw invalidInput(`The input of ${name}`, describeIssues(parsed.error));
      const handler = this.#handlers[name] as (input: unknown) => Promise<unknown>;
      return redacted(await handler(parsed.data), this.#session.secrets);
    } catch (error) {
      throw new BridgeFailure(toBridgeError(error, [...this.#session.secrets]));
    }
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.#events.on(event, listener);
  }

  /** Every event, for transports that forward them all (the web host's socket, Electron's webContents). */
  onAny(listener: (event: EventName, payload: unknown) => void): () => void {
    return this.#events.onAny(listener);
  }

  async close(): Promise<void> {
    await this.#meshLinks.close();
    await this.#session.close();
    this.#batches.flush(); // the batches' last states, for the next start
  }

  // ---- the commands -------------------------------------------------------------------------

  #makeHandlers(): Handlers {
    const session = this.#session;
    const events = this.#events;
    const settingsChanged = <T>(value: T): T => {
      events.emit('settings', settingsView(session));
      return value;
    };
    return {
      'app.info': async () => ({
        version: APP_VERSION,
        mode: this.services.mode,
        transport: this.#platform.transport,
        dataDir: this.dataDir,
        connection: this.connection,
        service: this.services.health.status,
      }),
      'jobs.list': async (i) => {
        const filter = {
          ...((i.active || i.state === 'active') && { final: false }),
          ...(i.state !== undefined && i.state !== 'active' && { states: [i.state] }),
          ...(i.kinds && { kinds: i.kinds }),
          ...(i.search && { search: i.search }),
          ...(i.since !== undefined && { since: i.since }),
          ...(i.until !== undefined && { until: i.until }),
          ...(i.group && { group: true }),
        };
        const jobs = this.services.store.jobs;
        return {
          jobs: jobs
            .list({ ...filter, sort: i.sort, limit: i.limit, offset: i.offset })
            .map((j) => this.#libraryView(j, i.group === true)),
          total: jobs.count(filter),
        };
      },
      'jobs.rename': async (i) => {
        const job = renameJob(this.services.store, this.#job(i.id), i.name);
        events.emit('job', toJobView(job));
        return this.#libraryView(job, true);
      },
      'jobs.delete': async (i) =>
        deleteFromLibrary(
          this.services,
          i.ids.map((id) => this.#job(id)),
        ),
      'jobs.thumbnail': async (i) => {
        const { cache, store } = this.services;
        const answer = await thumbnailsOf(cache, store).ensure(this.#job(i.id));
        return { url: answer.entry ? this.#pictureUrl(answer.entry) : null, reason: answer.reason };
      },
      'jobs.get': async (i) => toJobView(this.#job(i.id)),
      'jobs.cancel': async (i) => {
        if (this.#creates.abort(i.id)) return null; // a create still sending its file: cut off, nothing created
        const stopped = toJobView(cancelJob(this.services.store, this.#job(i.id)));
        events.emit('job', stopped);
        return stopped;
      },
      'jobs.retry': async (i) => toJobView((await retryJob(this.services, this.#job(i.id))).job),
      'jobs.reconcile': async (i) => {
        const { store, client, tracker } = this.services;
        if (i.operationId !== undefined && !store.journal.get(i.operationId)) {
          throw notFound(`There is no recorded operation ${i.operationId}. Refresh the list of lost submissions.`);
        }
        const results = await reconcileJournal({ store, client, tracker }, i);
        for (const r of results) if (r.job) events.emit('job', toJobView(r.job));
        return {
          results: results.map((r) => ({
            operationId: r.operationId,
            outcome: r.outcome,
            ...(r.candidates && { candidates: r.candidates }),
          })),
        };
      },
      'sessions.list': async (i) => {
        const { client, health } = this.services;
        // The page as the app counts it, whichever way the service reads `page` (main/jobs/list-pages.ts).
        const data = await listPageNumber(client, i.page, i.limit).catch((error: unknown) => {
          health.record({ error });
          throw error;
        });
        health.record({ ok: true });
        const credits = data.credits ?? data.image_to_3d_credits;
        return {
          results: data.results as Record<string, unknown>[],
          page: data.page,
          totalPages: data.totalPages,
          totalResults: data.totalResults,
          ...(credits !== undefined && { credits }),
        };
      },
      'credits.get': async () =>
        creditsView(this.services, (error) => toBridgeError(error, [...session.secrets]).message),
      create: async (i) => {
        const file = i.file && this.#platform.resolveFile(i.file);
        // Progress of sending the file to the service (a large FBX takes a while), a few times a second.
        const onUpload = (operationId: string, p: { sent: number; total: number }) => {
          if (events.due(`create:${operationId}`, p.sent === p.total))
            events.emit('create.upload', { operationId, sent: p.sent, total: p.total });
        };
        const outcome = await this.#creates.create(this.services, { ...i, file }, onUpload);
        return {
          operationId: outcome.operationId,
          status: outcome.status,
          ...(outcome.job && { job: toJobView(outcome.job) }),
        };
      },
      'batch.start': async ({ files, ...request }) =>
        this.#batches.start(
          this.services,
          files.map((f) => this.#platform.resolveFile(f)),
          request,
        ),
      'batch.cancel': async (i) => this.#batches.cancel(i.batchId),
      'batch.expand': async (i) => this.#batches.expand(i.files.map((f) => this.#platform.resolveFile(f))),
      'batch.list': async () => ({ batches: this.#batches.list() }),
      'batch.forget': async (i) => ({ forgotten: this.#batches.forget(i.batchIds) }),
      'cache.outputs': async (i) => ({ outputs: this.#outputsOf(i.sessionId) }),
      'cache.models': async () => ({ models: this.#cachedModels() }),
      'cache.fetch': async (i) => {
        const job = this.#job(i.jobId);
        if (job.state !== 'succeeded' || job.remoteId === null)
          throw conflict(
            `"${job.label}" has no outputs to download: it is ${job.rawStatus || job.state}. Wait until it has succeeded.`,
          );
        await pullJobOutputs(this.services, job, savedOutputFormats(session.settings)); // as set now, not at start
        return { outputs: this.#outputsOf(job.remoteId) };
      },
      'cache.entries': async (i) => {
        try {
          const entries = await cachedZipEntries(this.services.cache, i.sessionId, i.kind);
          const base = this.#platform.cacheUrl(i.sessionId, i.kind);
          return {
            entries: entries.map((e) => ({
              ...e,
              url: `${base}/${e.name.split('/').map(encodeURIComponent).join('/')}`,
            })),
          };
        } catch (error) {
          if (!(error instanceof ZipEntryError)) throw error;
          throw error.status === 404 ? notFound(error.message) : conflict(error.message);
        }
      },
      'jobs.original': async (i) => findOriginal(this.services.store, this.#job(i.id)),
      'files.meshLink': async (i) => {
        if (this.services.mode !== 'embedded')
          throw new MeshLinkError(
            `${i.name} is on this computer, which the service cannot read: its retopology takes a model only as an https URL of a GLB or an ASSET_ id. Put the file where the service can fetch it and paste its URL, or pick a model the service made from the library.`,
          );
        return { url: await this.#meshLinks.link(this.#platform.resolveFile(i.file), i.name) };
      },
      'export.detect': async (i) => {
        const project = await detectProject(i.projectDir);
        return {
          engine: project.engine,
          root: project.root,
          dir: project.dir,
          ...(project.newFolder && { newFolder: true }),
          ...(project.gltfPackage !== undefined && { gltfPackage: project.gltfPackage }),
        };
      },
      'export.plan': async ({ jobId, ...request }) => planJobExport(this.services, this.#job(jobId), request),
      'export.run': async ({ jobId, ...request }) => {
        const result = await exportAndRemember(this.services, session.settings, this.#job(jobId), request);
        const files = result.files.map((f) => ({ path: f.path, size: f.size }));
        return {
          engine: result.engine,
          targetDir: result.targetDir,
          files,
          manifestPath: result.manifestPath,
          replaced: result.replaced,
          kept: result.kept,
        };
      },
      'settings.get': async () => settingsView(session),
      'settings.update': async (i) =>
        settingsChanged(await updateSettings(session, i, (line) => events.notice('info', line))),
      'key.set': async (i) => settingsChanged(await setKey(session, i.profile, i.key, i.sessionOnly)),
      'key.remove': async (i) => settingsChanged(await removeKey(session, i.profile)),
      'dialog.openFiles': async (i) => ({ paths: await this.#dialogs().openFiles(i) }),
      'dialog.chooseFolder': async (i) => ({ path: await this.#dialogs().chooseFolder(i) }),
    };
  }

  #job(id: string): JobRecord {
    const store = this.services.store;
    const job = store.jobs.get(id) ?? store.jobs.findByRemoteId(id);
    if (!job)
      throw notFound(
        `There is no job "${id}" in this app. It may belong to another profile or data folder; refresh the job list.`,
      );
    return job;
  }

  /** A job as the library lists it: with its cached picture and, grouped, the steps of its older-flow session. */
  #libraryView(job: JobRecord, group: boolean): CommandOutput<'jobs.get'> {
    const picture = cachedPicture(this.services.store, job.remoteId);
    // An animation session without prompts yet is one row: no steps to list.
    const rows = group && isGroupEntry(job) ? entryRows(this.services.store, job) : undefined;
    const steps = rows && (rows.length > 1 || job.kind === 'image_to_3d_older') ? rows : undefined;
    return {
      ...toJobView(job),
      thumbnail: picture ? this.#pictureUrl(picture) : null,
      ...(steps && { steps: steps.map(toJobView) }),
    };
  }

  /** A picture's URL with its bytes' version (`?v=`, ignored by the file route), so a new render under the same output is not taken from the browser's cache. */
  #pictureUrl(entry: CacheEntry): string {
    const url = this.#platform.cacheUrl(entry.sessionId, entry.kind);
    return entry.sha256 === null ? url : `${url}?v=${entry.sha256.slice(0, 12)}`;
  }

  #cachedModels(): CommandOutput<'cache.models'>['models'] {
    const { cache, store } = this.services;
    const models: CommandOutput<'cache.models'>['models'] = [];
    for (const entry of cache.list().sort((a, b) => b.lastAccessAt - a.lastAccessAt)) {
      const kind = parseOutputKind(entry.kind);
      const animated = isAnimatedModel(kind) ? animatedFormat(cache.formatOf(entry)) : undefined;
      const format = modelFormat(kind, animated);
      const view = toCachedOutput(entry, this.#platform.cacheUrl);
      if (format === undefined || view.state !== 'complete' || view.url === null) continue;
      const job = store.jobs.findByRemoteId(entry.sessionId);
      models.push({
        sessionId: entry.sessionId,
        kind: entry.kind,
        format,
        url: view.url,
        size: view.size,
        jobId: job?.id ?? null,
        label: `${job?.label ?? entry.sessionId} · ${outputLabelOf(entry.kind, job, { format: false })}`,
      }); // the list shows the format beside it
    }
    return models;
  }

  #outputsOf(sessionId: string): CommandOutput<'cache.outputs'>['outputs'] {
    return this.services.cache
      .list()
      .filter((e) => e.sessionId === sessionId)
      .map((e) => toCachedOutput(e, this.#platform.cacheUrl, this.services.cache.formatOf(e)));
  }

  #dialogs() {
    if (!this.#platform.dialogs)
      throw unsupported(
        "Native dialogs exist only in the desktop app: use the browser's file picker or drop the files on the page.",
      );
    return this.#platform.dialogs;
  }
}

/** GLB or FBX, the formats an animated model comes in; anything else is no animated model. */
function animatedFormat(format: FileFormat | undefined): 'glb' | 'fbx' | undefined {
  return format === 'glb' || format === 'fbx' ? format : undefined;
}
