// The settings of an image-to-3D session chosen from a list (geometry, texture, topology, resolution) with the
// service's defaults, their labels and hints, read from the contract's table (shared/contract/image-to-3d-options.ts):
// one home for the create form and the batch dialog, which offer the same.
import {
  IMAGE_TO_3D_CHOICES,
  IMAGE_TO_3D_DEFAULTS,
  type CreateImageTo3dRequest,
} from '../../../../shared/contract/index.ts';
import { type SetValue, useValues } from './fields.ts';
import { SelectField } from './inputs.tsx';

/** The settings chosen from a list (the contract's table of image-to-3D options says which). */
export type ImageTo3dSettings = Pick<
  CreateImageTo3dRequest,
  'geometry_model' | 'texture_model' | 'topology' | 'resolution'
>;
type Setting = keyof ImageTo3dSettings;

/** Each select's setting, label, choices, words and hint, from the contract's table. */
const FIELDS = IMAGE_TO_3D_CHOICES.map((o) => ({ ...o, key: o.field as Setting }));

/** The service's defaults, from the create's schema. */
const DEFAULTS: ImageTo3dSettings = Object.fromEntries(
  FIELDS.map((f) => [f.key, IMAGE_TO_3D_DEFAULTS[f.key]]),
) as unknown as ImageTo3dSettings;

/** The settings, starting at the service's defaults, and a setter of one (a form's values: ./fields.ts). */
export function useImageTo3dSettings(): [ImageTo3dSettings, SetValue<ImageTo3dSettings>] {
  const [settings, set] = useValues(DEFAULTS);
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
          options={f.choices}
          defaultValue={DEFAULTS[f.key]}
          {...(f.labels && !props.compact && { labels: f.labels })}
          onChange={(v) => props.onChange(f.key, v as ImageTo3dSettings[typeof f.key])}
          errors={props.errors?.(f.key)}
          {...(!props.compact && f.hint !== undefined && { hint: f.hint })}
        />
      ))}
    </>
  );
}
