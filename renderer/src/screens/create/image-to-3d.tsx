// Image to 3D in one step (POST /image-to-3d-sessions) with every option and its default.
import { useState } from 'preact/hooks';
import { createImageTo3dRequest } from '../../../../shared/contract/image-to-3d.ts';
import { ImageTo3dSettingsFields, useImageTo3dSettings } from './image-to-3d-settings.tsx';
import { takeHandOff } from '../../next-step.ts';
import { SmallPictureWarning, usePictureSize } from './picture-size.tsx';
import { bindFields, useValues } from './fields.ts';
import { FormFooter, num, useCreateForm, FormShell } from './form.tsx';
import {
  CheckboxField,
  ImageSourceInput,
  TextField,
  Vec3Input,
  emptyImage,
  imageOf,
  type ImageValue,
  type Vec3Text,
} from './inputs.tsx';

/** The form's own fields, by the request field each fills (the four settings are ./image-to-3d-settings.tsx's). */
interface Fields {
  image_url: ImageValue;
  scaled_bbox: Vec3Text;
  preserve_aspect_ratio: boolean;
}

export function ImageTo3dForm() {
  // From a text-to-image job's "Make a 3D model from this picture": its picture, read from the cache.
  // The 3D job is named after the picture's prompt ("3D of <prompt>"), not after its file name.
  const [handed] = useState(() => takeHandOff('image-to-3d'));
  const [values, setValue] = useValues<Fields>(() => ({
    image_url: handed ? { mode: 'file', url: '', dataUri: handed.image, fileName: handed.fileName } : emptyImage,
    scaled_bbox: ['-1', '-1', '-1'],
    preserve_aspect_ratio: false,
  }));
  const [settings, set] = useImageTo3dSettings();
  const [label, setLabel] = useState(handed?.label ?? '');
  const image = values.image_url;
  const body = () => ({
    image_url: imageOf(image),
    ...settings,
    scaled_bbox: values.scaled_bbox.map(num),
    preserve_aspect_ratio: values.preserve_aspect_ratio,
  });
  const form = useCreateForm(createImageTo3dRequest, body);
  const field = bindFields(form, values, setValue);
  const pictureSize = usePictureSize(image.mode === 'file' ? image.dataUri : '');
  const name = label.trim() || image.fileName || undefined;
  return (
    <FormShell
      titleId="form-title"
      onSubmit={() => {
        void form.submit({ endpoint: 'createImageTo3d', body: body(), ...(name && { label: name }) });
      }}
    >
      <h2 id="form-title">Image to 3D</h2>
      <p class="hint">One request makes a textured mesh from one picture.</p>
      <ImageSourceInput id="i3d-image" {...field('image_url')} />
      <SmallPictureWarning size={pictureSize} resolution={settings.resolution} texture={settings.texture_model} />
      <div class="grid-2">
        <ImageTo3dSettingsFields idPrefix="i3d" value={settings} onChange={set} errors={form.errors} />
      </div>
      <Vec3Input
        id="i3d-bbox"
        legend="Scaled bounding box (metres)"
        names={['Width', 'Height', 'Depth']}
        {...field('scaled_bbox')}
        hint="-1 in a box means automatic (default -1, -1, -1)."
      />
      <CheckboxField
        id="i3d-preserve"
        label="Preserve aspect ratio"
        {...field('preserve_aspect_ratio')}
        hint="With a bounding box: scale to the largest size inside it without stretching (default off)."
      />
      <TextField
        id="i3d-label"
        label="Name in the library (optional)"
        maxLength={200}
        value={label}
        onChange={setLabel}
      />
      <FormFooter form={form} label="Create 3D model" endpoint="createImageTo3d" created="Image to 3D" />
    </FormShell>
  );
}
