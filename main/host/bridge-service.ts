// The bridge service: every command of shared/bridge/contract.ts, as parse → call → redact. The input is
// parsed with its command's schema; the call goes to a handler of one group of commands (bridge-jobs.ts,
// bridge-cache.ts, bridge-files.ts; the settings and keys here), each calling a use case of main/app over the
// AppSession that keeps the services of the active connection; every output, event and error is redacted
// with the keys the app knows, so no API key ever crosses the bridge. Both transports (Electron IPC in
// main/electron/, the web host in web-host.ts) call this one class; what only Electron can do (dialogs, the
// OS keychain) comes in through `platform`, so the class runs and is tested in plain Node.
import { readFileSync } from 'node:fs';
import {
  COMMANDS,
  type CommandName,
  type ConnectionView,
  type EventName,
  type EventPayload,
} from '../../shared/bridge/contract.ts';
import { describeIssues } from '../../shared/contract/issues.ts';
import { AppSession } from '../app/app-session.ts';
import { connectionView, type ConnectionSources } from '../app/connection.ts';
import { SendingCreates } from '../app/create-job.ts';
import { MeshLinks } from '../app/mesh-links.ts';
import { removeKey, setKey } from '../app/profile-actions.ts';
import type { Services } from '../app/services.ts';
import { settingsView, updateSettings } from '../app/settings-actions.ts';
import type { Profile } from '../config/profiles.ts';
import type { ConnectionSettings } from '../config/data-dir.ts';
import { BatchLog } from './batch-log.ts';
import { BridgeBatches } from './bridge-batches.ts';
import { cacheHandlers } from './bridge-cache.ts';
import type { BridgeContext, Handlers, HostPlatform } from './bridge-context.ts';
import { BridgeEvents, forwardServiceEvents, redacted } from './bridge-events.ts';
import { batchHandlers, dialogHandlers, exportHandlers } from './bridge-files.ts';
import { jobHandlers } from './bridge-jobs.ts';
import { reviewHandlers } from './bridge-review.ts';
import { BridgeFailure, invalidInput, toBridgeError } from './errors.ts';

export type { Dialogs, FileRef, HostPlatform } from './bridge-context.ts';

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
    const ctx: BridgeContext = { session, platform: this.#platform, events, services: () => session.services };
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
      ...jobHandlers(ctx, this.#creates),
      ...cacheHandlers(ctx),
      ...exportHandlers(ctx, this.#meshLinks),
      ...batchHandlers(ctx, this.#batches),
      ...dialogHandlers(ctx),
      ...reviewHandlers(ctx),
      'settings.get': async () => settingsView(session),
      'settings.update': async (i) =>
        settingsChanged(await updateSettings(session, i, (line) => events.notice('info', line))),
      'key.set': async (i) => settingsChanged(await setKey(session, i.profile, i.key, i.sessionOnly)),
      'key.remove': async (i) => settingsChanged(await removeKey(session, i.profile)),
    };
  }
}
