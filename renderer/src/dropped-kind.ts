// What a file offered for a batch becomes, known from its name before anything is read or sent: a picture
// (image to 3D), an FBX or zip (animation upload), or nothing (refused: never sent). Main checks the
// content of the others before they are submitted.
export type DroppedKind = 'image' | 'mesh' | 'other';

/** What a dropped file becomes, by its name (main checks its content before anything is sent). */
export function droppedKind(file: { name: string }): DroppedKind {
  if (/\.(png|jpe?g|webp)$/i.test(file.name)) return 'image';
  if (/\.(fbx|zip)$/i.test(file.name)) return 'mesh';
  return 'other';
}

/** Why a file of no known kind is refused (the batch dialog says it; the queue lists it as not sent, with this). */
export const REFUSED_BY_NAME = 'not a picture (PNG, JPEG, WebP), an FBX or a zip, so it is not sent';
