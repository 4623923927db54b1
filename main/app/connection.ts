// The one resolver of the connection and its API key, for the CLI, the web host and the desktop app.
// Each part is taken from the first source that has it: command-line flags, then the environment
// (ASSET_STUDIO_BASE_URL, ASSET_STUDIO_LEGACY_BASE_URL, ASSET_STUDIO_API_KEY), then the app's saved
// active profile, then the embedded local engine. A key with no address anywhere goes to the public service's
// documented addresses (the built-in profile "csm", main/config/profiles.ts PUBLIC_SERVICE). A pure function: the callers read the sources (files,
// the profile store, standard input) and pass them in; the answer says where the connection comes from,
// so the UI and the CLI can show it. The key is in the answer for the client only: views never carry it.
import * as z from 'zod';
import type { CONNECTION_ORIGINS, ConnectionView, KEY_SOURCES } from '../../shared/bridge/contract.ts';
import { describeIssues, issuesToText } from '../../shared/contract/issues.ts';
import {
  KeyStorageError,
  LOCAL_PROFILE,
  PUBLIC_SERVICE,
  SERVICE_ADDRESS,
  SERVICE_PROFILE,
  type ProfileStore,
} from '../config/profiles.ts';
import { SettingsError, type ConnectionSettings } from '../config/data-dir.ts';

export type ConnectionOrigin = (typeof CONNECTION_ORIGINS)[number];
export type KeySource = (typeof KEY_SOURCES)[number];

/** The app's active profile as saved, with its key when this process can read it. */
export const savedProfileSchema = z.object({
  profile: z.string().min(1),
  baseUrl: z.string().optional(),
  legacyBaseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  /** Why its key cannot be read here (e.g. the keychain changed), when that is the case. */
  keyProblem: z.string().optional(),
});
export type SavedProfile = z.output<typeof savedProfileSchema>;

export const connectionSourcesSchema = z.object({
  dataDir: z.string().min(1),
  flags: z
    .object({
      baseUrl: z.string().optional(),
      legacyBaseUrl: z.string().optional(),
      apiKey: z.string().optional(),
      /** How the flag's key was given: --api-key (argument), --api-key-file FILE (file) or --api-key-file - (stdin). */
      apiKeyFrom: z.enum(['argument', 'file', 'stdin']).default('argument'),
    })
    .default({ apiKeyFrom: 'argument' }),
  env: z.record(z.string(), z.string().optional()).default({}),
  /** The active profile of the app (undefined: no database yet, or the caller has none). */
  saved: savedProfileSchema.optional(),
  /** The key saved by `asset-studio key set` (the 0600 key file of the data folder). */
  keyFile: z.string().optional(),
  /** The addresses that key was set for, when it was set for some: it is sent to no other. */
  keyFileBound: z.object({ address: z.string().optional(), legacyAddress: z.string().optional() }).optional(),
  /**
   * The public service's addresses, where a key given with no address goes: PUBLIC_SERVICE unless a test
   * stands a local server in (the same addresses as the ProfileStore's "csm" profile: AppSessionOptions.publicService).
   */
  publicService: z.object({ baseUrl: z.string(), legacyBaseUrl: z.string() }).optional(),
});
export type ConnectionSources = z.input<typeof connectionSourcesSchema>;

export interface ResolvedConnection extends ConnectionSettings {
  mode: 'service' | 'local-engine';
  origin: ConnectionOrigin;
  keySource: KeySource;
  /** The profile the connection comes from (origin `profile`), or the active one it overrides. */
  profile?: string | undefined;
  /** Something to tell the user: `warning` when it is likely a mistake (a saved key that is not used). */
  note?: { text: string; level: 'info' | 'warning' } | undefined;
}

export type ConnectionProblem = 'invalid' | 'key-missing' | 'profile-key-missing';

