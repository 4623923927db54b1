// Profiles of the app: a name, the service address (none: the embedded local engine) and the older
// variants' address, stored in the settings table. Their API keys live in a KeyVault, never in the table:
// the desktop app encrypts them with the OS keychain (Electron safeStorage, see main/electron/key-vault.ts),
// or keeps them for this session only. The CLI keeps its own key (environment or 0600 file, config/key-file.ts).
// Which connection is used (flags, environment, this active profile, the engine) is main/app/connection.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { AppError } from '../../shared/errors.ts';
import { PUBLIC_SERVICE, SERVICE_PROFILE } from '../../shared/public-service.ts';
import { writeFileDurableSync } from '../durable/write-file.ts';
import type { SettingsRepository } from '../store/settings-table.ts';

/** The profile that always exists: the embedded local engine, no key needed. */
export const LOCAL_PROFILE = 'local';

export { PUBLIC_SERVICE, SERVICE_PROFILE };

/** A service's two addresses (the base, and the older endpoint variants'). */
export interface ServiceAddresses {
  baseUrl: string;
  legacyBaseUrl: string;
}

/** The profiles that always exist and cannot be changed. */
const BUILT_IN = [LOCAL_PROFILE, SERVICE_PROFILE];
const PROFILES_KEY = 'profiles';

/** A service address: http:// or https:// and a host. */
export const SERVICE_ADDRESS = /^https?:\/\/[^/]/i;
const url = z.string().regex(SERVICE_ADDRESS, 'must be an http:// or https:// address');
export const profileSchema = z.object({
  name: z.string().min(1).max(60),
  baseUrl: url.optional(),
  legacyBaseUrl: url.optional(),
});
export type Profile = z.output<typeof profileSchema>;

const profilesSetting = z.object({ active: z.string(), list: z.array(profileSchema) });

export type KeyStorage = 'os-keychain' | 'session-only' | 'file' | 'environment' | 'none';

/** Where API keys are kept. `set` throws a KeyStorageError when the place cannot keep them safely. */
export interface KeyVault {
  readonly storage: KeyStorage;
  get(profile: string): string | undefined;
  set(profile: string, key: string): void;
  remove(profile: string): boolean;
}

/** A key cannot be stored, or a profile cannot be used without one. The message says what to do. */
export class KeyStorageError extends AppError<'key-storage'> {
  constructor(message: string) {
    super('key-storage', message);
  }
}

export class ProfileError extends AppError<'profile'> {
  constructor(message: string) {
    super('profile', message);
  }
}

/** Keys kept in memory until the app quits. */
export class SessionKeyVault implements KeyVault {
  readonly storage = 'session-only';
  readonly #keys = new Map<string, string>();
  get(profile: string): string | undefined {
    return this.#keys.get(profile);
  }
  set(profile: string, key: string): void {
    this.#keys.set(profile, key);
  }
  remove(profile: string): boolean {
    return this.#keys.delete(profile);
  }
}

/** Encryption by the OS (Electron's safeStorage in the app; anything with the same shape in tests). */
export interface Encryptor {
  /** Why keys cannot be encrypted safely here (undefined: they can). */
  unavailableReason(): string | undefined;
  encrypt(text: string): Buffer;
  decrypt(data: Buffer): string;
}

/** Keys encrypted by an Encryptor, in one file readable by its owner only (`<dataDir>/api-keys.json`). */
export class EncryptedFileVault implements KeyVault {
  readonly storage = 'os-keychain';
  readonly #path: string;
  readonly #encryptor: Encryptor;

  constructor(dataDir: string, encryptor: Encryptor) {
    this.#path = join(dataDir, 'api-keys.json');
    this.#encryptor = encryptor;
  }

  get(profile: string): string | undefined {
    const sealed = this.#read()[profile];
    if (sealed === undefined) return undefined;
    try {
      return this.#encryptor.decrypt(Buffer.from(sealed, 'base64'));
    } catch {
      throw new KeyStorageError(
        `The stored API key of profile "${profile}" cannot be decrypted (the OS keychain changed or the file was copied from another account). Set the key again.`,
      );
    }
  }

  set(profile: string, key: string): void {
    const reason = this.#encryptor.unavailableReason();
    if (reason !== undefined) {
      throw new KeyStorageError(
        `The API key cannot be stored safely on this system: ${reason}. Keep it for this session only instead (it is forgotten when the app quits), or start a keyring service and try again.`,
      );
    }
    this.#write({ ...this.#read(), [profile]: this.#encryptor.encrypt(key).toString('base64') });
  }

  remove(profile: string): boolean {
    const all = this.#read();
    if (!(profile in all)) return false;
    delete all[profile];
    this.#write(all);
    return true;
  }

