// A job named as the library shows it (#33, from the walkthrough: `export` took only ids): every command that
// takes a <job> finds it by its id, its session code or its name, through one resolver (main/cli/job-ref.ts):
// the exact name first, then the name in any case, then the one name it starts; more than one is a usage error
// (exit 2) listing the candidates by id.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchByName } from '../../main/cli/job-ref.ts';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

const entry = (label: string, name: string | null = null) => ({ label, name });

describe('matchByName', () => {
  const entries = [entry('chair.png'), entry('Chair.png (copy)'), entry('robot.png', 'Hero robot'), entry('CHAIR.PNG')];
  it('takes the exact name before the same name in another case, and that before a start', () => {
    expect(matchByName(entries, 'chair.png')).toEqual([entries[0]]);
    expect(matchByName(entries, 'Chair.PNG')).toEqual([entries[0], entries[3]]);
    expect(matchByName(entries, 'chair.png (')).toEqual([entries[1]]);
  });
  it("reads a renamed entry by its new name, not its label; nothing matches an empty text's start twice", () => {
    expect(matchByName(entries, 'hero')).toEqual([entries[2]]);
    expect(matchByName(entries, 'robot')).toEqual([]);
    expect(matchByName(entries, 'lamp')).toEqual([]);
  });
});

describe('a <job> given by its name', () => {
  it('exports a job by its library name; an ambiguous name is refused with the candidates, a unique start is taken', async () => {
    const dataDir = tempDataDir();
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: dataDir });
    const made = await runCli(
      ['create-3d', realFixture('images', 'chair.png'), '--wait', '--json', '--engine-speed', '2000'],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const chairId = (JSON.parse(made.stdout) as { job: { id: string; label: string } }).job.id;
    const listed = JSON.parse((await runCli(['job', chairId, '--json'], env)).stdout) as { label: string };
    expect(listed.label).toBe('create-3d chair.png'); // what `jobs` and the library show

    const project = join(dataDir, 'game');
    mkdirSync(project);
    const exported = await runCli(['export', 'create-3d chair.png', '--project', project, '--json'], env);
    expect(exported.code, exported.stderr).toBe(0);
    const result = JSON.parse(exported.stdout) as { targetDir: string; files: { path: string }[] };
    expect(result.files.length).toBeGreaterThan(0);
    expect(result.files.every((f) => existsSync(join(result.targetDir, f.path)) || existsSync(f.path))).toBe(true);
    expect(readdirSync(project).length).toBeGreaterThan(0);

    // Two more entries, "Chair B" (a rename) and a prompt's, and the chair renamed "Chair A".
    const second = await runCli(['text-to-image', 'chairs', 'in', 'a', 'row', '--json', '--engine-speed', '2000'], env);
    expect(second.code, second.stderr).toBe(0);
    const promptId = (JSON.parse(second.stdout) as { jobId: string }).jobId;
    const third = await runCli(['text-to-image', 'a', 'stool', '--json', '--engine-speed', '2000'], env);
    const stoolId = (JSON.parse(third.stdout) as { jobId: string }).jobId;
    expect((await runCli(['rename', stoolId, 'Chair B'], env)).code).toBe(0);
    expect((await runCli(['rename', 'create-3d chair.png', 'Chair A'], env)).code).toBe(0);

    const ambiguous = await runCli(['job', 'chair', '--json'], env);
    expect(ambiguous.code).toBe(2);
    const error = (JSON.parse(ambiguous.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('usage');
    expect(error.message).toMatch(/^"chair" names 2 jobs of the library:/);
    for (const id of [chairId, stoolId]) expect(error.message).toContain(id);
    expect(error.message).not.toContain(promptId);
    expect(error.message).toContain('"Chair B"');
    expect(error.message).toContain('Give one of them by its id');

    // In any case, exact before a start: "chair b" is Chair B; "TEXT-TO-IMAGE CHAIRS" starts one name only.
    const byCase = JSON.parse((await runCli(['job', 'chair b', '--json'], env)).stdout) as { id: string };
    expect(byCase.id).toBe(stoolId);
    const byStart = JSON.parse((await runCli(['job', 'TEXT-TO-IMAGE CHAIRS', '--json'], env)).stdout) as { id: string };
    expect(byStart.id).toBe(promptId);

    const none = await runCli(['export', 'lamp', '--project', project], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('"lamp" is not a job of this app: no job has this id, session code or name.');
  });
});
