// The engine-fit check (main/fit/check.ts) on small GLBs built in the test: each finding's code, severity and
// fix, measured from the model's bytes (main/fit/read-model.ts) as the app and the CLI measure them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verdictOf, type Finding } from '../../shared/fit-check.ts';
import { resolveProfile, type ProfileEdit } from '../../shared/target-profiles.ts';
import { checkFit, texelDensityOf, type FitContext } from '../../main/fit/check.ts';
import { modelFactsOffThread } from '../../main/fit/fit-thread.ts';
import { glbFacts, UnreadableModel } from '../../main/fit/read-model.ts';
import { tempDir } from '../helpers.ts';
import { boxGlb, type BoxOptions } from './models.ts';

async function check(
  box: BoxOptions,
  profile = 'unity-mobile',
  context: FitContext = {},
  edits: Record<string, ProfileEdit> = {},
): Promise<Finding[]> {
  return checkFit(await glbFacts(await boxGlb(box)), resolveProfile(profile, edits)!, context);
}
const codes = (findings: Finding[]) => findings.map((f) => f.code);
const find = (findings: Finding[], code: string) => findings.find((f) => f.code === code);
/** A box standing on the floor at the origin: no size or pivot finding. */
const STANDING: BoxOptions = { size: [0.4, 0.5, 0.4], centre: [0, 0.25, 0] };

