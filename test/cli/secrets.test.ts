// Secrets on the command line: --api-key works but warns (ps shows it); --api-key-file reads a file or
// standard input; the webhook secret has the same choice. The secret itself is never printed.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileStore, SessionKeyVault } from '../../main/config/profiles.ts';
import { writeKeyFile } from '../../main/config/key-file.ts';
import { databasePath, openDatabase } from '../../main/store/database.ts';
import { KEY, startTestEngine, type TestEngine } from '../engine/helpers.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

let service: TestEngine;

beforeAll(async () => {
  service = await startTestEngine();
});

afterAll(async () => {
  await service.dispose();
});

const env = () => cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
const WARNING =
  /warning: --api-key puts the secret on the command line, where other users of this computer can see it \(ps\).*Use --api-key-file FILE/;

describe('API key options', () => {
  it('--api-key works but warns on stderr that others can see it', async () => {
    const result = await runCli(['list', '--base-url', service.url, '--api-key', KEY, '--json'], env());
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(WARNING);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('--api-key-file reads the key from a file, without a warning', async () => {
    const dir = tempDataDir();
    const file = join(dir, 'key.txt');
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    const result = await runCli(['list', '--base-url', service.url, '--api-key-file', file, '--json'], env());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { results: unknown[] }).results).toBeInstanceOf(Array);
  });

  it('--api-key-file - reads it from standard input', async () => {
    const result = await runCli(
      ['list', '--base-url', service.url, '--api-key-file', '-', '--json'],
      env(),
      `${KEY}\n`,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('a key file others can read works, with a warning; a missing one is bad usage naming it', async () => {
    const dir = tempDataDir();
    const file = join(dir, 'key.txt');
    writeFileSync(file, KEY);
    chmodSync(file, 0o644);
    const open = await runCli(['list', '--base-url', service.url, '--api-key-file', file, '--json'], env());
    expect(open.code).toBe(0);
    expect(open.stderr).toContain(`can be read by other users: run chmod 600 "${file}"`);
    const missing = await runCli(['list', '--base-url', service.url, '--api-key-file', join(dir, 'nope.txt')], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--api-key-file: the file ".*nope\.txt" cannot be read \(ENOENT\)/);
    const both = await runCli(['list', '--base-url', service.url, '--api-key', KEY, '--api-key-file', file], env());
    expect(both.code).toBe(2);
    expect(both.stdout + both.stderr).not.toContain(KEY);
  });
});

describe('the connection of the CLI', () => {
  it('follows the app\'s active profile when no flag or environment sets one (key from "key set")', async () => {
    const dataDir = tempDataDir();
    const store = openDatabase(databasePath(dataDir));
    const profiles = new ProfileStore(store.settings, { session: new SessionKeyVault() });
    profiles.save({ name: 'studio', baseUrl: service.url, legacyBaseUrl: service.legacyUrl });
    profiles.setKey('studio', KEY, true);
    profiles.activate('studio');
    store.close();
    // Saved for the profile's address (`key set --base-url`): a key file bound to no address is never sent to a
    // profile's address, which the app's page can change (test/cli/key-address.test.ts).
    writeKeyFile(dataDir, KEY, { address: service.url, legacyAddress: service.legacyUrl });
    const made = await fetch(`${service.url}/tti-sessions`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'only at the service' }),
    });
    const code = ((await made.json()) as { data: { session_code: string } }).data.session_code;
    const read = await runCli(['get-image', code], cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }));
    expect(read.stderr).toBe('');
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('prompt: only at the service');
  });
});

describe('webhook secret options', () => {
  it('--secret-file - takes the secret from standard input; --secret warns', async () => {
    const secret = `whsec_${Buffer.from('cli webhook secret from stdin 0123').toString('base64')}`;
    const dataEnv = env();
    const fromStdin = await runCli(['webhooks', 'enable', '--port', '0', '--secret-file', '-'], dataEnv, `${secret}\n`);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stderr).toBe('');
    expect(fromStdin.stdout).toMatch(/verified with your secret/);
    const inline = await runCli(['webhooks', 'enable', '--port', '0', '--secret', secret], dataEnv);
    expect(inline.code).toBe(0);
    expect(inline.stderr).toMatch(/warning: --secret puts the secret on the command line.*Use --secret-file FILE/);
    expect(fromStdin.stdout + inline.stdout + inline.stderr).not.toContain(secret);
  });
});