  #read(): Record<string, string> {
    try {
      const parsed = z.record(z.string(), z.string()).safeParse(JSON.parse(readFileSync(this.#path, 'utf8')));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  }

  /** 0600, durably (temp file, fsync, rename, fsync of the folder): a crash leaves the old file or the new one. */
  #write(all: Record<string, string>): void {
    writeFileDurableSync(this.#path, JSON.stringify(all));
  }
}

export interface KeyStatus {
  configured: boolean;
  storage: KeyStorage;
}

/**
 * The profiles and which one is active, over the settings table, with their keys in a persistent vault
 * (absent where none is safe, e.g. the web host) and a session vault. A session key wins over a stored one.
 */
export class ProfileStore {
  readonly #settings: SettingsRepository;
  readonly #persistent: KeyVault | undefined;
  readonly #session: KeyVault;
  readonly #publicService: Readonly<ServiceAddresses>;

  /** `publicService`: the SERVICE_PROFILE's addresses (PUBLIC_SERVICE unless a test stands a local server in). */
  constructor(
    settings: SettingsRepository,
    vaults: { persistent?: KeyVault | undefined; session: KeyVault },
    publicService: Readonly<ServiceAddresses> = PUBLIC_SERVICE,
  ) {
    this.#settings = settings;
    this.#persistent = vaults.persistent;
    this.#session = vaults.session;
    this.#publicService = publicService;
  }

  /** The local profile first, then the public service's, then the others by name. */
  list(): Profile[] {
    return [
      { name: LOCAL_PROFILE },
      { name: SERVICE_PROFILE, ...this.#publicService },
      ...this.#stored()
        .list.filter((p) => !BUILT_IN.includes(p.name))
        .sort((a, b) => a.name.localeCompare(b.name)),
    ];
  }

  get(name: string): Profile {
    const profile = this.list().find((p) => p.name === name);
    if (!profile)
      throw new ProfileError(
        `There is no profile "${name}". Create it first (name and service address), or choose one of: ${this.list()
          .map((p) => p.name)
          .join(', ')}.`,
      );
    return profile;
  }

  activeName(): string {
    const { active } = this.#stored();
    return this.list().some((p) => p.name === active) ? active : LOCAL_PROFILE;
  }

  /**
   * Adds or changes a profile. The built-in profiles (the local engine, the public service) cannot be changed.
   * A change of an existing profile that gives no address keeps its address: updating only its older variants'
   * address (it wiped the address, and the app then used the embedded engine without a word). One that gives an
   * address gives both (the settings form sends the profile whole: an older variants' address it leaves out is
   * cleared). A changed address (or
   * older variants' address) forgets the profile's key: a key is only ever sent to the address it was set for.
   */
  save(profile: Profile): Profile {
    const given = profileSchema.parse(profile);
    const kept = this.#stored().list.find((p) => p.name === given.name);
    const checked: Profile =
      given.baseUrl !== undefined || kept === undefined
        ? given
        : { ...kept, ...(given.legacyBaseUrl !== undefined && { legacyBaseUrl: given.legacyBaseUrl }) };
    if (checked.name === LOCAL_PROFILE)
      throw new ProfileError(
        `The profile "${LOCAL_PROFILE}" is the embedded engine and cannot be changed: give your profile another name.`,
      );
    if (checked.name === SERVICE_PROFILE)
      throw new ProfileError(
        `The profile "${SERVICE_PROFILE}" is the public service at its documented addresses and cannot be changed: give a profile with other addresses another name.`,
      );
    const stored = this.#stored();
    const before = stored.list.find((p) => p.name === checked.name);
    this.#settings.set(PROFILES_KEY, {
      ...stored,
      list: [...stored.list.filter((p) => p.name !== checked.name), checked],
    });
    // A key is bound to the addresses it was saved for: one the profile moves away from (or one left by an
    // earlier profile of this name) is forgotten, never sent to the new address. Set the key again for it.
    if (before === undefined || before.baseUrl !== checked.baseUrl || before.legacyBaseUrl !== checked.legacyBaseUrl)
      this.#forgetKey(checked.name);
    return checked;
  }

  /** Makes a profile the active one; a service profile needs its key first. */
  activate(name: string): void {
    const profile = this.get(name);
    if (profile.baseUrl !== undefined && this.key(name) === undefined) {
      throw new KeyStorageError(`The profile "${name}" has no API key yet: set its key first, then switch to it.`);
    }
    this.#settings.set(PROFILES_KEY, { ...this.#stored(), active: name });
  }

  key(name: string): string | undefined {
    return this.#session.get(name) ?? this.#persistent?.get(name);
  }

  keyStatus(name: string): KeyStatus {
    if (this.#session.get(name) !== undefined) return { configured: true, storage: this.#session.storage };
    if (this.#persistent?.get(name) !== undefined) return { configured: true, storage: this.#persistent.storage };
    return { configured: false, storage: 'none' };
  }

  /** Stores a key; `sessionOnly` keeps it in memory. A stored key replaces a session one and vice versa. */
  setKey(name: string, key: string, sessionOnly: boolean): void {
    if (this.get(name).baseUrl === undefined)
      throw new ProfileError(
        `The profile "${name}" uses the embedded engine, which needs no API key: set the key on a profile with a service address.`,
      );
    if (sessionOnly) {
      this.#session.set(name, key);
      return;
    }
    if (!this.#persistent) {
      throw new KeyStorageError(
        'Keys cannot be stored safely here (no OS keychain in the web host). Keep it for this session only, or store it with the desktop app.',
      );
    }
    this.#persistent.set(name, key);
    this.#session.remove(name);
  }

  removeKey(name: string): boolean {
    this.get(name);
    return this.#forgetKey(name);
  }

  #forgetKey(name: string): boolean {
    const session = this.#session.remove(name);
    const stored = this.#persistent?.remove(name) ?? false;
    return session || stored;
  }

  #stored(): z.output<typeof profilesSetting> {
    return this.#settings.get(PROFILES_KEY, profilesSetting) ?? { active: LOCAL_PROFILE, list: [] };
  }
}
