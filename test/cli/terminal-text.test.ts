// Issue #26, items 4 and 14: what the CLI prints from outside (file names, prompts, names given by `rename`,
// the service's messages) never reaches the terminal as control characters or bidi overrides, while --json
// stays exact JSON; a failed session says why when the service's answer does; `jobs` shows a job's name.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { progressView } from '../../main/cli/progress.ts';
import { neutralise } from '../../main/cli/terminal-text.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

const env = (dataDir: string) => cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
/** Retitles the terminal, clears it, and turns the rest of the line around. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eevil\u2066\r';
/** Any character that would act on the terminal: C0 but newline and tab, DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminal control from outside is neutralised', () => {
  it('neutralise shows controls as escapes, keeps newline and tab, and keeps JSON exact', () => {
    expect(neutralise(`a${HOSTILE}\tb\n`)).toBe('a\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202eevil\\u2066\\x0d\tb\n');
    const json = neutralise(JSON.stringify({ name: HOSTILE }), true);
    expect(json).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual({ name: HOSTILE });
  });

  it("progress redrawn on a terminal keeps its own control sequences and neutralises the job's name", () => {
    let drawn = '';
    const lines: string[] = [];
    const view = progressView(
      (t) => lines.push(t),
      true,
      (t) => (drawn += t),
    );
    const job = { id: 'j1', remoteId: 'SESSION_x', state: 'running', percent: 50, label: `${HOSTILE}.png` };
    view.update({ ...job, name: null, step: null, rawStatus: 'processing', operationId: null } as unknown as JobRecord);
    view.update({
      ...job,
      percent: 60,
      name: null,
      step: null,
      rawStatus: 'processing',
      operationId: null,
    } as unknown as JobRecord);
    expect(lines).toEqual([]);
    expect(drawn).toContain('\r\u001b[2K'); // its own: back to the line's start, erase it
    expect(drawn).toContain('\u001b[1A'); // its own: up over what it drew
    expect(drawn).toContain('\\x1b]0;pwned\\x07'); // the name's, shown as escapes
    expect(drawn).not.toContain('\u0007');
    expect(drawn).not.toContain('\u202e');
  });

  it('batch, jobs and rename print names and prompts without raw control characters', async () => {
    const dataDir = tempDataDir();
    const drop = join(dataDir, 'drop');
    mkdirSync(drop);
    copyFileSync(realFixture('images', 'chair.png'), join(drop, `${HOSTILE}.png`));
    const batch = await runCli(['batch', drop, '--engine-speed', '500'], env(dataDir));
    expect(batch.code, batch.stderr).toBe(0);
    expect(batch.stdout + batch.stderr).toContain('\\x1b]0;pwned\\x07');
    expect(batch.stdout + batch.stderr).not.toMatch(RAW_CONTROL);

    const prompt = await runCli(['text-to-image', `${HOSTILE} a lamp`, '--json'], env(dataDir));
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).not.toMatch(RAW_CONTROL);

    const jobs = await runCli(['jobs'], env(dataDir));
    expect(jobs.stdout).toContain('\\x1b[2J');
    expect(jobs.stdout + jobs.stderr).not.toMatch(RAW_CONTROL);
    const listed = JSON.parse((await runCli(['jobs', '--json'], env(dataDir))).stdout) as {
      id: string;
      kind: string;
      label: string;
    }[];
    expect(listed.map((j) => j.label).join('\n')).toContain(`${HOSTILE} a lamp`);
    expect(listed.map((j) => j.label).join('\n')).toContain(`${HOSTILE}.png`);

    const image = listed.find((j) => j.kind === 'image_to_3d')!;
    const renamed = await runCli(['rename', image.id, `${HOSTILE}renamed`], env(dataDir));
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toContain('\\u202eevil');
    expect(renamed.stdout + renamed.stderr).not.toMatch(RAW_CONTROL);
    const renamedJson = await runCli(['rename', image.id, `${HOSTILE}renamed`, '--json'], env(dataDir));
    expect(renamedJson.stdout).not.toMatch(RAW_CONTROL);
    // The name as stored (rename folds line breaks into spaces), exact through JSON.
    expect((JSON.parse(renamedJson.stdout) as { name: string }).name).toContain(
      '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eevil',
    );
  });
});

describe('jobs after rename, and why a session failed', () => {
  it('jobs shows the name given by rename, not the original label', async () => {
    const dataDir = tempDataDir();
    const created = await runCli(['text-to-image', 'a red lamp', '--json'], env(dataDir));
    expect(created.code, created.stderr).toBe(0);
    const [job] = JSON.parse((await runCli(['jobs', '--json'], env(dataDir))).stdout) as { id: string }[];
    expect((await runCli(['rename', job!.id, 'Hero lamp'], env(dataDir))).code).toBe(0);
    const jobs = await runCli(['jobs'], env(dataDir));
    expect(jobs.stdout).toContain('Hero lamp');
    expect(jobs.stdout).not.toContain('a red lamp');
    expect((await runCli(['job', job!.id], env(dataDir))).stdout).toContain('name: Hero lamp');
  });

  it('a failed session prints the reason the engine gave, not only its status', async () => {
    const dataDir = tempDataDir();
    const result = await runCli(
      ['create-3d', 'http://127.0.0.1:9/missing.png', '--wait', '--engine-speed', '2000'],
      env(dataDir),
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'The service reported "failed": The input image http://127.0.0.1:9/missing.png could not be read',
    );
  });
});
