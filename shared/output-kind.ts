// The outputs of a job, typed. Each downloaded file of a session is stored under a string key (the cache's
// `kind` column, the `/cache/<session>/<kind>` URL, the e2e tests): `glb`, `preview_glb`, `spin_0`,
// `prompt:<id>:usdz`, `retopo_obj_1`… This module is the only one that reads or writes those strings:
// everyone else parses a key once (parseOutputKind) and works with the OutputKind it gets, or formats one
// (formatOutputKind). The strings are unchanged, so a cache filled by an earlier version keeps working.
import type { AnimatedFormat } from './file-format.ts';
import type { ModelFileFormat } from './model-formats.ts';

/** The files of one mesh, by format (`zip`: the OBJ with its MTL and texture). */
export const MESH_FILE_FORMATS = ['glb', 'obj', 'fbx', 'usdz', 'zip'] as const;
export type MeshFileFormat = (typeof MESH_FILE_FORMATS)[number];

/** Which mesh of an image-to-3D session: the final one, the older flow's preview, or its refined (polished) one. */
export const MESH_STAGES = ['final', 'preview', 'polished'] as const;
export type MeshStage = (typeof MESH_STAGES)[number];

/** The groups of files the user chooses to download (settings: output formats). GLB is always downloaded. */
export const OUTPUT_FORMATS = ['glb', 'obj', 'fbx', 'usdz', 'zip', 'image', 'mp4'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export type OutputKind =
  /** An image-to-3D mesh: `glb`, `obj`, …, `preview_glb`, `polished_usdz`, … */
  | { type: 'mesh'; stage: MeshStage; format: MeshFileFormat }
  /** The turntable video of an image-to-3D session: `mp4`. */
  | { type: 'video' }
  /** One of the older flow's four spin views: `spin_0` … `spin_3`. */
  | { type: 'spin'; index: number }
  /** The image of a text-to-image session: `image`. */
  | { type: 'image' }
  /** The mesh a mesh-animation session was made from: `mesh`. */
  | { type: 'input-mesh' }
  /** A mesh-animation session's animated model with all its clips (GLB or FBX: file-format.ts says which): `animation`. */
  | { type: 'animation' }
  /** A mesh-animation session's render (the joint overlay's picture) and thumbnail: `render`, `thumbnail`. */
  | { type: 'render' }
  | { type: 'thumbnail' }
  /**
   * An animated clip: `library:<id>` (the session's animation library), `prompt:<id>` (a text prompt's animated
   * model: `format: 'model'`, an FBX from the service, a GLB or FBX from the local engine; its file format is
   * never assumed, file-format.ts finds it from the URL and the bytes) and `prompt:<id>:usdz` (its USDZ).
   */
  | { type: 'clip'; source: ClipSource; id: string; format: 'model' | 'usdz' }
  /** A retopology's mesh and its image, one per output mesh: `retopo_obj`, `retopo_obj_1`, `retopo_image`, … */
  | { type: 'retopology'; file: 'obj' | 'image'; index: number }
  /**
   * A file an OBJ output names, downloaded from beside it and kept with it (its MTL, the textures the MTL
   * names): `<the OBJ's key>:<name>`, e.g. `obj:mesh.mtl`, `retopo_obj_1:mesh.png`. `of` is the OBJ's key (a
   * mesh's or a retopology's OBJ); `name` a plain file name (OBJ_FILE_NAME).
   */
  | { type: 'obj-file'; of: string; name: string };

export type ClipSource = 'library' | 'prompt';
export type OutputType = OutputKind['type'];

const STAGE_PREFIX: Readonly<Record<MeshStage, string>> = { final: '', preview: 'preview_', polished: 'polished_' };
const SINGLE = {
  mp4: 'video',
  image: 'image',
  mesh: 'input-mesh',
  animation: 'animation',
  render: 'render',
  thumbnail: 'thumbnail',
} as const;
type SingleType = (typeof SINGLE)[keyof typeof SINGLE];
const SINGLE_KEY = Object.fromEntries(Object.entries(SINGLE).map(([key, type]) => [type, key])) as Record<
  SingleType,
  string
>;
const USDZ_SUFFIX = ':usdz';
/** A companion file's name: a plain name (no folder, no leading dot), as an OBJ or MTL names its files. */
export const OBJ_FILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_. -]{0,199}$/;
/** A whole number as the key writes it: `0`, `7`, `12` (not `01`, `+1`, `1e2`). */
const INDEX = /^(?:0|[1-9][0-9]{0,5})$/;