describe('engine-fit check', () => {
  it("asks how tall a 1 m model (the generator's default) is, and says its centred pivot sinks it", async () => {
    const findings = await check({});
    expect(find(findings, 'size-unknown')).toMatchObject({ severity: 'warning', fix: null });
    expect(find(findings, 'size-unknown')?.message).toMatch(/how tall is it\?/);
    expect(find(findings, 'pivot-centre')?.fix).toMatchObject({ kind: 'pivot', pivot: 'bottom-center' });
  });

  it('with the height the user gave, offers to set it ("Set height 0.12 m"), and is quiet once it matches', async () => {
    const findings = await check({}, 'unity-mobile', { heightM: 0.12 });
    expect(codes(findings)).not.toContain('size-unknown');
    expect(find(findings, 'size-differs')?.fix).toEqual({ kind: 'scale', label: 'Set height 0.12 m', heightM: 0.12 });
    expect(codes(await check(STANDING, 'unity-mobile', { heightM: 0.5 }))).not.toContain('size-differs');
  });

  it('a model standing on the floor at a real size has no size or pivot finding', async () => {
    const findings = await check(STANDING);
    expect(codes(findings).filter((c) => c.startsWith('size') || c.startsWith('pivot'))).toEqual([]);
    expect(codes(await check({ ...STANDING, centre: [0.3, 0.25, 0] }))).toContain('pivot-off');
  });

  it('triangles over the budget are an error whose fix reduces to the budget; within it, LODs are offered', async () => {
    const findings = await check(
      { ...STANDING, k: 5 },
      'unity-mobile',
      {},
      { 'unity-mobile': { triangleBudget: 100 } },
    );
    expect(find(findings, 'triangles-over-budget')).toMatchObject({
      severity: 'error',
      fix: { kind: 'reduce', label: 'Reduce to 100 triangles', triangles: 100 },
    });
    expect(find(findings, 'triangles-over-budget')?.message).toMatch(/^300 triangles: over/);
    expect(verdictOf({ findings })).toBe('fails');
    const within = await check({ ...STANDING, k: 5 });
    expect(codes(within)).not.toContain('triangles-over-budget');
    expect(find(within, 'no-lods')?.fix).toEqual({ kind: 'lods', label: 'Make LODs', levels: 2 });
    // Godot 4 makes its own LODs at import: said, with nothing for the export to do.
    expect(find(await check({ ...STANDING, k: 5 }, 'godot-mobile'), 'no-lods')).toMatchObject({
      severity: 'info',
      fix: null,
    });
  });

  it('a texture larger than the profile allows is an error with "Resize to 1024"; the desktop profile takes it', async () => {
    const box = { ...STANDING, texture: [2048, 1024] as [number, number] };
    const mobile = await check(box, 'unity-mobile');
    expect(find(mobile, 'texture-too-large')).toMatchObject({
      severity: 'error',
      fix: { kind: 'resize-textures', label: 'Resize to 1024', size: 1024 },
    });
    expect(find(mobile, 'texture-too-large')?.message).toContain('2048×1024');
    expect(codes(await check(box, 'unity-desktop'))).not.toContain('texture-too-large');
    expect(codes(await check({ ...STANDING, texture: [300, 256] }))).toContain('texture-not-power-of-two');
  });

  it('texel density: pixels of the texture over the UV area per metre of surface, against the target', async () => {
    // Every face of a 1 m cube covers the whole UV square: a 512 px texture gives 512 px/m.
    const facts = await glbFacts(await boxGlb({ texture: [512, 512] }));
    expect(texelDensityOf(facts)).toBeCloseTo(512, 3);
    // unity-mobile aims at 256 px/m: 512 is within twice the target; 1024 is more than needed, 64 too little.
    expect(codes(checkFit(facts, resolveProfile('unity-mobile')!)).filter((c) => c.startsWith('texel'))).toEqual([]);
    const high = await check({ texture: [1024, 1024] });
    expect(find(high, 'texel-density-high')?.fix).toMatchObject({ label: 'Resize to 256', size: 256 });
    expect(find(await check({ texture: [64, 64] }), 'texel-density-low')?.severity).toBe('warning');
    // Half the size, four times the density per area: twice the px/m.
    expect(texelDensityOf(await glbFacts(await boxGlb({ size: [0.5, 0.5, 0.5], texture: [512, 512] })))).toBeCloseTo(
      1024,
      3,
    );
  });

  it('missing UVs (an error on a textured part) and normals', async () => {
    const textured = await check({ ...STANDING, uvs: false, texture: [256, 256] });
    expect(find(textured, 'uvs-missing')?.severity).toBe('error');
    expect(find(await check({ ...STANDING, uvs: false }), 'uvs-missing')?.severity).toBe('warning');
    expect(find(await check({ ...STANDING, normals: false }), 'normals-missing')?.severity).toBe('warning');
    expect(codes(await check(STANDING))).not.toContain('normals-missing');
  });

  it('counts triangles with no area and edges shared by more than two triangles', async () => {
    const facts = await glbFacts(await boxGlb({ ...STANDING, broken: true }));
    expect(facts.degenerate).toBe(1);
    expect(facts.nonManifoldEdges).toBe(1);
    const findings = checkFit(facts, resolveProfile('web')!);
    expect(find(findings, 'degenerate-triangles')?.message).toMatch(/^1 triangle with no area/);
    expect(codes(findings)).toContain('non-manifold');
    // A closed box, its faces meeting at split corners, is manifold and whole.
    const whole = await glbFacts(await boxGlb({ ...STANDING, k: 3 }));
    expect([whole.degenerate, whole.nonManifoldEdges]).toEqual([0, 0]);
  });

  it("names each engine's importer changes: a dot for Godot, a space for Unreal, fine for Unity", async () => {
    const box = { ...STANDING, name: 'Mug body.001' };
    expect(find(await check(box, 'godot-mobile'), 'names-rejected')?.message).toContain('"Mug body.001"');
    expect(codes(await check(box, 'unreal-desktop'))).toContain('names-rejected');
    expect(codes(await check(box, 'unity-mobile'))).not.toContain('names-rejected');
  });

  it("bones per vertex against the profile's skinning limit", async () => {
    const skinned = await glbFacts(await boxGlb({ ...STANDING, bones: 4 }));
    expect([skinned.skinned, skinned.maxBonesPerVertex]).toEqual([true, 4]);
    expect(find(checkFit(skinned, resolveProfile('unity-mobile')!), 'bones-per-vertex')?.message).toMatch(
      /follow 4 bones; Unity — mobile keeps 2/,
    );
    expect(codes(checkFit(skinned, resolveProfile('unity-desktop')!))).not.toContain('bones-per-vertex');
  });

  it('a model lying on its back (flat in Y, long in Z) may be Z up; Unreal is said to be Z up', async () => {
    const lying = await check({ size: [0.3, 0.1, 1.2], centre: [0, 0.05, 0] }, 'unreal-desktop');
    expect(find(lying, 'up-axis-suspect')?.fix).toMatchObject({ kind: 'up-axis', upAxis: 'z-to-y' });
    expect(find(lying, 'up-axis-engine')?.severity).toBe('info');
    expect(codes(await check(STANDING))).not.toContain('up-axis-suspect');
  });

  it('is measured on a worker thread with the same facts, and a file that is no GLB fails with why', async () => {
    const dir = tempDir();
    const path = join(dir, 'box.glb');
    const bytes = await boxGlb({ ...STANDING, k: 2, texture: [256, 256] });
    writeFileSync(path, bytes);
    expect(await modelFactsOffThread(path)).toEqual(await glbFacts(bytes));
    await expect(glbFacts(new Uint8Array([1, 2, 3]))).rejects.toThrow(UnreadableModel);
    writeFileSync(join(dir, 'bad.glb'), 'not a model');
    await expect(modelFactsOffThread(join(dir, 'bad.glb'))).rejects.toThrow(
      /cannot be checked: it is not a readable GLB/,
    );
  });
});
