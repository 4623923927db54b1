// Proof in a real DCC (#16): what the export writes into each engine's project is imported by headless Blender
// with its own importers and default options, and what Blender makes of it is checked. Exported into a
// project of every preset (Unity, Unreal, Godot, a plain folder), in the preset's default format and in each
// other format it offers: real jobs of the embedded engine (an image-to-3D job of images/chair.png with a
// baked texture, an animation job with two text prompts and the session's library clips, a retopology job
// of the chair) through exportJob, the function the CLI and the app call; real fixtures (glb/Fox.glb with
// its 3 clips, fbx/Male_Casual.fbx with its 11) through exportAsset; and the chair, the animation and the fox
// with transforms (a height in metres, the pivot at the bottom centre). Every file written, and the sources, are imported in ONE Blender run
// (export_import.py). Checked per asset: sizes in metres agree with the source in every format and preset
// (1%), the height stays along Blender's Z (nothing on its side), every clip and triangle arrives, materials show their
// texture and every texture written is used by one, bone counts survive, Unreal's result is not 100× big.
// With EXPORT_IMPORT_TABLE=<file> the table of what Blender reports is written there (bench/RESULTS.md).
// Skipped, saying so, only where `blender` is not on PATH (.ci/run installs it).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { getBounds, NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportError } from '../../main/export/errors.ts';
import { exportAsset, type ExportResult, type SourceFile } from '../../main/export/export.ts';
import { exportJob } from '../../main/export/from-job.ts';
import { EXPORT_TARGETS, type ExportTarget } from '../../main/export/presets.ts';
import type { Transforms } from '../../main/export/transform.ts';
import type { RunningWebHost } from '../../main/host/web-host.ts';
import type { JobRecord } from '../../main/store/jobs.ts';
import { EXPORT_FORMATS, type ExportFormat } from '../../shared/export-options.ts';
import { parseOutputKind } from '../../shared/output-kind.ts';
import { makeProject } from '../export/helpers.ts';
import { realFixture } from '../fixtures.ts';
import { tempDir } from '../host/helpers.ts';
import { sampleJobs, startTestHost, webHostClient } from '../host/web-host-client.ts';
import { HAS_BLENDER, privateBlenderEnv, runBlenderScript, warnIfNoBlender } from './blender.ts';

warnIfNoBlender('test/blender/export-import.test.ts');

/** A cap for a hung Blender, not a speed bar: Blender starts slowly on a loaded 2-core machine. */
const BLENDER_CAP_MS = 15 * 60_000;
/** Sizes of the same asset agree within this fraction, whatever the format and preset. */
const SIZE_TOLERANCE = 0.01;
/**
 * Two prompts naming motions the engine animates (a wave, a run) that do not begin with a library clip's name
 * (Idle, Walk, Run, Jump, Wave, Sit), so that each clip is told apart.
 */
const PROMPTS = ['greet the crowd with both hands', 'sprint to the door'];
/** The clips of the animation kept by the per-clip choice (exportJob's `clips`): a prompt's and a library clip, by name. */
const CHOSEN_CLIPS = [PROMPTS[1]!, 'Walk'];
const MESH_EXTENSIONS = new Set(['.glb', '.gltf', '.fbx', '.obj', '.usd', '.usda', '.usdc', '.usdz']);
/** Assets also exported scaled to this height (metres) standing on their origin: every format carries it, or is not written. */
const TRANSFORMED: Readonly<Partial<Record<Asset, number>>> = { chair: 2, animation: 1, fox: 1 };
const standing = (height: number): Transforms => ({ scale: { height }, pivot: 'bottom-center' });

const ASSETS = ['chair', 'animation', 'retopology', 'fox', 'male'] as const;
type Asset = (typeof ASSETS)[number];
/** Assets whose every material must show its texture (the chair is baked; its retopology keeps its material; the fox has one PNG). */
const TEXTURED: ReadonlySet<Asset> = new Set(['chair', 'retopology', 'fox']);