/** The key of an output as it is stored and sent. */
export function formatOutputKind(kind: OutputKind): string {
  switch (kind.type) {
    case 'mesh':
      return `${STAGE_PREFIX[kind.stage]}${kind.format}`;
    case 'spin':
      return `spin_${kind.index}`;
    case 'clip':
      return `${kind.source}:${kind.id}${kind.format === 'usdz' ? USDZ_SUFFIX : ''}`;
    case 'retopology':
      return `retopo_${kind.file}${kind.index === 0 ? '' : `_${kind.index}`}`;
    case 'obj-file':
      return `${kind.of}:${kind.name}`;
    default:
      return SINGLE_KEY[kind.type];
  }
}

/** The output a stored key names, or undefined for a key this version does not know (show it as it is). */
export function parseOutputKind(key: string): OutputKind | undefined {
  if (Object.hasOwn(SINGLE, key)) return { type: SINGLE[key as keyof typeof SINGLE] };
  for (const stage of MESH_STAGES) {
    const prefix = STAGE_PREFIX[stage];
    const format = key.startsWith(prefix) ? key.slice(prefix.length) : undefined;
    if (format !== undefined && (MESH_FILE_FORMATS as readonly string[]).includes(format))
      return { type: 'mesh', stage, format: format as MeshFileFormat };
  }
  const colon = key.indexOf(':');
  if (colon > 0)
    return (
      parseObjFile(key.slice(0, colon), key.slice(colon + 1)) ?? parseClip(key.slice(0, colon), key.slice(colon + 1))
    );
  const spin = /^spin_(.+)$/.exec(key);
  if (spin) return INDEX.test(spin[1]!) ? { type: 'spin', index: Number(spin[1]) } : undefined;
  const retopo = /^retopo_(obj|image)(?:_(.+))?$/.exec(key);
  if (retopo) {
    const index = retopo[2];
    if (index !== undefined && (!INDEX.test(index) || index === '0')) return undefined; // the first one has no number
    return { type: 'retopology', file: retopo[1] as 'obj' | 'image', index: index === undefined ? 0 : Number(index) };
  }
  return undefined;
}

/** `<OBJ key>:<name>` (`obj:mesh.mtl`, `retopo_obj_1:mesh.png`): a file that OBJ names. */
function parseObjFile(owner: string, name: string): OutputKind | undefined {
  if (!isObjOutput(parseOutputKind(owner)) || !OBJ_FILE_NAME.test(name)) return undefined;
  return { type: 'obj-file', of: owner, name };
}

/** An OBJ file output (a mesh's or a retopology's), whose MTL and textures are kept beside it. */
export function isObjOutput(kind: OutputKind | undefined): boolean {
  return (kind?.type === 'mesh' && kind.format === 'obj') || (kind?.type === 'retopology' && kind.file === 'obj');
}

/** `library:<id>`, `prompt:<id>`, `prompt:<id>:usdz`: the id is everything between (never empty). */
function parseClip(source: string, rest: string): OutputKind | undefined {
  if (source !== 'library' && source !== 'prompt') return undefined;
  const usdz = rest.endsWith(USDZ_SUFFIX);
  const id = usdz ? rest.slice(0, -USDZ_SUFFIX.length) : rest;
  return id === '' ? undefined : { type: 'clip', source, id, format: usdz ? 'usdz' : 'model' };
}

/**
 * The download group of an output in the settings' output formats, or undefined for the job's main result
 * (an animation, a clip's GLB, a retopologized mesh), which is always downloaded.
 */
export function downloadFormat(kind: OutputKind): OutputFormat | undefined {
  switch (kind.type) {
    case 'mesh':
      return kind.format;
    case 'video':
      return 'mp4';
    case 'spin':
    case 'image':
    case 'render':
    case 'thumbnail':
      return 'image';
    case 'clip':
      return kind.format === 'usdz' ? 'usdz' : undefined;
    case 'retopology':
      return kind.file === 'image' ? 'image' : undefined;
    default:
      return undefined;
  }
}

