// What an export into a game project can be asked for: where it goes (the target) and the transforms of
// its GLB. One definition for main/export (which applies them), the bridge contract and the UI's forms.
import { z } from 'zod';

/**
 * Where an export goes: a game engine's project, or `folder` (a plain folder). The data keeps the user's
 * word `engine` for it (the manifest, the saved settings, the bridge, the CLI's --engine and its JSON).
 */
export const EXPORT_TARGETS = ['unity', 'unreal', 'godot', 'folder'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

/** Each target as the UI names it. */
export const EXPORT_TARGET_LABELS: Readonly<Record<ExportTarget, string>> = { unity: 'Unity', unreal: 'Unreal', godot: 'Godot', folder: 'Plain folder' };

/** glTF is Y up; `y-to-z` stands a Y-up model up in a Z-up world, `z-to-y` fixes a model made Z up. */
export const UP_AXES = ['y-to-z', 'z-to-y'] as const;
export type UpAxis = (typeof UP_AXES)[number];

/** The bottom centre (the model stands on the ground) or the centre of its box. */
export const PIVOTS = ['bottom-center', 'center'] as const;
export type Pivot = (typeof PIVOTS)[number];

const size = z.number().positive().finite();

export const transformsSchema = z
  .object({
    upAxis: z.enum(UP_AXES).optional(),
    /** A factor, or the size in metres of the largest dimension or of the height (along the output's up axis). */
    scale: z
      .union([z.object({ factor: size }).strict(), z.object({ largest: size }).strict(), z.object({ height: size }).strict()])
      .optional(),
    /** Moves the origin to the bottom centre or to the centre of the model's box. */
    pivot: z.enum(PIVOTS).optional(),
  })
  .strict();
export type Transforms = z.infer<typeof transformsSchema>;

/**
 * The animation clips an animated export keeps, each named by its output key (`prompt:<id>`, `library:<id>`),
 * its id, or its name (a prompt's text, a library clip's label). Omitted: every clip of the job.
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

