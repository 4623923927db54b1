// The four settings of an image-to-3D session (geometry, texture, topology, resolution) with the service's
// defaults, their labels and hints: one home for the create form and the batch dialog, which offer the same.
import { GEOMETRY_MODELS, RESOLUTIONS, TEXTURE_MODELS, TOPOLOGIES } from '../../../../shared/contract/image-to-3d.ts';
import { type SetValue, useValues } from './fields.ts';
import { SelectField } from './inputs.tsx';

export interface ImageTo3dSettings {
  geometry_model: (typeof GEOMETRY_MODELS)[number];
  texture_model: (typeof TEXTURE_MODELS)[number];
  topology: (typeof TOPOLOGIES)[number];
  resolution: (typeof RESOLUTIONS)[number];
}

/** The service's defaults (SERVICE_API.md). */
const IMAGE_TO_3D_DEFAULTS: ImageTo3dSettings = {
  geometry_model: 'base',
  texture_model: 'none',
  topology: 'tris',
  resolution: 'high_poly',
};

type Setting = keyof ImageTo3dSettings;

/** Each setting's field: its label, choices (with words where the value alone says little) and hint. */
const FIELDS: readonly {
  key: Setting;
  id: string;
  label: string;
  options: readonly string[];
  labels?: Record<string, string>;
  hint?: string;
}[] = [
  {
    key: 'geometry_model',
    id: 'geometry',
    label: 'Geometry model',
    options: GEOMETRY_MODELS,
    hint: 'turbo is faster; base is more detailed.',
  },
  {
    key: 'texture_model',
    id: 'texture',
    label: 'Texture model',
    options: TEXTURE_MODELS,
    labels: {
      none: 'none (no texture)',
      baked: 'baked (lighting in the colours)',
      pbr: 'pbr (albedo, metallic, roughness)',
    },
    hint: "none is the service's default: the model comes grey, with no texture. For a game asset choose pbr (colour, metallic and roughness maps that light correctly in Unity, Unreal and Godot) or baked (the picture's lighting painted in).",
  },
  {
    key: 'topology',
    id: 'topology',
    label: 'Topology',
    options: TOPOLOGIES,
    labels: { tris: 'tris (triangles)', quads: 'quads' },
  },
  {
    key: 'resolution',
    id: 'resolution',
    label: 'Resolution',
    options: RESOLUTIONS,
    labels: { low_poly: 'low_poly', high_poly: 'high_poly' },
  },
];

/** The settings, starting at the service's defaults, and a setter of one (a form's values: ./fields.ts). */
export function useImageTo3dSettings(): [ImageTo3dSettings, SetValue<ImageTo3dSettings>] {
  const [settings, set] = useValues(IMAGE_TO_3D_DEFAULTS);
  return [settings, set];
}

/**
 * The four selects, ids `<idPrefix>-geometry`, `-texture`, `-topology`, `-resolution`; `errors` of each request
 * field when a form checks them; `compact` where there is no room for hints and worded choices (the batch
 * dialog's row of four: the values alone).
 */
export function ImageTo3dSettingsFields(props: {
  idPrefix: string;
  value: ImageTo3dSettings;
  onChange: SetValue<ImageTo3dSettings>;
  errors?: (field: Setting) => string[] | undefined;
  compact?: boolean;
}) {
  return (
    <>
      {FIELDS.map((f) => (
        <SelectField
          key={f.key}
          id={`${props.idPrefix}-${f.id}`}
          label={f.label}
          value={props.value[f.key]}
          options={f.options}
          defaultValue={IMAGE_TO_3D_DEFAULTS[f.key]}
          {...(f.labels && !props.compact && { labels: f.labels })}
          onChange={(v) => props.onChange(f.key, v as ImageTo3dSettings[typeof f.key])}
          errors={props.errors?.(f.key)}
          {...(!props.compact && f.hint !== undefined && { hint: f.hint })}
        />
      ))}
    </>
  );
}