/**
 * The 3D model format of an output the viewer can open, or undefined when it holds no model. An animated model
 * (the session's animation, a clip's model) has the format `animated` says (file-format.ts animatedFormatOf, from
 * its URL and bytes): without it, undefined, never a guess.
 */
export function modelFormat(kind: OutputKind | undefined, animated?: AnimatedFormat): ModelFileFormat | undefined {
  switch (kind?.type) {
    case 'mesh':
      return kind.format === 'zip' ? undefined : kind.format;
    case 'clip':
      return kind.format === 'usdz' ? 'usdz' : animated;
    case 'animation':
      return animated;
    case 'retopology':
      return kind.file === 'obj' ? 'obj' : undefined;
    default:
      return undefined; // the uploaded mesh of an animation names no format
  }
}

/** The animated models of a mesh-animation session (GLB or FBX): its animation and each clip's model. */
export function isAnimatedModel(kind: OutputKind | undefined): boolean {
  return kind?.type === 'animation' || (kind?.type === 'clip' && kind.format === 'model');
}

/** A picture (for thumbnails): a generated image, a spin view, a render or thumbnail, a retopology's image. */
export function isPicture(kind: OutputKind | undefined): boolean {
  const type = kind?.type;
  return (
    type === 'image' ||
    type === 'spin' ||
    type === 'render' ||
    type === 'thumbnail' ||
    (kind?.type === 'retopology' && kind.file === 'image')
  );
}

/** What a user calls the clips of a session, by source and id (the library's labels, the prompts' texts). */
export type ClipNames = Readonly<Record<ClipSource, ReadonlyMap<string, string>>>;

export interface OutputLabelContext {
  /** The names of the session's clips, when the job's result is known. */
  clips?: ClipNames | undefined;
  /** Name the file format too (default); false where the format is shown beside the label. */
  format?: boolean | undefined;
}

const FORMAT_LABEL: Readonly<Record<MeshFileFormat, string>> = {
  glb: 'GLB',
  obj: 'OBJ',
  fbx: 'FBX',
  usdz: 'USDZ',
  zip: 'zip',
};
const STAGE_LABEL: Readonly<Record<MeshStage, string>> = {
  final: 'Mesh',
  preview: 'Preview mesh',
  polished: 'Refined mesh',
};
const SINGLE_LABEL: Readonly<Record<SingleType, string>> = {
  video: 'Turntable video',
  image: 'Image',
  'input-mesh': 'Uploaded mesh',
  animation: 'Session animation (all clips)',
  render: 'Render',
  thumbnail: 'Thumbnail',
};

/**
 * What users see for an output: a name, never an id (`prompt:66a1…` is "Prompt: walk forward" when the
 * prompt's text is known). A key this version does not know is shown as it is.
 */
export function outputLabel(kind: OutputKind | string, context: OutputLabelContext = {}): string {
  const k = typeof kind === 'string' ? parseOutputKind(kind) : kind;
  if (k === undefined) return String(kind);
  const format = (name: string) => (context.format === false ? '' : ` (${name})`);
  switch (k.type) {
    case 'mesh':
      return `${STAGE_LABEL[k.stage]}${format(FORMAT_LABEL[k.format])}`;
    case 'video':
      return `${SINGLE_LABEL.video}${format('MP4')}`;
    case 'spin':
      return `Spin view ${k.index + 1}`;
    case 'clip': {
      const name = context.clips?.[k.source].get(k.id) || k.id;
      return `${k.source === 'library' ? 'Library' : 'Prompt'}: ${name}${k.format === 'usdz' ? format('USDZ') : ''}`;
    }
    case 'retopology': {
      const mesh = `Retopologized mesh${k.index === 0 ? '' : ` ${k.index + 1}`}`;
      return k.file === 'obj' ? `${mesh}${format('OBJ')}` : `${mesh} (image)`;
    }
    case 'obj-file':
      return `${outputLabel(k.of, context)}: ${k.name}`;
    default:
      return SINGLE_LABEL[k.type];
  }
}
