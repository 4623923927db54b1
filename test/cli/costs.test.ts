// The price before spending (#17): every create command and `batch` say what they cost and the balance after,
// on stderr (in --json: a `cost` object), and refuse (exit 2, nothing sent) when the balance is known to be
// short. Child processes against the embedded engine, whose new accounts start with ASSET_STUDIO_ENGINE_CREDITS.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDataFolderEngine } from '../../main/app/services.ts';
import type { RunningLocalEngine } from '../../main/engine/engine.ts';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

const CHAIR = realFixture('images', 'chair.png');
const FOX = realFixture('images', 'fox.jpg');

function env(dataDir: string, credits: number) {
  return cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir, ASSET_STUDIO_ENGINE_CREDITS: String(credits) });
}

async function jobCount(dataDir: string): Promise<number> {
  const jobs = await runCli(['jobs', '--json'], cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir }));
  return (JSON.parse(jobs.stdout) as unknown[]).length;
}

describe('the cost of a create, before it is sent', () => {
  it('prints the price and the balance after, puts them in --json, and refuses a create the balance cannot pay (exit 2, nothing sent)', async () => {
    const dataDir = tempDataDir();
    const picture = await runCli(['text-to-image', 'a', 'red', 'barrel'], env(dataDir, 12));
    expect(picture.code).toBe(0);
    expect(picture.stderr.split('\n')[0]).toBe('Costs 1 credit (balance 12 → 11)');

    const model = await runCli(['create-3d', CHAIR, '--json'], env(dataDir, 12));
    expect(model.code).toBe(0);
    expect(model.stderr).not.toContain('Costs');
    expect(JSON.parse(model.stdout)).toMatchObject({
      cost: { credits: 10, balance: 11, basis: 'the local engine’s price list' },
    });

    const refused = await runCli(['create-3d', CHAIR], env(dataDir, 12));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /Not enough credits: this costs 10 credits and the local engine's account of this data folder has 1\. Nothing was sent\. Use another --data-dir/,
    );
    expect(await jobCount(dataDir)).toBe(2);

    const json = await runCli(['create-3d', CHAIR, '--json'], env(dataDir, 12));
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'insufficient-credits', exitCode: 2 } });
    expect(await jobCount(dataDir)).toBe(2);
  });

  it('batch: prices every file before sending any, and refuses the whole batch when the balance is short', async () => {
    const folder = join(tempDataDir(), 'drop');
    mkdirSync(folder);
    copyFileSync(CHAIR, join(folder, 'chair.png'));
    copyFileSync(FOX, join(folder, 'fox.jpg'));
    writeFileSync(join(folder, 'notes.txt'), 'not sent');

    const shortDir = tempDataDir();
    const refused = await runCli(['batch', folder], env(shortDir, 15));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /Not enough credits: this costs 20 credits and the local engine's account of this data folder has 15\. Nothing was sent\./,
    );
    expect(await jobCount(shortDir)).toBe(0);

    const dataDir = tempDataDir();
    const sent = await runCli(['batch', folder], env(dataDir, 25));
    expect(sent.code).toBe(0);
    expect(sent.stderr.split('\n')[0]).toBe('Costs 20 credits (balance 25 → 5)');
    expect(await jobCount(dataDir)).toBe(2);

    const json = await runCli(['batch', join(folder, 'chair.png'), '--json'], env(dataDir, 25));
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'insufficient-credits' } });
  });

  it('batch: quotes only the files that will be sent, saying which are refused and why; the quote is what is spent', async () => {
    // #33: names alone quoted a picture that is not one (and an FBX that is text): 80 credits quoted, 65 spent.
    const folder = join(tempDataDir(), 'drop');
    mkdirSync(folder);
    copyFileSync(CHAIR, join(folder, 'chair.png'));
    copyFileSync(FOX, join(folder, 'fox.jpg'));
    writeFileSync(join(folder, 'scan.png'), 'a text file named like a picture');
    writeFileSync(join(folder, 'broken.fbx'), 'this is not an fbx');
    const dataDir = tempDataDir();
    const sent = await runCli(['batch', folder], env(dataDir, 100));
    expect(sent.code, sent.stderr).toBe(2); // two files rejected
    const lines = sent.stderr.split('\n');
    expect(lines).toContain('Costs 20 credits (balance 100 → 80) for the 2 file(s) that will be sent (2 refused)');
    expect(lines.find((l) => l.startsWith('not sent: scan.png '))).toMatch(
      /^not sent: scan\.png is not a PNG, JPEG or WebP image \(it starts like .*\)\. Save or convert it as PNG or JPEG and try again\.$/,
    );
    expect(lines.find((l) => l.startsWith('not sent: broken.fbx '))).toMatch(/is not an FBX file/);
    // What the account has left is what was quoted.
    const list = JSON.parse((await runCli(['list', '--json'], env(dataDir, 100))).stdout) as { credits: number };
    expect(list.credits).toBe(80);
    expect(await jobCount(dataDir)).toBe(2);

    const json = await runCli(
      ['batch', join(folder, 'scan.png'), join(folder, 'fox.jpg'), '--json'],
      env(dataDir, 100),
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ cost: { credits: 10, balance: 80 }, submitted: 1, rejected: 1 });
  });

  it('retry: prices the request sent again, and refuses it when the balance is short (a replay sends nothing: no price)', async () => {
    const dataDir = tempDataDir();
    const first = await runCli(['create-3d', CHAIR, '--json'], env(dataDir, 25));
    expect(first.code).toBe(0);
    const jobId = (JSON.parse(first.stdout) as { jobId: string }).jobId;
    expect((await runCli(['cancel', jobId], env(dataDir, 25))).code).toBe(0);
    const retried = await runCli(['retry', jobId], env(dataDir, 25));
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr.split('\n')[0]).toBe('Costs 10 credits (balance 15 → 5)');
    const replayed = await runCli(['retry', jobId], env(dataDir, 25));
    expect(replayed.stderr).not.toContain('Costs');

    const shortDir = tempDataDir();
    const made = await runCli(['create-3d', CHAIR, '--json'], env(shortDir, 15));
    const shortJob = (JSON.parse(made.stdout) as { jobId: string }).jobId;
    expect((await runCli(['cancel', shortJob], env(shortDir, 15))).code).toBe(0);
    const refused = await runCli(['retry', shortJob, '--json'], env(shortDir, 15));
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: {
        code: 'insufficient-credits',
        message: expect.stringMatching(/costs 10 credits .* has 5\. Nothing was sent/),
      },
    });
    expect(await jobCount(shortDir)).toBe(1);
  });

  describe('at a service', () => {
    const remote = tempDataDir();
    const KEY = 'sk_live_COSTS_TEST_key_000001';
    let service: RunningLocalEngine;
    beforeAll(async () => {
      // A second engine plays the service: the CLI reaches it by address and key, and reads prices from its list.
      writeFileSync(join(remote, 'engine-key'), KEY, { mode: 0o600 });
      service = await startDataFolderEngine(remote, { speed: 500, initialCredits: 30 });
    });
    afterAll(async () => {
      await service.close();
    });

    it('says when the service does not publish a price, and prices image to 3D from its list', async () => {
      const dataDir = tempDataDir();
      const at = cleanEnv({
        ASSET_STUDIO_DATA_DIR: dataDir,
        ASSET_STUDIO_BASE_URL: service.url,
        ASSET_STUDIO_LEGACY_BASE_URL: service.legacyUrl,
        ASSET_STUDIO_API_KEY: KEY,
      });
      const picture = await runCli(['text-to-image', 'a', 'lamp'], at);
      expect(picture.code).toBe(0);
      expect(picture.stderr.split('\n')[0]).toBe('Cost not published by the service (balance 30)');
      const model = await runCli(['create-3d', FOX, '--json'], at);
      expect(model.code).toBe(0);
      // The list says the balance (29) pays for 2 image-to-3D creates: 14 credits each, as the create forms say.
      expect(JSON.parse(model.stdout)).toMatchObject({ cost: { credits: 14, balance: 29 } });
    });
  });
});
