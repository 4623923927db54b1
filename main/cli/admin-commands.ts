// engine, key and webhooks: run the local engine in the foreground; manage the CLI's API key file; the
// webhook receiver. Their options are in command-table.ts.
import { join } from 'node:path';
import { printJson } from './context.ts';
import { hasKeyFile, keyFilePath, removeKeyFile, writeKeyFile } from '../config/key-file.ts';
import { resolveCliConnection, str, type CommandContext } from './context.ts';
import { displayAddress } from '../app/connection.ts';
import { SERVICE_ADDRESS } from '../config/profiles.ts';
import { readSecretOption } from './secret-options.ts';
import { parseNumber } from './values.ts';
import { UsageError } from './usage-error.ts';

export async function engineCommand(ctx: CommandContext, speed: number | undefined): Promise<number> {
  const port = str(ctx.values, 'port');
  const legacyPort = str(ctx.values, 'legacy-port');
  const keyFile = join(ctx.settings.dataDir, 'engine-key');
  const { startDataFolderEngine } = await import('../app/services.ts'); // the engine: loaded by this command only
  const engine = await startDataFolderEngine(ctx.settings.dataDir, {
    ...(port !== undefined && { port: parseNumber('port', port) }),
    ...(legacyPort !== undefined && { legacyPort: parseNumber('legacy-port', legacyPort) }),
    ...(speed !== undefined && { speed }),
  });
  if (ctx.values.json) {
    ctx.io.stdout(`${JSON.stringify({ url: engine.url, legacyUrl: engine.legacyUrl, keyFile })}\n`);
  } else {
    ctx.io.stdout(
      [
        `Local engine listening on ${engine.url} (legacy address ${engine.legacyUrl}).`,
        'Commands with the same --data-dir use it. From another program or data folder:',
        `  export ASSET_STUDIO_BASE_URL=${engine.url} ASSET_STUDIO_LEGACY_BASE_URL=${engine.legacyUrl}`,
        `  export ASSET_STUDIO_API_KEY="$(cat '${keyFile}')"`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  }
  await new Promise<void>((resolve) => ctx.io.interrupt.addEventListener('abort', () => resolve(), { once: true }));
  await engine.close();
  return 0;
}

/** key set | remove | status; with --json each answers an object (the key itself is never in it). */
export async function keyCommand(ctx: CommandContext): Promise<number> {
  const { settings, io } = ctx;
  const action = ctx.positionals[0];
  const answer = (value: Record<string, unknown>, text: string) =>
    ctx.values.json ? printJson(io, value) : io.stdout(`${text}\n`);
  if (action === 'set') {
    const key = (await io.readStdin()).split(/\r?\n/)[0]?.trim() ?? '';
    if (key === '')
      throw new UsageError('no key given: pipe it on standard input, e.g. asset-studio key set < key.txt');
    // Bound to the address given now (--base-url or ASSET_STUDIO_BASE_URL): it is sent to no other.
    const bound = boundAddresses(ctx);
    const path = writeKeyFile(settings.dataDir, key, bound);
    answer(
      { saved: true, keyFile: path, ...bound },
      `API key saved to ${path} (readable by you only)${bound.address ? `, for ${bound.address} only` : ''}.`,
    );
    return 0;
  }
  if (action === 'remove') {
    const path = keyFilePath(settings.dataDir);
    const removed = removeKeyFile(settings.dataDir);
    answer({ removed, keyFile: path }, removed ? 'API key removed.' : `No API key file at ${path}.`);
    return 0;
  }
  if (action === 'status') {
    const env = Boolean(io.env.ASSET_STUDIO_API_KEY);
    const file = hasKeyFile(settings.dataDir) ? keyFilePath(settings.dataDir) : null;
    const where = [env && 'ASSET_STUDIO_API_KEY is set', file && `the key file ${file} exists`]
      .filter(Boolean)
      .join('; ');
    const connection = await connectionInUse(ctx);
    answer(
      { configured: env || file !== null, environment: env, keyFile: file, connection },
      `${where ? `An API key is configured (not shown): ${where}.` : 'No API key is configured.'} ${connection.text}`,
    );
    return 0;
  }
  throw new UsageError('usage: asset-studio key set|remove|status');
}

/** The addresses a key set now is for: --base-url / --legacy-base-url, else the environment's. */
function boundAddresses(ctx: CommandContext): { address?: string; legacyAddress?: string } {
  const given = (flag: string, env: string, name: string) => {
    const text = (str(ctx.values, flag) ?? ctx.io.env[env])?.trim();
    if (!text) return undefined;
    if (!SERVICE_ADDRESS.test(text))
      throw new UsageError(`${name} must be an http:// or https:// address (got "${text}")`);
    return text;
  };
  const address = given('base-url', 'ASSET_STUDIO_BASE_URL', '--base-url');
  const legacyAddress = given('legacy-base-url', 'ASSET_STUDIO_LEGACY_BASE_URL', '--legacy-base-url');
  return { ...(address !== undefined && { address }), ...(legacyAddress !== undefined && { legacyAddress }) };
}

/** What the other commands would connect to, and why (the one resolver; its error said, not thrown). */
async function connectionInUse(
  ctx: CommandContext,
): Promise<{ mode: string; origin: string; text: string } | { mode: 'unresolved'; text: string }> {
  try {
    const c = await resolveCliConnection(ctx.values, ctx.io, ctx.secrets);
    if (c.mode === 'local-engine')
      return {
        mode: c.mode,
        origin: c.origin,
        text: 'Commands use the embedded local engine (no service address is set).',
      };
    const from =
      c.origin === 'flag'
        ? 'the --base-url flag'
        : c.origin === 'environment'
          ? 'ASSET_STUDIO_BASE_URL'
          : `the app's profile "${c.profile ?? ''}"`;
    return {
      mode: c.mode,
      origin: c.origin,
      text: `Commands use the service at ${displayAddress(c.baseUrl ?? '')} (from ${from}).`,
    };
  } catch (error) {
    return { mode: 'unresolved', text: `Commands cannot connect as configured: ${(error as Error).message}` };
  }
}

/** webhooks enable|disable|status: the receiver used while jobs are followed (wait, watch, --wait). */
export async function webhooksCommand(ctx: CommandContext): Promise<number> {
  const action = ctx.positionals[0];
  const secret = action === 'enable' ? await readSecretOption(ctx.values, ctx.io, { value: 'secret' }) : undefined;
  if (secret) ctx.secrets.push(secret.value);
  const { webhookSettings } = await import('../app/setting-schemas.ts'); // with the cache's output formats: not for `key`
  const services = await ctx.services();
  try {
    const settings = services.store.settings;
    const current = settings.get('webhooks', webhookSettings) ?? webhookSettings.parse({});
    if (action === 'enable' || action === 'disable') {
      const port = str(ctx.values, 'port');
      const next = webhookSettings.safeParse({
        ...current,
        enabled: action === 'enable',
        ...(port !== undefined && { port: parseNumber('port', port) }),
        ...(str(ctx.values, 'host') !== undefined && { host: str(ctx.values, 'host') }),
        ...(str(ctx.values, 'path') !== undefined && { path: str(ctx.values, 'path') }),
        ...(secret && { secret: secret.value }),
      });
      if (!next.success)
        throw new UsageError(
          `invalid webhook settings: ${next.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      settings.set('webhooks', next.data);
      if (ctx.values.json)
        printJson(ctx.io, { ...next.data, secret: next.data.secret ? '(set, not shown)' : undefined });
      else
        ctx.io.stdout(
          action === 'enable'
            ? `Webhooks on: while jobs are followed, notifications are received at http://${next.data.host}:${next.data.port}${next.data.path}${next.data.secret ? ' and verified with your secret' : ' (not verified: set --secret-file to verify signatures)'}. Register that address with the service.\n`
            : 'Webhooks off: jobs are followed by polling.\n',
        );
      return 0;
    }
    if (action === 'status') {
      const shown = { ...current, secret: current.secret ? '(set, not shown)' : undefined };
      if (ctx.values.json) printJson(ctx.io, shown);
      else
        ctx.io.stdout(
          `${Object.entries(shown)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => `${k}: ${String(v)}`)
            .join('\n')}\n`,
        );
      return 0;
    }
    throw new UsageError(
      'usage: asset-studio webhooks enable [--port N] [--host H] [--path /p] [--secret-file FILE|-] | disable | status',
    );
  } finally {
    await services.close();
  }
}