interface ImageFacts {
  name: string;
  file: string;
  size: [number, number];
  has_data: boolean;
  packed: boolean;
}
/** What export_import.py reports for one file. */
interface Facts {
  error?: string;
  objects: Record<string, number>;
  meshes: number;
  mesh_objects_without_material: number;
  armatures: number;
  bones: number;
  triangles: number;
  actions: string[];
  materials: { name: string; base_color_image: ImageFacts | null }[];
  images: string[];
  bounds: { min: number[]; max: number[] } | null;
}

/** One export: an asset into a preset's project, in its default format or one asked for, maybe transformed. */
interface Run {
  key: string;
  preset: ExportTarget;
  asset: Asset;
  format?: ExportFormat;
  /** The height asked for with the transforms (pivot at the bottom centre). */
  height?: number;
  /** The clips chosen (an animation job's per-clip choice); every clip when omitted. */
  clips?: string[];
  result?: ExportResult;
  /** Why the export was refused (an ExportError's message). */
  refused?: string;
}

/** One file Blender imports: a mesh file an export wrote, or the source an asset was exported from. */
interface Imported {
  id: string;
  asset: Asset;
  run?: Run;
  path: string;
}

/** What each asset must look like in Blender, from its source data (never from an export). */
interface Expected {
  clips: string[];
  bones: number;
}

const data = tempDir('blender-export-import');
const dataDir = join(data.path, 'data');
let host: RunningWebHost;
const client = webHostClient(() => host);

/** A copy named `name` of a job's cached output whose key passes `test` (the cache's blobs have no extension, which Blender's importers go by). */
function cachedOutput(job: JobRecord, test: (kind: string) => boolean, name: string): string {
  const { cache } = host.bridge.services;
  const entry = cache.list().find((e) => e.sessionId === job.remoteId && e.state === 'complete' && test(e.kind));
  const path = entry && cache.open(entry.sessionId, entry.kind);
  if (!path) throw new Error(`no cached output of ${job.label} matches`);
  const copy = join(data.path, 'sources', name);
  mkdirSync(join(data.path, 'sources'), { recursive: true });
  copyFileSync(path, copy);
  return copy;
}

const isFirstRetopologyObj = (key: string) => {
  const kind = parseOutputKind(key);
  return kind?.type === 'retopology' && kind.file === 'obj' && kind.index === 0;
};

function runBlender(filesPath: string, factsPath: string): Promise<{ code: number | null; output: string }> {
  return runBlenderScript('export_import.py', [filesPath, factsPath], {
    env: privateBlenderEnv(data.path),
    capMs: BLENDER_CAP_MS,
  });
}

async function gltfFacts(path: string): Promise<{ clips: string[]; bones: number; size: number[] }> {
  const doc = await new NodeIO().read(path);
  const root = doc.getRoot();
  const b = getBounds(root.listScenes()[0]!);
  return {
    clips: root.listAnimations().map((a) => a.getName()),
    bones: root.listSkins().reduce((n, s) => n + s.listJoints().length, 0),
    size: [0, 1, 2].map((i) => b.max[i]! - b.min[i]!),
  };
}

const dims = (f: Facts): number[] =>
  f.bounds ? [0, 1, 2].map((i) => f.bounds!.max[i]! - f.bounds!.min[i]!) : [Number.NaN, Number.NaN, Number.NaN];
const near = (a: number, b: number, scale = Math.abs(b)) => Math.abs(a - b) <= SIZE_TOLERANCE * Math.max(scale, 1e-9);
const fmt = (v: number[]) => v.map((x) => (Number.isFinite(x) ? x.toPrecision(4) : '-')).join(' × ');
/** A name as an importer or exporter may spell it: lower case, runs of other characters as one `_`. */
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
/** Whether an action holds a clip: FBX names it `Armature|Clip`, Blender's glTF importer `Clip_<object>`. */
const actionHas = (action: string, clip: string) => {
  const a = norm(action.slice(action.lastIndexOf('|') + 1));
  const c = norm(clip.slice(clip.lastIndexOf('|') + 1));
  return a === c || a.startsWith(`${c}_`);
};

