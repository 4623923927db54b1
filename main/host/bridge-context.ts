// What the bridge's command handlers share (bridge-jobs.ts, bridge-cache.ts, bridge-files.ts): the app
// session, the transport's platform, the events, and the lookup of a job a command names. Each handler
// module answers one group of commands; bridge-service.ts parses, calls them and redacts.
import type * as z from 'zod';
import type { COMMANDS, CommandName, CommandOutput } from '../../shared/bridge/contract.ts';
import type { AppSession } from '../app/app-session.ts';
import type { Services } from '../app/services.ts';
import type { KeyVault } from '../config/profiles.ts';
import type { CacheEntry } from '../store/cache-entries.ts';
import type { JobRecord } from '../store/jobs.ts';
import type { BridgeEvents } from './bridge-events.ts';
import { notFound } from './errors.ts';

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

/** A command's input as its handler gets it: parsed by its schema (shared/bridge/contract.ts CommandInput is what a caller sends). */
type ParsedInput<C extends CommandName> = z.output<(typeof COMMANDS)[C]['input']>;
/** The handlers of some commands (all of them: `Handlers`), each given its parsed input. */
export type Handlers<C extends CommandName = CommandName> = {
  [K in C]: (input: ParsedInput<K>) => Promise<CommandOutput<K>>;
};

export interface BridgeContext {
  readonly session: AppSession;
  readonly platform: HostPlatform;
  readonly events: BridgeEvents;
  /** The services of the active connection (rebuilt when the connection changes: read it each time). */
  services(): Services;
}

/** The job a command names, by its local id or its session's id. */
export function jobOf(ctx: BridgeContext, id: string): JobRecord {
  const store = ctx.services().store;
  const job = store.jobs.get(id) ?? store.jobs.findByRemoteId(id);
  if (!job)
    throw notFound(
      `There is no job "${id}" in this app. It may belong to another profile or data folder; refresh the job list.`,
    );
  return job;
}

/** A picture's URL with its bytes' version (`?v=`, ignored by the file route), so a new render under the same output is not taken from the browser's cache. */
export function pictureUrl(ctx: BridgeContext, entry: CacheEntry): string {
  const url = ctx.platform.cacheUrl(entry.sessionId, entry.kind);
  return entry.sha256 === null ? url : `${url}?v=${entry.sha256.slice(0, 12)}`;
}
