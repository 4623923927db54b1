import { type Output } from '../artifacts.ts';
import { type Stepped } from '../progress.ts';
import { type InputRef } from './common.ts';
import type { CharacterFiles } from '../character/make-files.ts';

export interface PromptRecord extends Stepped {
  _id: string;
  session_code: string;
  text: string;
  /** `text_queued` (no step yet) while the session's mesh is not ready; then its step runs. */
  status: string;
  /** Reported while it runs, when a session-status fault rule says so. */
  running_status?: string;
  mesh?: Output;
  usdz?: Output;
  created_at: string;
  updated_at: string;
}

export interface AnimationRecord extends Stepped {
  _id: string;
  session_code: string;
  user_id: string;
  source: InputRef;
  /** The engine's image-to-3D session whose file `source.url` is (animation-source.ts); absent in older records. */
  image_to_3d_session_code?: string;
  /** Why the mesh could not be used (the session failed). */
  input_error?: string;
  status: string;
  fails: boolean;
  /** Reported while it runs, when a session-status fault rule says so. */
  running_status?: string;
  outputs: Partial<Record<'render_url' | 'mesh_url' | 'thumbnail' | 'animation_url', Output>>;
  library: { label: string; _id: string; file?: Output }[];
  prompts: PromptRecord[];
  /**
   * The uploaded character (character/): its files once read, or why it cannot be animated. `figure` only in a
   * record of an earlier version, which animated a model this engine made on its procedural figure (a model
   * with no bones is refused now: character/judge.ts). Absent in records of older versions still.
   */
  character?: { kind?: 'character' | 'mesh' | 'figure'; entry?: string; made?: CharacterFiles; error?: string };
  created_at: string;
  updated_at: string;
}