/** The embedded engine's jobs, followed to success with their outputs cached: the chair, its animation's upload and prompts, its retopology. */
async function createJobs(): Promise<Record<'chairJob' | 'animationJob' | 'promptsJob' | 'retopologyJob', JobRecord>> {
  const jobs = await sampleJobs(client, PROMPTS);
  if (JSON.stringify(jobs.prompts.texts) !== JSON.stringify(PROMPTS))
    throw new Error(
      `the engine animated ${JSON.stringify(jobs.prompts.texts)} of the prompts ${JSON.stringify(PROMPTS)}`,
    );
  return {
    chairJob: jobs.chair,
    animationJob: jobs.animation,
    promptsJob: jobs.prompts,
    retopologyJob: jobs.retopology,
  };
}

/** The exports asked of every preset: each asset in its default format and each other one, also with transforms, and the animation with a choice of clips. */
function wantedExports(): Omit<Run, 'key' | 'preset'>[] {
  const formats = [undefined, ...EXPORT_FORMATS];
  return [
    ...ASSETS.flatMap((asset) => formats.map((format) => ({ asset, ...(format && { format }) }))),
    ...ASSETS.flatMap((asset) => {
      const height = TRANSFORMED[asset];
      return height ? formats.map((format) => ({ asset, ...(format && { format }), height })) : [];
    }),
    { asset: 'animation', clips: CHOSEN_CLIPS },
  ];
}

