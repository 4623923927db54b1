// engine and key: run the local engine in the foreground; manage the CLI's API key file.
import { join } from 'node:path';
import { webhookSettings } from '../app/app-settings.ts';
import { startLocalEngine } from '../app/services.ts';
import { printJson } from './context.ts';
import { hasKeyFile, keyFilePath, removeKeyFile, writeKeyFile } from '../config/settings.ts';
import { str, type CommandContext } from './context.ts';
import { readSecretOption } from './secret-options.ts';
import { parseNumber, UsageError } from './values.ts';

export const ENGINE_OPTIONS = { port: { type: 'string' }, 'legacy-port': { type: 'string' } } as const;
export const WEBHOOK_OPTIONS = { port: { type: 'string' }, host: { type: 'string' }, path: { type: 'string' }, secret: { type: 'string' }, 'secret-file': { type: 'string' } } as const;

export async function engineCommand(ctx: CommandContext, speed: number | undefined): Promise<number> {
  const port = str(ctx.values, 'port');
  const legacyPort = str(ctx.values, 'legacy-port');
  const keyFile = join(ctx.settings.dataDir, 'engine-key');
  const engine = await startLocalEngine(ctx.settings.dataDir, {
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

export async function keyCommand(ctx: CommandContext): Promise<number> {
  const { settings, io } = ctx;
  const action = ctx.positionals[0];
  if (action === 'set') {
    const key = (await io.readStdin()).split(/\r?\n/)[0]?.trim() ?? '';
    if (key === '') throw new UsageError('no key given: pipe it on standard input, e.g. asset-studio key set < key.txt');
    io.stdout(`API key saved to ${writeKeyFile(settings.dataDir, key)} (readable by you only).\n`);
    return 0;
  }
  if (action === 'remove') {
    io.stdout(removeKeyFile(settings.dataDir) ? 'API key removed.\n' : `No API key file at ${keyFilePath(settings.dataDir)}.\n`);
    return 0;
  }
  if (action === 'status') {
    const fromEnv = io.env.ASSET_STUDIO_API_KEY ? 'ASSET_STUDIO_API_KEY is set' : undefined;
    const fromFile = hasKeyFile(settings.dataDir) ? `the key file ${keyFilePath(settings.dataDir)} exists` : undefined;
    const where = [fromEnv, fromFile].filter(Boolean).join('; ');
    io.stdout(where ? `An API key is configured (not shown): ${where}.\n` : 'No API key is configured: commands use the embedded local engine.\n');
    return 0;
  }
  throw new UsageError('usage: asset-studio key set|remove|status');
}

/** webhooks enable|disable|status: the receiver used while jobs are followed (wait, watch, --wait). */
export async function webhooksCommand(ctx: CommandContext): Promise<number> {
  const action = ctx.positionals[0];
  const secret = action === 'enable' ? await readSecretOption(ctx.values, ctx.io, { value: 'secret' }) : undefined;
  if (secret) ctx.secrets.push(secret.value);
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
      if (!next.success) throw new UsageError(`invalid webhook settings: ${next.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      settings.set('webhooks', next.data);
      ctx.io.stdout(action === 'enable'
        ? `Webhooks on: while jobs are followed, notifications are received at http://${next.data.host}:${next.data.port}${next.data.path}${next.data.secret ? ' and verified with your secret' : ' (not verified: set --secret-file to verify signatures)'}. Register that address with the service.\n`
        : 'Webhooks off: jobs are followed by polling.\n');
      return 0;
    }
    if (action === 'status') {
      const shown = { ...current, secret: current.secret ? '(set, not shown)' : undefined };
      if (ctx.values.json) printJson(ctx.io, shown);
      else ctx.io.stdout(`${Object.entries(shown).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${String(v)}`).join('\n')}\n`);
      return 0;
    }
    throw new UsageError('usage: asset-studio webhooks enable [--port N] [--host H] [--path /p] [--secret-file FILE|-] | disable | status');
  } finally {
    await services.close();
  }
}
