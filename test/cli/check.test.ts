// asset-studio check: the engine-fit check of a job's model made by the embedded engine over HTTP, read from the
// download cache. --json prints { profile, findings, model, heightM }; the exit code is 0 without an error-level
// finding, else 6 (shared/errors.ts check-failed); --height is remembered for the job.
import { describe, expect, it } from 'vitest';
import { findingSchema } from '../../shared/fit-check.ts';
import { realFixture } from '../fixtures.ts';
import { cleanEnv, runCli, tempDataDir } from './run-cli.ts';

describe('asset-studio check', () => {
  it('checks a generated model against a profile, asks its height, and remembers the height it is given', async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const created = await runCli(
      ['create-3d', realFixture('images', 'chair.png'), '--wait', '--json', '--engine-speed', '2000'],
      env,
    );
    expect(created.code).toBe(0);
    const jobId = (JSON.parse(created.stdout) as { job: { id: string } }).job.id;

    // A tiny budget: the model is over it (an error), so the check fails with its own exit code.
    const mobile = await runCli(['check', jobId, '--profile', 'unity-mobile', '--json'], env);
    const report = JSON.parse(mobile.stdout) as {
      profile: string;
      findings: unknown[];
      model: { triangles: number; size: number[] };
      heightM: number | null;
    };
    expect(report.profile).toBe('unity-mobile');
    const findings = report.findings.map((f) => findingSchema.parse(f));
    const codes = findings.map((f) => f.code);
    expect(report.model.triangles).toBeGreaterThan(0);
    expect(report.heightM).toBeNull();
    // The engine's models are 1 m on their longest side, the generator's default: the check asks.
    expect(Math.max(...report.model.size)).toBeCloseTo(1, 2);
    expect(codes).toContain('size-unknown');
    // Its ~20,000 triangles are over the mobile budget of 10,000: an error, so exit 6.
    expect(findings.find((f) => f.code === 'triangles-over-budget')?.fix?.label).toBe('Reduce to 10,000 triangles');
    expect(mobile.code).toBe(6);

    // --height is kept for the job: the next check (without it) offers "Set height 0.12 m".
    const sized = await runCli(['check', jobId, '--profile', 'web', '--height', '0.12', '--json'], env);
    expect((JSON.parse(sized.stdout) as { heightM: number }).heightM).toBe(0.12);
    const again = await runCli(['check', jobId, '--profile', 'web'], env);
    expect(again.stdout).toContain('against web');
    expect(again.stdout).toMatch(/size-differs +It is [\d.]+ m tall; you said it is 0.12 m\. {2}→ Set height 0.12 m/);
    expect(again.stdout).not.toContain('size-unknown');

    // Unreal desktop's budget of 50,000 takes it, and nothing else is an error: exit 0.
    const { code, stdout } = await runCli(['check', jobId, '--profile', 'unreal-desktop', '--json'], env);
    const desktop = (JSON.parse(stdout) as { findings: { severity: string }[] }).findings;
    expect(desktop.filter((f) => f.severity === 'error')).toEqual([]);
    expect(code).toBe(0);

    // A profile that is not one: refused (exit 2) with the names to choose from.
    const unknown = await runCli(['check', jobId, '--profile', 'ps2-handheld'], env);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining('There is no target profile "ps2-handheld"'),
    ]);
  });

  it('refuses a height that is no size (exit 2) and a job that is not there', async () => {
    const env = cleanEnv({ ASSET_STUDIO_DATA_DIR: tempDataDir() });
    const height = await runCli(['check', 'job_x', '--height', '0'], env);
    expect([height.code, height.stderr]).toEqual([2, expect.stringContaining('--height takes a number above 0')]);
    const missing = await runCli(['check', 'job_x', '--profile', 'unity-mobile'], env);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('"job_x" is not a job of this app')]);
  });
});
