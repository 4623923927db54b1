// What a file offered for a batch becomes, known from its name before anything is read or sent: a picture
// (image to 3D), an FBX or zip (animation upload), or nothing (refused: never sent). Main checks the
// content of the others before they are submitted.
import { inputKindOfName } from '../../shared/input-names.ts';

export type DroppedKind = 'image' | 'mesh' | 'other';

/** What a dropped file becomes, by its name (main checks its content before anything is sent). */
export function droppedKind(file: { name: string }): DroppedKind {
  const kind = inputKindOfName(file.name); // the names main's inspection expects (shared/input-names.ts)
  return kind === undefined ? 'other' : kind === 'image' ? 'image' : 'mesh';
}

/** Why a file of no known kind is refused (the batch dialog says it; the queue lists it as not sent, with this). */
export const REFUSED_BY_NAME = 'not a picture (PNG, JPEG, WebP), an FBX or a zip, so it is not sent';
