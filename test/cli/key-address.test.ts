// Issue #26, item 2, on the command line: the key saved by `asset-studio key set --base-url A` is bound to A.
// A command run with another address (flag or environment) never sends it there: a test server at the new
// address sees no `x-api-key` carrying it, and the error says how to set a key for that address.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

const KEY = 'sk_live_CLI_KEY_BOUND_4471';

interface Spy {
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A stand-in service that records every request's headers and answers an empty list. */
async function startSpy(): Promise<Spy> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Unauthorized', message: 'no', statusCode: 401 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let a: Spy;
let b: Spy;
beforeAll(async () => {
  [a, b] = await Promise.all([startSpy(), startSpy()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

const keysSeen = (spy: Spy) => spy.seen.filter((h) => h['x-api-key'] === KEY).length;

describe('the key file is bound to its address', () => {
  it('is sent to the address it was set for, and never to another (flag or environment)', async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const set = await runCli(['key', 'set', '--base-url', a.url], env, `${KEY}\n`);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`for ${a.url} only`);

    await runCli(['list', '--base-url', a.url], env);
    expect(keysSeen(a)).toBeGreaterThan(0);

    const elsewhere = await runCli(['list', '--base-url', b.url], env);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`was set for ${a.url}, not ${b.url}`);
    const viaEnv = await runCli(['list'], { ...env, ASSET_STUDIO_BASE_URL: `${b.url}/` });
    expect(viaEnv.code).toBe(2);
    const viaLegacy = await runCli(['list', '--base-url', a.url, '--legacy-base-url', b.url], env);
    expect(viaLegacy.code).toBe(2);
    expect(b.seen).toEqual([]);
    expect(`${elsewhere.stderr}${viaEnv.stderr}`).not.toContain(KEY);
  });
});
