// What a file offered as an input is by its name, before anything is read: a picture (image to 3D), an FBX or a zip
// (of FBX files, an animation upload). One table for main's inspection (main/files/inspect.ts: the content must then
// match the name) and the renderer's batch dialog (renderer/src/dropped-kind.ts: what a dropped file becomes).

export type NamedInputKind = 'image' | 'fbx' | 'zip';

const BY_EXTENSION: Readonly<Record<string, NamedInputKind>> = {
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.webp': 'image',
  '.fbx': 'fbx',
  '.zip': 'zip',
};

/** The kind a file name says (`chair.PNG` → image), undefined for other names (as path.extname, a leading dot is no extension). */
export function inputKindOfName(name: string): NamedInputKind | undefined {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[base.slice(dot).toLowerCase()] : undefined;
}
