// The options of an image-to-3D create as people meet them: the one table beside its schema (image-to-3d.ts) that
// the CLI's options and their parsing (main/cli), the lost-create search's comparison (main/jobs) and the create
// form's fields (renderer/) read; their defaults come from the schema's own parse. A new optional field of the
// create is a line here and its schema.
import {
  createImageTo3dRequest,
  GEOMETRY_MODELS,
  RESOLUTIONS,
  TEXTURE_MODELS,
  TOPOLOGIES,
  type CreateImageTo3dRequest,
} from './image-to-3d.ts';

type Field = Exclude<keyof CreateImageTo3dRequest, 'image_url'>;

interface OptionBase {
  /** The request's field. */
  field: Field;
  /** The CLI's option (`--geometry-model`). */
  option: string;
  /** The CLI's help text. */
  text: string;
}

/** One of a list of values: a select in the form. */
export interface ChoiceOption extends OptionBase {
  kind: 'choice';
  choices: readonly string[];
  /** The form's label, and words for values that say little alone. */
  label: string;
  labels?: Readonly<Record<string, string>>;
  hint?: string;
  /** The form's id suffix (`<prefix>-geometry`). */
  id: string;
}

/** Three numbers (`W,H,D`). */
export interface TripleOption extends OptionBase {
  kind: 'triple';
  value: string;
}

/** true when given. */
export interface FlagOption extends OptionBase {
  kind: 'flag';
}

export type ImageTo3dOption = ChoiceOption | TripleOption | FlagOption;

export const IMAGE_TO_3D_OPTIONS: readonly ImageTo3dOption[] = [
  {
    field: 'geometry_model',
    option: 'geometry-model',
    kind: 'choice',
    choices: GEOMETRY_MODELS,
    text: 'geometry model',
    id: 'geometry',
    label: 'Geometry model',
    hint: 'turbo is faster; base is more detailed.',
  },
  {
    field: 'texture_model',
    option: 'texture-model',
    kind: 'choice',
    choices: TEXTURE_MODELS,
    text: 'texture model',
    id: 'texture',
    label: 'Texture model',
    labels: {
      none: 'none (no texture)',
      baked: 'baked (lighting in the colours)',
      pbr: 'pbr (albedo, metallic, roughness)',
    },
    hint: "none is the service's default: the model comes grey, with no texture. For a game asset choose pbr (colour, metallic and roughness maps that light correctly in Unity, Unreal and Godot) or baked (the picture's lighting painted in).",
  },
  {
    field: 'scaled_bbox',
    option: 'scaled-bbox',
    kind: 'triple',
    value: 'W,H,D',
    text: "size in metres of the model's box, -1 for automatic (e.g. 1,-1,-1)",
  },
  {
    field: 'preserve_aspect_ratio',
    option: 'preserve-aspect-ratio',
    kind: 'flag',
    text: 'keep the proportions of the image in the model',
  },
  {
    field: 'topology',
    option: 'topology',
    kind: 'choice',
    choices: TOPOLOGIES,
    text: 'triangles or quads',
    id: 'topology',
    label: 'Topology',
    labels: { tris: 'tris (triangles)', quads: 'quads' },
  },
  {
    field: 'resolution',
    option: 'resolution',
    kind: 'choice',
    choices: RESOLUTIONS,
    text: 'mesh density',
    id: 'resolution',
    label: 'Resolution',
  },
];

/** The create's defaults, from its schema (SERVICE_API.md's defaults). */
export const IMAGE_TO_3D_DEFAULTS: Readonly<Omit<CreateImageTo3dRequest, 'image_url'>> = createImageTo3dRequest
  .omit({ image_url: true })
  .parse({});

/** The options chosen from a list (the form's selects). */
export const IMAGE_TO_3D_CHOICES = IMAGE_TO_3D_OPTIONS.filter((o): o is ChoiceOption => o.kind === 'choice');
