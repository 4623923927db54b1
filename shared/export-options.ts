// What an export into a game project can be asked for: where it goes (the target) and the transforms of
// its GLB. One definition for main/export (which applies them), the bridge contract and the UI's forms.
import * as z from 'zod';

/**
 * Where an export goes: a game engine's project, or `folder` (a plain folder). The data keeps the user's
 * word `engine` for it (the manifest, the saved settings, the bridge, the CLI's --engine and its JSON).
 */
export const EXPORT_TARGETS = ['unity', 'unreal', 'godot', 'folder'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

/** Each target as the UI names it. */
export const EXPORT_TARGET_LABELS: Readonly<Record<ExportTarget, string>> = {
  unity: 'Unity',
  unreal: 'Unreal',
  godot: 'Godot',
  folder: 'Plain folder',
};

/** glTF is Y up; `y-to-z` stands a Y-up model up in a Z-up world, `z-to-y` fixes a model made Z up. */
export const UP_AXES = ['y-to-z', 'z-to-y'] as const;
export type UpAxis = (typeof UP_AXES)[number];

/** The bottom centre (the model stands on the ground) or the centre of its box. */
export const PIVOTS = ['bottom-center', 'center'] as const;
export type Pivot = (typeof PIVOTS)[number];

/**
 * The pivot an export into a game engine writes unless the user picks another: the bottom centre. An engine
 * places a model by its origin, and a generated model has it at the centre of its box (the service's
 * `pivot_point` default, [0, 0, 0]), so dropped on a floor half of it sinks below. A plain folder, an animated
 * character (its rig keeps its own origin, usually at the feet) and a job with no GLB (the transform is made on
 * the GLB) are written as they are: undefined.
 */
export function defaultPivot(target: ExportTarget, model: { animated: boolean; glb: boolean }): Pivot | undefined {
  return target !== 'folder' && !model.animated && model.glb ? 'bottom-center' : undefined;
}

/** Why the default pivot is the bottom centre, in the words the export panel and the CLI's help use. */
export const DEFAULT_PIVOT_WHY =
  "Game engines place a model by its origin; the service's models have it at the centre of their box, half below the floor. Bottom centre makes the model stand on the floor.";

const size = z.number().positive().finite();

export const transformsSchema = z
  .object({
    upAxis: z.enum(UP_AXES).optional(),
    /** A factor, or the size in metres of the largest dimension or of the height (along the output's up axis). */
    scale: z
      .union([
        z.object({ factor: size }).strict(),
        z.object({ largest: size }).strict(),
        z.object({ height: size }).strict(),
      ])
      .optional(),
    /** Moves the origin to the bottom centre or to the centre of the model's box. */
    pivot: z.enum(PIVOTS).optional(),
  })
  .strict();
export type Transforms = z.infer<typeof transformsSchema>;

/**
 * The animation clips an animated export keeps, each named by its output key (`prompt:<id>`, `library:<id>`),
 * its id, or its name (a prompt's text, a library clip's label); `library` every library clip, `all` every clip.
 * Omitted: the user's prompts, every clip when the job has none (main/export/from-job.ts defaultClips).
 */
export const exportClipsSchema = z.array(z.string().min(1).max(500)).max(200);
export type ExportClips = z.infer<typeof exportClipsSchema>;

/** A clip an animated export can keep (for the per-clip choice): `id` is what `clips` names it by. */
export interface ExportClip {
  /** The output key, e.g. `prompt:66a1…`, `library:walk`. */
  id: string;
  /** The prompt's text or the library clip's label: the animation's name in the GLB. */
  name: string;
  source: 'prompt' | 'library';
}

/** The mesh format of an export: one per export, so an engine never imports the same model twice. */
export const EXPORT_FORMATS = ['glb', 'fbx', 'obj'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export const EXPORT_FORMAT_LABELS: Readonly<Record<ExportFormat, string>> = { glb: 'GLB', fbx: 'FBX', obj: 'OBJ' };

/** The Unity packages that import glTF (GLB), by their id in Packages/manifest.json. */
export const UNITY_GLTF_PACKAGES: Readonly<Record<string, string>> = {
  'com.unity.cloud.gltfast': 'glTFast',
  'org.khronos.unitygltf': 'UnityGLTF',
};

/**
 * What an export's format depends on in the project: for Unity, the glTF package found in
 * Packages/manifest.json (its name, e.g. `glTFast`), null when there is none; undefined for other targets.
 */
export interface FormatFacts {
  engine: ExportTarget;
  gltfPackage?: string | null | undefined;
}

/** The format written unless the user picks another: what the engine imports with nothing added. */
export function defaultFormat({ engine, gltfPackage }: FormatFacts): ExportFormat {
  if (engine === 'unity') return gltfPackage ? 'glb' : 'fbx';
  return engine === 'unreal' ? 'fbx' : 'glb';
}

/** The formats in the order tried when the default one is not among a job's files. */
export function formatOrder(facts: FormatFacts): ExportFormat[] {
  const first = defaultFormat(facts);
  return [first, ...EXPORT_FORMATS.filter((f) => f !== first)];
}

/** Why the engine cannot import a format, in words; undefined when it can. */
export function formatRefusal({ engine, gltfPackage }: FormatFacts, format: ExportFormat): string | undefined {
  if (engine === 'unity' && format === 'glb' && !gltfPackage) {
    return 'Unity imports GLB only with the glTFast or UnityGLTF package, and Packages/manifest.json lists neither (add com.unity.cloud.gltfast, or choose FBX or OBJ)';
  }
  return undefined;
}

/** The formats the engine can import, for a refusal's "choose one of". */
export function importableFormats(facts: FormatFacts): ExportFormat[] {
  return EXPORT_FORMATS.filter((f) => formatRefusal(facts, f) === undefined);
}

/** What the engine needs, in one line (shown under the format select). */
export function formatNeeds({ engine, gltfPackage }: FormatFacts): string {
  switch (engine) {
    case 'unity':
      return `Unity imports FBX natively; GLB needs glTFast or UnityGLTF (${gltfPackage ? `found: ${gltfPackage}` : 'not found'} in Packages/manifest.json).`;
    case 'unreal':
      return 'Unreal imports FBX natively, and GLB through Interchange (Unreal 5.1 or later).';
    case 'godot':
      return 'Godot imports GLB natively (its own format for scenes); FBX needs Godot 4.3 or later.';
    default:
      return 'A plain folder: any format; GLB keeps the model, its materials and animations in one file.';
  }
}

/** The engine's own axes and units, and that its importer converts from the file's glTF axes (metres, Y up). */
export const ENGINE_AXES: Readonly<Record<ExportTarget, string>> = {
  unity: "Unity: Y up, Z forward, metres — the importer converts from the file's right-handed metres/Y-up.",
  unreal: "Unreal: X forward, Z up, centimetres — the importer converts from the file's metres/Y-up.",
  godot: "Godot: Y up, -Z forward, metres — the same as the file's metres/Y-up.",
  folder: "The file keeps glTF's axes: Y up, +Z forward, metres.",
};

/**
 * A transform the engine's importer already does, which would then be done twice (a model lying on its side,
 * or 100 times too large); undefined when there is none. Every engine's importer turns the file's Y up into
 * its own up axis, and Unreal's its metres into centimetres.
 */
export function doubleConversion(engine: ExportTarget, t: Transforms | undefined): string | undefined {
  const said: string[] = [];
  if (engine !== 'folder' && t?.upAxis === 'y-to-z') {
    said.push(
      `${EXPORT_TARGET_LABELS[engine]}'s importer already stands a Y-up file up${engine === 'unreal' ? ' in its Z-up world' : ''}, so "Z up" would make the model lie on its side`,
    );
  }
  if (engine === 'unreal' && t?.scale && 'factor' in t.scale && t.scale.factor >= 10) {
    said.push(
      `Unreal's importer already turns the file's metres into centimetres, so ×${t.scale.factor} makes the model ${t.scale.factor} times too large`,
    );
  }
  return said.length > 0 ? `${said.join('; ')}.` : undefined;
}

/**
 * What an export with a target profile made of the model (main/gameready): LOD0 (within the budget) and LOD1..n
 * with their triangles, the triangles aimed at and the simplifier's error (a share of the model's size), each
 * texture's size before and after, and what was fixed, one line each. In the export's plan and its result.
 */
export const gameReadyReportSchema = z.object({
  profile: z.string(),
  original: z.number().int(),
  levels: z.array(
    z.object({ level: z.number().int(), triangles: z.number().int(), target: z.number().int(), error: z.number() }),
  ),
  textures: z.array(
    z.object({
      name: z.string(),
      slots: z.array(z.string()),
      from: z.tuple([z.number(), z.number()]),
      to: z.tuple([z.number(), z.number()]),
      mimeType: z.string(),
    }),
  ),
  fixed: z.array(z.string()),
});
export type GameReadyReport = z.infer<typeof gameReadyReportSchema>;
