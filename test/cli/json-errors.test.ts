// With --json a pipeline parses one format: the result, or {"error": {"code", "message", "exitCode"}}.
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, tempDataDir, type CliResult } from './run-cli.ts';

const SECRET = 'sk_live_JSON_ERRORS_0123456789abcdef';

interface JsonError {
  error: { code: string; message: string; exitCode: number };
}

/** The one JSON document on stdout, which must be an error matching the exit code of the process. */
function jsonError(result: CliResult): JsonError['error'] {
  const parsed = JSON.parse(result.stdout) as JsonError;
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(Object.keys(parsed.error).sort()).toEqual(['code', 'exitCode', 'message']);
  expect(parsed.error.exitCode).toBe(result.code);
  return parsed.error;
}

describe('--json errors', () => {
  it('bad usage, a bad file, a service error and a network error are JSON on stdout, with the prose on stderr', {
    timeout: 120_000,
  }, async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const [unknown, badOption, badFile, missing, unreachable] = await Promise.all([
      runCli(['frobnicate', '--json'], env),
      runCli(['list', '--colour', 'red', '--json'], env),
      runCli(['create-3d', '/no/such/image.png', '--json'], env),
      runCli(['get', 'SESSION_missing', '--json'], env),
      runCli(['get', 'SESSION_x', '--json'], {
        ...env,
        ASSET_STUDIO_BASE_URL: 'http://127.0.0.1:9',
        ASSET_STUDIO_API_KEY: SECRET,
      }),
    ]);
    expect(jsonError(unknown)).toMatchObject({
      code: 'usage',
      exitCode: 2,
      message: expect.stringMatching(/unknown command "frobnicate"/),
    });
    expect(unknown.stderr).toMatch(/^error: unknown command "frobnicate"/);
    expect(jsonError(badOption)).toMatchObject({
      code: 'usage',
      exitCode: 2,
      message: expect.stringMatching(/--colour/),
    });
    expect(jsonError(badFile)).toMatchObject({
      code: 'unreadable',
      exitCode: 2,
      message: expect.stringMatching(/\/no\/such\/image\.png does not exist/),
    });
    expect(jsonError(missing)).toMatchObject({
      code: 'service-response',
      exitCode: 3,
      message: expect.stringMatching(/404/),
    });
    expect(jsonError(unreachable)).toMatchObject({
      code: 'network',
      exitCode: 5,
      message: expect.stringMatching(/refused the connection/),
    });
    expect(unreachable.stdout + unreachable.stderr).not.toContain(SECRET);
  });

  it('key status says which connection the other commands use and where it comes from', async () => {
    const env = cleanEnv({
      ASSET_STUDIO_DATA_DIR: tempDataDir(),
      ASSET_STUDIO_BASE_URL: 'http://127.0.0.1:9/',
      ASSET_STUDIO_API_KEY: SECRET,
    });
    const status = await runCli(['key', 'status', '--json'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      configured: true,
      environment: true,
      connection: { mode: 'service', origin: 'environment' },
    });
    const prose = await runCli(['key', 'status'], env);
    expect(prose.stdout).toMatch(/service at .*127\.0\.0\.1:9.*ASSET_STUDIO_BASE_URL/);
    expect(status.stdout + prose.stdout + prose.stderr).not.toContain(SECRET);
  });

  it('key set / status / remove answer JSON, never with the key', { timeout: 120_000 }, async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const none = await runCli(['key', 'status', '--json'], env);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({
      configured: false,
      environment: false,
      keyFile: null,
      connection: { mode: 'local-engine', origin: 'engine', text: expect.stringMatching(/embedded local engine/) },
    });
    const set = await runCli(['key', 'set', '--json'], env, `${SECRET}\n`);
    expect(JSON.parse(set.stdout)).toMatchObject({ saved: true, keyFile: expect.stringMatching(/api-key$/) });
    const status = await runCli(['key', 'status', '--json'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({
      configured: true,
      environment: false,
      keyFile: expect.stringMatching(/api-key$/),
    });
    const removed = await runCli(['key', 'remove', '--json'], env);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removed: true });
    expect(set.stdout + status.stdout + removed.stdout).not.toContain(SECRET);
  });

  it('no command, and watch with nothing to watch, are JSON too', { timeout: 120_000 }, async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const [nothing, watch, version] = await Promise.all([
      runCli(['--json'], env),
      runCli(['watch', '--json'], env),
      runCli(['--version', '--json'], env),
    ]);
    expect(jsonError(nothing)).toMatchObject({ code: 'usage', exitCode: 2 });
    expect(watch.code).toBe(0);
    expect(JSON.parse(watch.stdout)).toEqual([]);
    expect(JSON.parse(version.stdout)).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });
});
