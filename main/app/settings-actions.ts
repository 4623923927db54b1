// The app's settings as the user sees and changes them (profiles, webhooks, cache, export defaults,
// output formats, target profiles): one view, and one update that saves what was given and rebuilds the services when
// the connection, the webhook receiver or the cache changed.
import type * as z from 'zod';
import type { COMMANDS, SettingsView } from '../../shared/bridge/contract.ts';
import { describeIssues } from '../../shared/contract/issues.ts';
import { invalidInput } from '../../shared/errors.ts';
import { CacheFolderError, cacheOwnerId, claimCacheFolder } from '../cache/folder.ts';
import { copyCacheFiles, removeOldCacheFiles, type CacheMove, type MoveProgress } from '../cache/move-folder.ts';
import type { OutputFormat } from '../cache/outputs.ts';
import { formatBytes } from '../../shared/format-bytes.ts';
import { targetProfilesSetting } from '../../shared/setting-fields.ts';
import type { SettingsRepository } from '../store/settings-table.ts';
import type { AppSession } from './app-session.ts';
import { profileView } from './profile-actions.ts';
import {
  cacheSettings,
  DEFAULT_FORMATS,
  exportSettings,
  outputFormatsSetting,
  webhookSettings,
} from './setting-schemas.ts';

export type SettingsUpdate = z.output<(typeof COMMANDS)['settings.update']['input']>;

export function settingsView(session: AppSession): SettingsView {
  const { settings, profiles } = session;
  const hooks = settings.get('webhooks', webhookSettings) ?? webhookSettings.parse({});
  const { cache } = session.services;
  return {
    profiles: profiles.list().map((p) => profileView(session, p.name)),
    activeProfile: profiles.activeName(),
    webhooks: {
      enabled: hooks.enabled,
      host: hooks.host,
      port: hooks.port,
      path: hooks.path,
      secretSet: hooks.secret !== undefined,
    },
    cache: { dir: cache.dir, maxBytes: cache.maxBytes, usedBytes: cache.usage().bytes },
    export: settings.get('export', exportSettings) ?? {},
    outputFormats: savedOutputFormats(settings),
    targetProfiles: settings.get('targetProfiles', targetProfilesSetting) ?? { edits: {} },
  };
}

/** The formats of a finished job that are downloaded, as saved (GLB always). */
export function savedOutputFormats(settings: SettingsRepository): OutputFormat[] {
  return settings.get('outputFormats', outputFormatsSetting) ?? [...DEFAULT_FORMATS];
}

/** Saves what `update` gives; `notice`: a line for the user (e.g. the cache folder chosen is a subfolder). */
export async function updateSettings(
  session: AppSession,
  update: SettingsUpdate,
  notice: (line: string) => void,
): Promise<SettingsView> {
  const { settings, profiles } = session;
  // First, so a refused folder changes nothing: the folder the cache will use, its own (see cache/folder.ts).
  const cacheDir = update.cache?.dir === undefined ? undefined : claimCacheDir(session, update.cache.dir, notice);
  // The cached files go with the folder (copied before anything is saved: a move that fails changes nothing).
  const from = session.services.cache.dir;
  const move =
    cacheDir !== undefined && cacheDir !== from ? await copyCache(session, from, cacheDir, notice) : undefined;
  if (update.outputFormats) {
    const formats = outputFormatsSetting.safeParse(update.outputFormats);
    if (!formats.success)
      throw invalidInput(
        'The settings',
        describeIssues(formats.error).map((x) => ({ ...x, path: `outputFormats${x.path === '(body)' ? '' : x.path}` })),
      );
    settings.set('outputFormats', formats.data);
  }
  // Parsed by the bridge's schema already (targetProfilesSetting: known names, edits within each profile's rules).
  if (update.targetProfiles) settings.set('targetProfiles', update.targetProfiles);
  if (update.profile) profiles.save(update.profile);
  if (update.export) settings.set('export', update.export);
  let rebuild = update.activeProfile !== undefined && update.activeProfile !== profiles.activeName();
  if (update.activeProfile !== undefined) profiles.activate(update.activeProfile);
  if (update.profile && update.profile.name === profiles.activeName()) rebuild = true;
  if (update.webhooks) {
    const current = settings.get('webhooks', webhookSettings) ?? webhookSettings.parse({});
    settings.set('webhooks', webhookSettings.parse({ ...current, ...update.webhooks }));
    if (update.webhooks.secret) session.secrets.add(update.webhooks.secret);
    rebuild = true;
  }
  if (update.cache) {
    settings.set('cache', {
      ...settings.get('cache', cacheSettings),
      ...update.cache,
      ...(cacheDir !== undefined && { dir: cacheDir }),
    });
    rebuild = true;
  }
  if (rebuild) await session.rebuild();
  if (move && cacheDir !== undefined) await finishMove(session, from, cacheDir, move, notice);
  return settingsView(session);
}

/** Copies the cache's files to its new folder, saying how far it got; refused (nothing changed) when one fails. */
async function copyCache(
  session: AppSession,
  from: string,
  to: string,
  notice: (line: string) => void,
): Promise<CacheMove> {
  let said = 0;
  const onProgress = (p: MoveProgress) => {
    if (p.files < p.totalFiles && Date.now() - said < 1000) return;
    said = Date.now();
    notice(
      `Moving the cache to ${to}: ${p.files} of ${p.totalFiles} file(s), ${formatBytes(p.bytes)} of ${formatBytes(p.totalBytes)}.`,
    );
  };
  try {
    const move = await copyCacheFiles(session.services.store, from, to, { onProgress });
    if (move.missing.length > 0)
      notice(
        `${move.missing.length} cached output(s) were missing from ${from}: they are downloaded again when next needed.`,
      );
    return move;
  } catch (error) {
    if (error instanceof CacheFolderError)
      throw invalidInput('The cache folder', [{ path: 'cache.dir', message: error.message }]);
    throw error;
  }
}

/**
 * Once the new folder is in use: copies what finished downloading into the old one meanwhile, then removes the
 * old folder's files. Left in place when the new cache is not in the folder moved to (it could not be opened).
 */
async function finishMove(
  session: AppSession,
  from: string,
  to: string,
  move: CacheMove,
  notice: (line: string) => void,
): Promise<void> {
  const { cache, store } = session.services;
  if (cache.dir !== to) return;
  try {
    const late = await copyCacheFiles(store, from, to, { done: move.copied });
    await removeOldCacheFiles(from, cacheOwnerId(session.settingsDb), late.copied);
    notice(`The cache moved to ${to} (${late.copied.size} file(s)); its old folder ${from} was emptied.`);
  } catch (error) {
    notice(`warning: ${(error as Error).message}`);
  }
}

/** The chosen folder, or its subfolder when it holds other files; refused when neither can be the cache's. */
function claimCacheDir(session: AppSession, chosen: string, notice: (line: string) => void): string {
  try {
    return claimCacheFolder(chosen, cacheOwnerId(session.settingsDb), { notice });
  } catch (error) {
    if (error instanceof CacheFolderError)
      throw invalidInput('The cache folder', [{ path: 'cache.dir', message: error.message }]);
    throw error;
  }
}