/** The sources contradict each other or a value is wrong; the message names the option and what to do. */
export class ConnectionError extends SettingsError {
  override readonly name = 'ConnectionError';
  readonly problem: ConnectionProblem;
  constructor(problem: ConnectionProblem, message: string) {
    super(message, 'connection');
    this.problem = problem;
  }
}

const ENV = {
  baseUrl: 'ASSET_STUDIO_BASE_URL',
  legacyBaseUrl: 'ASSET_STUDIO_LEGACY_BASE_URL',
  apiKey: 'ASSET_STUDIO_API_KEY',
} as const;
const KEY_NAMES: Record<'argument' | 'file' | 'stdin', string> = {
  argument: '--api-key',
  file: '--api-key-file',
  stdin: '--api-key-file -',
};
const HOW_TO_GIVE_A_KEY =
  'pass --api-key-file FILE (or --api-key-file - to read it from standard input), set ASSET_STUDIO_API_KEY, or run "asset-studio key set"';

function clean(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function checkUrl(value: string | undefined, name: string): string | undefined {
  if (value !== undefined && !SERVICE_ADDRESS.test(value)) {
    throw new ConnectionError(
      'invalid',
      `${name} must be an http:// or https:// address, e.g. ${PUBLIC_SERVICE.baseUrl} (got "${value}").`,
    );
  }
  return value;
}

/** Resolves the connection: flags > environment > saved profile > embedded engine. Throws ConnectionError. */
export function resolveConnection(sources: ConnectionSources): ResolvedConnection {
  // process.env is not a plain object: copied, so the schema sees its entries.
  const parsed = connectionSourcesSchema.safeParse({ ...sources, ...(sources.env && { env: { ...sources.env } }) });
  if (!parsed.success)
    throw new ConnectionError(
      'invalid',
      `The connection settings are invalid: ${issuesToText(describeIssues(parsed.error))}.`,
    );
  const { dataDir, flags, env, saved, keyFile, keyFileBound } = parsed.data;
  const publicService = parsed.data.publicService ?? PUBLIC_SERVICE;

  const flagUrl = checkUrl(clean(flags.baseUrl), '--base-url');
  const envUrl = checkUrl(clean(env[ENV.baseUrl]), ENV.baseUrl);
  const legacy =
    checkUrl(clean(flags.legacyBaseUrl), '--legacy-base-url') ??
    checkUrl(clean(env[ENV.legacyBaseUrl]), ENV.legacyBaseUrl);
  const flagKey = clean(flags.apiKey);
  const envKey = clean(env[ENV.apiKey]);
  const explicitKey =
    flagKey !== undefined
      ? { key: flagKey, source: flags.apiKeyFrom, name: KEY_NAMES[flags.apiKeyFrom] }
      : envKey !== undefined
        ? { key: envKey, source: 'environment' as const, name: ENV.apiKey }
        : undefined;
  const savedKey = clean(keyFile);
  const profileUrl =
    saved?.baseUrl === undefined
      ? undefined
      : checkUrl(clean(saved.baseUrl), `The saved address of profile "${saved.profile}"`);

  const address =
    flagUrl !== undefined
      ? { origin: 'flag' as const, baseUrl: flagUrl, name: '--base-url' }
      : envUrl !== undefined
        ? { origin: 'environment' as const, baseUrl: envUrl, name: ENV.baseUrl }
        : profileUrl !== undefined && saved
          ? { origin: 'profile' as const, baseUrl: profileUrl, name: `the profile "${saved.profile}"` }
          : undefined;

  if (address === undefined) {
    // The key file goes there only when it was set for those addresses, or for none (one set for an address
    // alone goes to no older variants' address).
    const fileLegacy =
      legacy ??
      (keyFileBound?.address !== undefined && keyFileBound.legacyAddress === undefined
        ? undefined
        : publicService.legacyBaseUrl);
    const fileFits = savedKey !== undefined && keyFileFits(keyFileBound, publicService.baseUrl, fileLegacy);
    const key = explicitKey ?? (fileFits ? { key: savedKey, source: 'key-file' as const } : undefined);
    if (key === undefined)
      return {
        dataDir,
        mode: 'local-engine',
        origin: 'engine',
        keySource: 'engine',
        ...(savedKey !== undefined && {
          note: {
            level: 'warning',
            text: `The API key saved by "asset-studio key set" is not used: it was set for ${boundText(keyFileBound)}, and no service address is set (pass --base-url or set ${ENV.baseUrl}), so the embedded local engine is used.`,
          },
        }),
        // A profile of the user's with no address cannot reach a service: said, never a silent fall back.
        ...(savedKey === undefined &&
          saved !== undefined &&
          saved.profile !== LOCAL_PROFILE && {
            note: {
              level: 'warning',
              text: `The active profile "${saved.profile}" has no service address, so the embedded local engine is used. Set its address in Settings (or asset-studio's --base-url), or switch to the "${LOCAL_PROFILE}" profile.`,
            },
          }),
      };
    // A key and no address: the public service, at its documented addresses (the built-in profile "csm").
    const from = 'name' in key ? key.name : '"asset-studio key set"';
    const engine = 'name' in key ? 'give no key' : 'remove it ("asset-studio key remove")';
    return {
      dataDir,
      baseUrl: publicService.baseUrl,
      legacyBaseUrl: explicitKey ? (legacy ?? publicService.legacyBaseUrl) : fileLegacy,
      apiKey: key.key,
      mode: 'service',
      origin: 'profile',
      keySource: key.source,
      profile: SERVICE_PROFILE,
      note: {
        level: 'info',
        text: `No service address is set, so the key from ${from} goes to the public service at ${displayAddress(publicService.baseUrl)} (the "${SERVICE_PROFILE}" profile). To use another service, pass --base-url or set ${ENV.baseUrl}; to use the embedded local engine, ${engine}.`,
      },
    };
  }

  const fromProfile = address.origin === 'profile' && saved ? saved : undefined;
  const legacyBaseUrl = legacy ?? fromProfile?.legacyBaseUrl;
  // The key file's key goes only to the addresses it was set for (when it was set for some).
  const keyFileElsewhere = savedKey !== undefined && !keyFileFits(keyFileBound, address.baseUrl, legacyBaseUrl);
  const key = explicitKey
    ? { key: explicitKey.key, source: explicitKey.source }
    : // A profile's own key is sent to that profile's address only, never to one from a flag or the environment.
      fromProfile?.apiKey !== undefined
      ? { key: fromProfile.apiKey, source: 'profile' as const }
      : // A key file set for no address goes to a flag's or the environment's address (given by whoever runs
        // the command), never to a profile's, which the app's page may change: only one set for that address.
        savedKey !== undefined &&
          !keyFileElsewhere &&
          (fromProfile === undefined || keyFileBound?.address !== undefined)
        ? { key: savedKey, source: 'key-file' as const }
        : undefined;
  if (key === undefined && keyFileElsewhere && !fromProfile) {
    const bound = boundText(keyFileBound);
    const asked = [address.baseUrl, legacyBaseUrl].filter((a) => a !== undefined).join(' and ');
    throw new ConnectionError(
      'key-missing',
      `The API key saved by "asset-studio key set" was set for ${bound}, not ${asked}: a key is only sent to the address it was set for. Set it again for this address (asset-studio key set --base-url ${address.baseUrl}${legacyBaseUrl ? ` --legacy-base-url ${legacyBaseUrl}` : ''} < key.txt), or ${HOW_TO_GIVE_A_KEY}.`,
    );
  }
  if (key === undefined) {
    if (fromProfile) {
      const why =
        fromProfile.keyProblem?.replace(/\.$/, '') ??
        (savedKey !== undefined && keyFileBound?.address === undefined
          ? `the key saved by "asset-studio key set" was set for no address, so it is not sent to a profile's (set it for this one: asset-studio key set --base-url ${address.baseUrl} < key.txt)`
          : "no key is stored for it that this program can read (a session-only key is forgotten when the app quits; the command line cannot read the desktop app's keychain)");
      throw new ConnectionError(
        'profile-key-missing',
        `The active profile "${fromProfile.profile}" (${address.baseUrl}) has no API key here: ${why}. Set its key in Settings, or ${HOW_TO_GIVE_A_KEY}; or switch to the "local" profile.`,
      );
    }
    throw new ConnectionError(
      'key-missing',
      `A service address is set (${address.name}) but no API key: ${HOW_TO_GIVE_A_KEY}.`,
    );
  }

  const overridden = saved?.baseUrl !== undefined && !fromProfile ? saved.profile : undefined;
  return {
    dataDir,
    baseUrl: address.baseUrl,
    legacyBaseUrl,
    apiKey: key.key,
    mode: 'service',
    origin: address.origin,
    keySource: key.source,
    ...((fromProfile ?? overridden) !== undefined && { profile: fromProfile?.profile ?? overridden }),
    ...(overridden !== undefined && {
      note: { level: 'info', text: `The saved profile "${overridden}" is not used while ${address.name} is set.` },
    }),
  };
}

/** The addresses the key saved by "asset-studio key set" was set for (none: it goes to any address given). */
type KeyFileBinding = z.output<typeof connectionSourcesSchema>['keyFileBound'];

/**
 * Whether the key saved by "asset-studio key set" may be sent to these addresses: one set for no address may
 * go anywhere; one set for an address only there, and to an older variants' address only the one it was set for
 * (one set for an address alone goes to none).
 */
function keyFileFits(bound: KeyFileBinding, baseUrl: string, legacyBaseUrl: string | undefined): boolean {
  if (bound?.address !== undefined && !sameAddress(bound.address, baseUrl)) return false;
  if (legacyBaseUrl === undefined) return true;
  return bound?.legacyAddress !== undefined
    ? sameAddress(bound.legacyAddress, legacyBaseUrl)
    : bound?.address === undefined;
}

const boundText = (bound: KeyFileBinding): string =>
  [bound?.address, bound?.legacyAddress].filter((a) => a !== undefined).join(' and ') || 'another address';

/** Do two service addresses name the same place (scheme, host, port, path; a trailing slash aside)? */
export function sameAddress(a: string, b: string): boolean {
  const normal = (text: string) => {
    try {
      const url = new URL(text);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return text;
    }
  };
  return normal(a) === normal(b);
}

/** What the UI may see of a connection: never the key. */
export function connectionView(connection: ResolvedConnection): ConnectionView {
  return {
    origin: connection.origin,
    mode: connection.mode,
    ...(connection.baseUrl !== undefined && { address: displayAddress(connection.baseUrl) }),
    ...(connection.profile !== undefined && { profile: connection.profile }),
    keySource: connection.keySource,
    ...(connection.note !== undefined && { note: connection.note.text }),
  };
}

/** An address to show: scheme, host and path; user info and query (which may hold credentials) left out. */
export function displayAddress(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(an address that cannot be read)';
  }
}

/** The active profile of a profile store, read once (a key that cannot be decrypted is kept as the reason). */
export function savedProfile(profiles: ProfileStore): SavedProfile {
  const name = profiles.activeName();
  const profile = profiles.get(name);
  if (profile.baseUrl === undefined) return { profile: name };
  try {
    const apiKey = profiles.key(name);
    return {
      profile: name,
      baseUrl: profile.baseUrl,
      ...(profile.legacyBaseUrl !== undefined && { legacyBaseUrl: profile.legacyBaseUrl }),
      ...(apiKey !== undefined && { apiKey }),
    };
  } catch (error) {
    if (!(error instanceof KeyStorageError)) throw error;
    return {
      profile: name,
      baseUrl: profile.baseUrl,
      ...(profile.legacyBaseUrl !== undefined && { legacyBaseUrl: profile.legacyBaseUrl }),
      keyProblem: error.message,
    };
  }
}
