// The app while it runs (desktop or web host): the services of the active connection, rebuilt when the
// profile, its key, the webhooks or the cache change; the settings and profiles of the data folder; and
// every key and secret it has met, so the front end can redact them from whatever it shows.
import {
  ProfileStore,
  SessionKeyVault,
  type KeyVault,
  type Profile,
  type ServiceAddresses,
} from '../config/profiles.ts';
import type { ConnectionSettings } from '../config/data-dir.ts';
import { readKeyFileEntry } from '../config/key-file.ts';
import { databasePath, openDatabase, type Store } from '../store/database.ts';
import {
  ConnectionError,
  resolveConnection,
  savedProfile,
  type ConnectionSources,
  type ResolvedConnection,
} from './connection.ts';
import { pullMissingOutputs } from './pull-outputs.ts';
import type { Services } from './services.ts';

export interface AppSessionOptions {
  dataDir: string;
  /** Keys kept across launches; undefined where nothing keeps them safely (then session-only keys). */
  keyVault?: KeyVault | undefined;
  /** Builds the services of a connection: `(c) => createServices(c, serviceOptions)`. */
  openServices(connection: ConnectionSettings): Promise<Services>;
  /**
   * The host's own flags and environment (ASSET_STUDIO_BASE_URL, ASSET_STUDIO_API_KEY...): they win over
   * the saved profile (main/app/connection.ts). None given: the saved profile, else the embedded engine.
   */
  connectionSources?: Pick<ConnectionSources, 'flags' | 'env'> | undefined;
  /**
   * The public service's addresses (the "csm" profile's, and where a key given with no address goes):
   * PUBLIC_SERVICE of main/config/profiles.ts unless a test stands a local server in.
   */
  publicService?: ServiceAddresses | undefined;
  /** Where the keys and secrets met are collected (e.g. the set the front end redacts with); a new set otherwise. */
  secrets?: Set<string> | undefined;
  /** Follows a new set of services (its events); returns the function that stops following them. */
  attach(services: Services): () => void;
  /** Before the services in use are replaced or closed: stop the work that runs on them. */
  stopWork(): void;
  /** The webhook receiver the settings enable could not start (the app runs on, polling). */
  webhooksFailed(error: unknown): void;
}

export class AppSession {
  readonly dataDir: string;
  /** The session's own connection to the database, for the settings (services come and go with profiles). */
  readonly settingsDb: Store;
  readonly profiles: ProfileStore;
  /** Every key and secret met (connection keys, keys set, webhook secrets): never shown. */
  readonly secrets: Set<string>;
  readonly #options: AppSessionOptions;
  #services!: Services;
  #connection!: ResolvedConnection;
  #detach: () => void = () => undefined;
  /** The downloads at start of the outputs not all cached (pull-outputs.ts pullMissingOutputs); never rejects. */
  #pulling: Promise<unknown> = Promise.resolve();

  private constructor(options: AppSessionOptions) {
    this.dataDir = options.dataDir;
    this.#options = options;
    this.secrets = options.secrets ?? new Set();
    this.settingsDb = openDatabase(databasePath(options.dataDir));
    this.profiles = new ProfileStore(
      this.settingsDb.settings,
      { persistent: options.keyVault, session: new SessionKeyVault() },
      options.publicService,
    );
  }

  /** Opens the services of the active profile (the embedded engine when its key is missing, with a note). */
  static async open(options: AppSessionOptions): Promise<AppSession> {
    const session = new AppSession(options);
    try {
      await session.rebuild();
    } catch (error) {
      session.settingsDb.close();
      throw error;
    }
    return session;
  }

  get services(): Services {
    return this.#services;
  }

  get connection(): ResolvedConnection {
    return this.#connection;
  }

  get settings() {
    return this.settingsDb.settings;
  }

  /** The profiles (no keys). */
  listProfiles(): Profile[] {
    return this.profiles.list();
  }

  /** (Re)opens the services of the active profile; the old ones are closed after the new ones opened. */
  async rebuild(): Promise<void> {
    const connection = this.#resolveConnection();
    if (connection.apiKey !== undefined) this.secrets.add(connection.apiKey);
    const next = await this.#options.openServices(connection);
    this.#connection = connection;
    const previous = this.#services as Services | undefined;
    if (previous) {
      this.#options.stopWork();
      this.#detach();
      await previous.close();
    }
    this.#services = next;
    this.#detach = this.#options.attach(next);
    await next.startWebhooks().catch((error: unknown) => this.#options.webhooksFailed(error));
    next.tracker.start();
    next.health.start();
    this.#pulling = pullMissingOutputs(next);
  }

  async close(): Promise<void> {
    this.#options.stopWork();
    this.#detach();
    await this.#services.close();
    await this.#pulling; // its downloads were stopped with the cache: nothing runs past close
    this.settingsDb.close();
  }

  /**
   * The connection: the host's flags and environment, then the active profile, then the embedded engine.
   * A profile whose key is not here (a session-only key after a restart) falls back to the engine, and
   * the connection's note says why, rather than keeping the app from starting.
   */
  #resolveConnection(): ResolvedConnection {
    const given = this.#options.connectionSources;
    const sources = {
      ...given,
      dataDir: this.dataDir,
      ...this.#keyFile(given?.flags?.apiKey ?? given?.env?.ASSET_STUDIO_API_KEY),
      ...(this.#options.publicService && { publicService: this.#options.publicService }),
    };
    const saved = savedProfile(this.profiles);
    try {
      return resolveConnection({ ...sources, saved });
    } catch (error) {
      if (!(error instanceof ConnectionError) || error.problem !== 'profile-key-missing') throw error;
      // The engine, as the note says: the key file (which would go to the public service with no address) is
      // left out too, so the profile's missing key sends nothing anywhere.
      return {
        ...resolveConnection({
          ...sources,
          keyFile: undefined,
          keyFileBound: undefined,
          saved: { profile: saved.profile },
        }),
        note: { level: 'warning', text: `${error.message} Until then the embedded local engine is used.` },
      };
    }
  }

  /** The key file of `asset-studio key set`, read only when no key is given (one others can read is refused). */
  #keyFile(given: string | undefined): {
    keyFile?: string;
    keyFileBound?: { address?: string; legacyAddress?: string };
  } {
    const entry = given?.trim() ? undefined : readKeyFileEntry(this.dataDir);
    return entry === undefined ? {} : { keyFile: entry.key, keyFileBound: entry };
  }
}
