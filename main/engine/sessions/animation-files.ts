import { output } from '../artifacts.ts';
import { iso } from '../ids.ts';
import type { MeshOptions } from '../outputs/index.ts';
import { errorText } from './error-text.ts';
import type { AnimationRecord, PromptRecord } from './animation-record.ts';

export const RENDER_SIZE = 512;
export const THUMBNAIL_SIZE = 256;
export const character = (seed: string): MeshOptions => ({
  seed,
  kind: 'character',
  targetFaces: 4000,
  pivot: [0, -0.5, 0],
});

/** The recipe of an uploaded character's animated file: FBX as the service delivers it, or GLB. */
export function characterFile(format: 'glb' | 'fbx', character: string, clips: string[]) {
  return { type: format === 'fbx' ? ('character-fbx' as const) : ('character-glb' as const), character, clips };
}

export function finishSessionOutputs(rec: AnimationRecord, endedAt: number, format: 'glb' | 'fbx' = 'glb'): void {
  rec.updated_at = iso(endedAt);
  if (rec.fails) {
    rec.status = 'init_failed';
    return;
  }
  const code = rec.session_code;
  rec.status = 'predefined_done';
  const made = rec.character?.made;
  if (made !== undefined) {
    // The uploaded character on its own skeleton: each library file has one clip, animation_url all of them
    // (FBX with one take per clip, as the service delivers them, or GLB: the engine's animationFiles).
    for (const entry of rec.library)
      entry.file = output(
        code,
        `animation-${entry.label.toLowerCase()}`,
        characterFile(format, made.model, [entry.label]),
      );
    rec.outputs = {
      render_url: { key: made.render, recipe: { type: 'made' } },
      thumbnail: { key: made.thumbnail, recipe: { type: 'made' } },
      mesh_url: output(code, 'mesh', characterFile(format, made.model, [])),
      animation_url: output(
        code,
        'animation',
        characterFile(
          format,
          made.model,
          rec.library.map((a) => a.label),
        ),
      ),
    };
    return;
  }
  // A record of an earlier version that took a model this engine made (now refused): its procedural figure.
  // Each library file is the session's rigged figure with that one clip; animation_url holds them all.
  for (const entry of rec.library) {
    entry.file = output(code, `animation-${entry.label.toLowerCase()}`, {
      type: 'animated-glb',
      seed: code,
      size: RENDER_SIZE,
      clips: [entry.label],
    });
  }
  rec.outputs = {
    render_url: output(code, 'render', { type: 'figure', seed: code, size: RENDER_SIZE }),
    thumbnail: output(code, 'thumbnail', { type: 'figure', seed: code, size: THUMBNAIL_SIZE }),
    mesh_url: output(code, 'mesh', { type: 'glb', mesh: character(code), texture: true }),
    animation_url: output(code, 'animation', {
      type: 'animated-glb',
      seed: code,
      size: RENDER_SIZE,
      clips: rec.library.map((a) => a.label),
    }),
  };
}

/** A mesh that cannot be used ends the session `init_failed` (with why), and its texts not done `text_failed`. */
export function failOnInput(rec: AnimationRecord, message: string, at: number): void {
  rec.status = 'init_failed';
  rec.input_error = errorText(message);
  rec.updated_at = iso(at);
  for (const p of rec.prompts) {
    if (p.status === 'text_done') continue;
    delete p.step;
    p.status = 'text_failed';
    p.updated_at = iso(at);
  }
}

export function finishPrompt(
  rec: AnimationRecord,
  prompt: PromptRecord,
  endedAt: number,
  format: 'glb' | 'fbx' = 'glb',
): void {
  prompt.updated_at = iso(endedAt);
  prompt.status = 'text_done';
  const made = rec.character?.made;
  if (made !== undefined) {
    // The uploaded character with one clip named by the text (FBX: a take named so); USDZ holds its mesh at rest.
    prompt.mesh = output(prompt.session_code, `prompt-${prompt._id}`, characterFile(format, made.model, [prompt.text]));
    prompt.usdz = output(prompt.session_code, `prompt-${prompt._id}`, {
      type: 'character-usdz',
      character: made.model,
    });
    return;
  }
  // The animated figure (a clip named by the text, its motion seeded by it); USDZ stays a static mesh.
  prompt.mesh = output(prompt.session_code, `prompt-${prompt._id}`, {
    type: 'animated-glb',
    seed: prompt.session_code,
    size: RENDER_SIZE,
    clips: [prompt.text],
  });
  prompt.usdz = output(prompt.session_code, `prompt-${prompt._id}`, {
    type: 'usdz',
    mesh: character(`${prompt.session_code}:${prompt.text}`),
  });
}