/** One export: a job's through exportJob (as the CLI and the app), a fixture's files through exportAsset. */
function exportOne(
  run: Run,
  projectDir: string,
  job: JobRecord | undefined,
  files: SourceFile[] | undefined,
): Promise<ExportResult> {
  const options = {
    projectDir,
    engine: run.preset,
    name: run.key.replace(/\//g, ' '),
    ...(run.format && { format: run.format }),
    ...(run.height && { transforms: standing(run.height) }),
  };
  const { cache, store, tracker, outputFormats } = host.bridge.services;
  if (job)
    return exportJob({ cache, store, refresh: (id) => tracker.refresh(id), formats: outputFormats }, job, {
      ...options,
      ...(run.clips && { clips: run.clips }),
    });
  return exportAsset({ ...options, files: files!, source: { sessionId: `FIXTURE_${run.asset}`, kind: 'asset' } });
}

describe.skipIf(!HAS_BLENDER)('exports imported in headless Blender (#16)', () => {
  const runs: Run[] = [];
  const imported: Imported[] = [];
  const expected = new Map<Asset, Expected>();
  /** The source's size in Blender (metres, Z up): the reference of every export of the asset. */
  const reference = new Map<Asset, number[]>();
  const sourceOf = (asset: Asset) => imported.find((i) => i.run === undefined && i.asset === asset)!;
  let facts: Record<string, Facts> = {};
  /** Blender's version and the seconds its imports took (for the table). */
  let blender = { version: '', seconds: 0 };

  beforeAll(async () => {
    // The animation asset here is the GLB path (clips gathered in one GLB, transforms baked into it); the
    // service's FBX clips, the engine's default, are proven in animation-fbx.test.ts.
    host = await startTestHost(dataDir, { engineAnimationFiles: 'glb' });
    const { chairJob, animationJob, promptsJob, retopologyJob } = await createJobs();

    // The sources, and what Blender must find in every export of each.
    const fox = realFixture('glb', 'Fox.glb');
    const male = realFixture('fbx', 'Male_Casual.fbx');
    const sources: Record<Asset, string> = {
      chair: cachedOutput(chairJob, (k) => k === 'glb', 'chair.glb'),
      animation: cachedOutput(animationJob, (k) => k === 'animation', 'animation.glb'),
      retopology: cachedOutput(retopologyJob, isFirstRetopologyObj, 'retopology.obj'),
      fox,
      male,
    };
    for (const asset of ASSETS)
      imported.push({ id: `source/${asset}/${basename(sources[asset])}`, asset, path: sources[asset] });
    const library = ((animationJob.result as any).animation_library as { label: string }[]).map((a) => a.label);
    expected.set('chair', { clips: [], bones: 0 });
    expected.set('retopology', { clips: [], bones: 0 });
    // An animation exports the user's prompts by default (library clips when asked for), in the UI as in the CLI.
    void library;
    expected.set('animation', { clips: [...PROMPTS], bones: (await gltfFacts(sources.animation)).bones });
    const foxFacts = await gltfFacts(fox);
    expected.set('fox', { clips: foxFacts.clips, bones: foxFacts.bones });
    // Male_Casual.fbx's 11 clips and 42 bones, as ../shared/fixtures/real/SOURCES.md lists them (checked against Blender's import of it).
    const maleClips = [
      'Clapping',
      'Death',
      'Idle',
      'Jump',
      'Punch',
      'Run',
      'RunningJump',
      'Sitting',
      'Standing',
      'SwordSlash',
      'Walk',
    ].map((c) => `Man_${c}`);
    expected.set('male', { clips: maleClips, bones: 42 });

    // Every preset, in its default format and each other one, with transforms, and with a choice of clips.
    const jobs: Partial<Record<Asset, JobRecord>> = {
      chair: chairJob,
      animation: promptsJob,
      retopology: retopologyJob,
    };
    const fixtures: Partial<Record<Asset, SourceFile[]>> = {
      fox: [{ kind: 'glb', path: fox }],
      male: [{ kind: 'fbx', path: male }],
    };
    for (const preset of EXPORT_TARGETS) {
      const projectDir = makeProject(preset, join(data.path, 'projects', preset));
      for (const w of wantedExports()) {
        const key = `${preset}/${w.asset}/${w.height ? `${w.height}m-` : ''}${w.clips ? 'chosen-clips' : (w.format ?? 'default')}`;
        const run: Run = { key, preset, ...w };
        try {
          run.result = await exportOne(run, projectDir, jobs[w.asset], fixtures[w.asset]);
        } catch (error) {
          if (!(error instanceof ExportError)) throw error;
          run.refused = error.message;
        }
        // The default format again by name: the same files, not imported twice.
        const same =
          !w.clips &&
          runs.some(
            (r) =>
              r.preset === preset &&
              r.asset === w.asset &&
              r.height === w.height &&
              r.format === undefined &&
              !r.clips &&
              r.result?.files.some((f) => extname(f.path).toLowerCase() === `.${w.format}`),
          );
        if (same && run.result) continue;
        runs.push(run);
        for (const f of run.result?.files ?? []) {
          if (MESH_EXTENSIONS.has(extname(f.path).toLowerCase()))
            imported.push({ id: `${key}/${basename(f.path)}`, asset: w.asset, run, path: f.path });
        }
      }
    }

    const filesPath = join(data.path, 'files.json');
    const factsPath = join(data.path, 'facts.json');
    writeFileSync(filesPath, JSON.stringify(imported.map(({ id, path }) => ({ id, path }))));
    const run = await runBlender(filesPath, factsPath);
    try {
      const report = JSON.parse(readFileSync(factsPath, 'utf8')) as {
        blender: string;
        seconds: number;
        files: Record<string, Facts>;
      };
      facts = report.files;
      blender = { version: report.blender, seconds: report.seconds };
    } catch {
      throw new Error(`Blender wrote no facts (exit ${run.code}):\n${run.output.slice(-4000)}`);
    }
    for (const asset of ASSETS) reference.set(asset, dims(facts[sourceOf(asset).id]!));
    if (process.env.EXPORT_IMPORT_TABLE) writeFileSync(process.env.EXPORT_IMPORT_TABLE, table());
  }, BLENDER_CAP_MS + 600_000);

  afterAll(async () => {
    await host?.close();
    data.remove();
  });

  /** What Blender reports for every file, as a Markdown table, then what each export wrote or why it was refused. */
  function table(): string {
    const rows = imported.map((i) => {
      const where = i.run
        ? `${i.run.preset} | ${i.asset} | ${i.run.height ? `${i.run.height} m, ` : ''}${i.run.format ?? 'default'}${i.run.clips ? `, clips ${i.run.clips.join(' + ')}` : ''}`
        : `source | ${i.asset} |`;
      const f = facts[i.id];
      if (!f || f.error)
        return `| ${where} | ${basename(i.path)} | import failed: ${(f?.error ?? 'not imported').trim().split('\n').at(-1)} | | | | | |`;
      const textured = f.materials.filter((m) => m.base_color_image?.has_data).length;
      const size = dims(f);
      const height = i.run?.height ?? reference.get(i.asset)![2]!;
      const up = ['X', 'Y', 'Z'][size.findIndex((d) => near(d, height))] ?? '?';
      const counts = `${Object.entries(f.objects)
        .map(([type, n]) => `${n} ${type.toLowerCase()}`)
        .join(', ')}; ${f.triangles} triangles`;
      const clips = f.actions.map((a) => a.slice(a.lastIndexOf('|') + 1)).join(', ');
      return `| ${where} | ${basename(i.path)} | ${counts} | ${f.bones} | ${f.actions.length}${clips ? `: ${clips}` : ''} | ${f.materials.length} (${textured} with Base Color image) | ${fmt(size)} | ${up} |`;
    });
    const head = [
      '| preset | asset | format asked | file | objects | bones | clips (actions) | materials | size x × y × z (m) | height along |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    const written = runs.map((r) =>
      r.result
        ? `- ${r.key}: ${r.result.files.map((f) => basename(f.path)).join(', ')}${r.result.skipped.length > 0 ? `; skipped ${r.result.skipped.map((f) => `${f.kind} (${f.why})`).join(', ')}` : ''}`
        : `- ${r.key}: refused: ${r.refused}`,
    );
    const summary = `Blender ${blender.version} imported ${imported.length} files (${runs.filter((r) => r.result).length} exports written, ${runs.filter((r) => !r.result).length} refused) in ${blender.seconds} s.`;
    return [
      summary,
      '',
      ...head,
      ...rows,
      '',
      'What each export wrote, or why it was refused:',
      '',
      ...written,
      '',
    ].join('\n');
  }

  /** The imports of the asset's exports (of one preset), without transforms unless `transformed`. */
  const of = (asset: Asset, preset?: ExportTarget, transformed = false) =>
    imported.filter(
      (i) =>
        i.run &&
        (transformed || !i.run.height) &&
        i.asset === asset &&
        (preset === undefined || i.run.preset === preset),
    );
  const factsOf = (i: Imported): Facts => {
    const f = facts[i.id];
    if (!f) throw new Error(`Blender did not get to ${i.id}`);
    if (f.error) throw new Error(`Blender could not import ${i.id}:\n${f.error}`);
    return f;
  };

  it('the sources import as their data says: height along Z, every clip, every bone', async () => {
    for (const asset of ['chair', 'animation', 'fox'] as const) {
      const gltf = await gltfFacts(sourceOf(asset).path);
      // glTF is Y up; Blender is Z up (and -Z forward becomes +Y): the glTF's Y extent is Blender's Z.
      expect(
        reference.get(asset)!.map((d) => d.toPrecision(4)),
        asset,
      ).toEqual([gltf.size[0]!, gltf.size[2]!, gltf.size[1]!].map((d) => d.toPrecision(4)));
    }
    for (const asset of ASSETS) {
      const f = factsOf(sourceOf(asset));
      expect(f.bones, asset).toBe(expected.get(asset)!.bones);
      // The animation's prompts are clips of their own GLBs: the session's animated GLB has the library's.
      if (asset !== 'animation')
        for (const clip of expected.get(asset)!.clips)
          expect(
            f.actions.some((a) => actionHas(a, clip)),
            `${asset}: ${clip} in ${f.actions.join(', ')}`,
          ).toBe(true);
    }
    // The retopology is of the chair, at its size (the engine remeshes its shape): as tall within 10%.
    expect(Math.abs(reference.get('retopology')![2]! - reference.get('chair')![2]!)).toBeLessThan(
      0.1 * reference.get('chair')![2]!,
    );
  });

  it('every preset writes each asset in its default format, one mesh file (with transforms: or says why not), and Blender imports each file', () => {
    const problems: string[] = [];
    for (const r of runs.filter((x) => x.format === undefined)) {
      const meshes = r.result?.files.filter((f) => MESH_EXTENSIONS.has(extname(f.path).toLowerCase())) ?? [];
      if (!r.result) {
        if (!r.height) problems.push(`${r.key}: refused: ${r.refused}`);
      } else if (meshes.length !== 1)
        problems.push(
          `${r.key}: ${meshes.length} mesh files (${meshes.map((f) => basename(f.path)).join(', ')}), not one`,
        );
    }
    for (const i of imported) {
      const f = facts[i.id];
      if (!f || f.error)
        problems.push(`${i.id}: Blender could not import it: ${(f?.error ?? 'not reached').trim().split('\n').at(-1)}`);
      else if (f.meshes === 0) problems.push(`${i.id}: no mesh in Blender`);
    }
    expect(problems).toEqual([]);
  });

  it('a format asked for is written as asked (also with transforms), or refused with a reason', () => {
    const problems: string[] = [];
    for (const r of runs.filter((x) => x.format !== undefined && x.result)) {
      const meshes = r.result!.files.filter((f) => MESH_EXTENSIONS.has(extname(f.path).toLowerCase()));
      if (meshes.length !== 1 || extname(meshes[0]!.path).toLowerCase() !== `.${r.format}`)
        problems.push(
          `${r.key}: ${r.format!.toUpperCase()} asked, ${meshes.map((f) => basename(f.path)).join(', ') || 'no mesh'} written`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('a refusal names the job or the file given, never a file of the download cache', () => {
    const cache = join(dataDir, 'cache');
    expect(runs.filter((r) => r.refused?.includes(cache)).map((r) => `${r.key}: ${r.refused}`)).toEqual([]);
  });

  describe.each(ASSETS)('%s', (asset) => {
    it("has the size of its source in metres in every format and preset, its height along Blender's Z", () => {
      const want = reference.get(asset)!;
      const wrong = of(asset).filter((i) => !dims(factsOf(i)).every((d, k) => near(d, want[k]!)));
      expect(
        wrong.map((i) => `${i.id}: ${fmt(dims(factsOf(i)))} m`),
        `the source is ${fmt(want)} m`,
      ).toEqual([]);
    });

    it('keeps every clip of its source in every file', () => {
      const clips = expected.get(asset)!.clips;
      const missing = of(asset, undefined, true)
        .filter((i) => !i.run!.clips)
        .flatMap((i) => {
          const actions = factsOf(i).actions;
          const lost = clips.filter((c) => !actions.some((a) => actionHas(a, c)));
          return lost.length > 0 ? [`${i.id} lacks ${lost.join(', ')} (has ${actions.join(', ') || 'no action'})`] : [];
        });
      expect(missing).toEqual([]);
    });

    /** Every file of the asset has as many `fact` (bones, triangles) as `want`, its source's count. */
    const expectEveryFileHas = (fact: 'bones' | 'triangles', want: number) => {
      const wrong = of(asset, undefined, true).filter((i) => factsOf(i)[fact] !== want);
      expect(
        wrong.map((i) => `${i.id}: ${factsOf(i)[fact]} ${fact}`),
        `the source has ${want}`,
      ).toEqual([]);
    };

    it('keeps its bones', () => expectEveryFileHas('bones', expected.get(asset)!.bones));

    it('keeps every triangle of its source in every file (the same geometry in every format)', () =>
      expectEveryFileHas('triangles', factsOf(sourceOf(asset)).triangles));

    it('writes only textures that a material uses', () => {
      const unused: string[] = [];
      for (const r of runs.filter((x) => x.asset === asset && x.result)) {
        const used = new Set(
          imported
            .filter((i) => i.run === r)
            .flatMap((i) =>
              factsOf(i)
                .materials.map((m) => m.base_color_image?.file.toLowerCase())
                .filter((f): f is string => !!f),
            ),
        );
        for (const f of r.result!.files)
          if (f.kind === 'texture' && !used.has(basename(f.path).toLowerCase()))
            unused.push(`${r.key}/${basename(f.path)}`);
      }
      expect(unused).toEqual([]);
    });

    it.runIf(TRANSFORMED[asset] !== undefined)(
      'with transforms (a height, the pivot at the bottom centre) has that height along Z, on its origin, in every file written',
      () => {
        const height = TRANSFORMED[asset]!;
        const source = reference.get(asset)!;
        const want = source.map((d) => (d * height) / source[2]!);
        const files = imported.filter((i) => i.asset === asset && i.run?.height);
        const wrong = files.flatMap((i) => {
          const f = factsOf(i);
          const size = dims(f);
          const centre = [0, 1].map((k) => (f.bounds!.min[k]! + f.bounds!.max[k]!) / 2);
          const ok =
            size.every((d, k) => near(d, want[k]!)) &&
            near(f.bounds!.min[2]!, 0, height) &&
            centre.every((c) => near(c, 0, height));
          return ok ? [] : [`${i.id}: ${fmt(size)} m from ${fmt(f.bounds!.min)} to ${fmt(f.bounds!.max)}`];
        });
        expect(wrong, `wanted ${fmt(want)} m from z = 0, centred on x = y = 0`).toEqual([]);
        expect(files.length, 'written with transforms in some preset').toBeGreaterThan(0);
      },
    );

    it.runIf(TEXTURED.has(asset))("shows its texture through every material's Base Color in every file", () => {
      const bare = of(asset, undefined, true).flatMap((i) => {
        const f = factsOf(i);
        if (f.materials.length === 0 || f.mesh_objects_without_material > 0)
          return [`${i.id}: ${f.mesh_objects_without_material} mesh(es) without a material`];
        const without = f.materials.filter((m) => !m.base_color_image?.has_data).map((m) => m.name);
        return without.length > 0 ? [`${i.id}: ${without.join(', ')} without an image on Base Color`] : [];
      });
      expect(bare).toEqual([]);
    });
  });

  it('an animation exported with a choice of clips keeps those and no other, in every preset', () => {
    const files = of('animation').filter((i) => i.run!.clips);
    expect(new Set(files.map((i) => i.run!.preset)).size, `${files.map((i) => i.id).join(', ')}`).toBe(
      EXPORT_TARGETS.length,
    );
    const wrong = files.flatMap((i) => {
      const actions = factsOf(i).actions;
      const ok =
        actions.length === CHOSEN_CLIPS.length && CHOSEN_CLIPS.every((c) => actions.some((a) => actionHas(a, c)));
      return ok ? [] : [`${i.id}: ${actions.join(', ') || 'no action'}`];
    });
    expect(wrong, `chosen: ${CHOSEN_CLIPS.join(', ')}`).toEqual([]);
  });

  it("Unreal's files are in metres like the others, not 100 times too big", () => {
    const wrong = ASSETS.flatMap((asset) =>
      of(asset, 'unreal')
        .filter((i) => !near(dims(factsOf(i))[2]!, reference.get(asset)![2]!))
        .map((i) => `${i.id}: ${fmt(dims(factsOf(i)))} m, the source ${fmt(reference.get(asset)!)} m`),
    );
    expect(wrong).toEqual([]);
  });
});
