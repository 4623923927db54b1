// Image to 3D in one step (POST /image-to-3d-sessions) with every option and its default.
import { useState } from 'preact/hooks';
import {
  GEOMETRY_MODELS,
  RESOLUTIONS,
  TEXTURE_MODELS,
  TOPOLOGIES,
  createImageTo3dRequest,
} from '../../../../shared/contract/image-to-3d.ts';
import { takeHandOff } from '../../next-step.ts';
import { SmallPictureWarning, usePictureSize } from './picture-size.tsx';
import { CreatedJob, FormFooter, num, useCreateForm, FormShell } from './form.tsx';
import {
  CheckboxField,
  ImageSourceInput,
  SelectField,
  Vec3Input,
  emptyImage,
  imageOf,
  type ImageValue,
  type Vec3Text,
} from './inputs.tsx';

export function ImageTo3dForm() {
  // From a text-to-image job's "Make a 3D model from this picture": its picture, read from the cache.
  // The 3D job is named after the picture's prompt ("3D of <prompt>"), not after its file name.
  const [handed] = useState(() => takeHandOff('image-to-3d'));
  const [image, setImage] = useState<ImageValue>(() =>
    handed ? { mode: 'file', url: '', dataUri: handed.image, fileName: handed.fileName } : emptyImage,
  );
  const [geometry, setGeometry] = useState<(typeof GEOMETRY_MODELS)[number]>('base');
  const [texture, setTexture] = useState<(typeof TEXTURE_MODELS)[number]>('none');
  const [bbox, setBbox] = useState<Vec3Text>(['-1', '-1', '-1']);
  const [preserve, setPreserve] = useState(false);
  const [topology, setTopology] = useState<(typeof TOPOLOGIES)[number]>('tris');
  const [resolution, setResolution] = useState<(typeof RESOLUTIONS)[number]>('high_poly');
  const [label, setLabel] = useState(handed?.label ?? '');
  const body = () => ({
    image_url: imageOf(image),
    geometry_model: geometry,
    texture_model: texture,
    scaled_bbox: bbox.map(num),
    preserve_aspect_ratio: preserve,
    topology,
    resolution,
  });
  const form = useCreateForm(createImageTo3dRequest, body);
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
      <ImageSourceInput
        id="i3d-image"
        value={image}
        onChange={setImage}
        errors={form.errors('image_url')}
        onTouch={() => form.touch('image_url')}
      />
      <SmallPictureWarning size={pictureSize} resolution={resolution} texture={texture} />
      <div class="grid-2">
        <SelectField
          id="i3d-geometry"
          label="Geometry model"
          value={geometry}
          options={GEOMETRY_MODELS}
          defaultValue="base"
          onChange={setGeometry}
          errors={form.errors('geometry_model')}
          hint="turbo is faster; base is more detailed."
        />
        <SelectField
          id="i3d-texture"
          label="Texture model"
          value={texture}
          options={TEXTURE_MODELS}
          defaultValue="none"
          labels={{
            none: 'none (no texture)',
            baked: 'baked (lighting in the colours)',
            pbr: 'pbr (albedo, metallic, roughness)',
          }}
          onChange={setTexture}
          errors={form.errors('texture_model')}
          hint="none is the service's default: the model comes grey, with no texture. For a game asset choose pbr (colour, metallic and roughness maps that light correctly in Unity, Unreal and Godot) or baked (the picture's lighting painted in)."
        />
        <SelectField
          id="i3d-topology"
          label="Topology"
          value={topology}
          options={TOPOLOGIES}
          defaultValue="tris"
          labels={{ tris: 'tris (triangles)', quads: 'quads' }}
          onChange={setTopology}
          errors={form.errors('topology')}
        />
        <SelectField
          id="i3d-resolution"
          label="Resolution"
          value={resolution}
          options={RESOLUTIONS}
          defaultValue="high_poly"
          labels={{ low_poly: 'low_poly', high_poly: 'high_poly' }}
          onChange={setResolution}
          errors={form.errors('resolution')}
        />
      </div>
      <Vec3Input
        id="i3d-bbox"
        legend="Scaled bounding box (metres)"
        names={['Width', 'Height', 'Depth']}
        value={bbox}
        onChange={setBbox}
        onTouch={() => form.touch('scaled_bbox')}
        errors={form.errors('scaled_bbox')}
        hint="-1 in a box means automatic (default -1, -1, -1)."
      />
      <CheckboxField
        id="i3d-preserve"
        label="Preserve aspect ratio"
        checked={preserve}
        onChange={setPreserve}
        hint="With a bounding box: scale to the largest size inside it without stretching (default off)."
        errors={form.errors('preserve_aspect_ratio')}
      />
      <div class="field">
        <label for="i3d-label">Name in the library (optional)</label>
        <input
          id="i3d-label"
          type="text"
          maxLength={200}
          value={label}
          onInput={(e) => setLabel(e.currentTarget.value)}
        />
      </div>
      <FormFooter form={form} label="Create 3D model" endpoint="createImageTo3d" />
      {form.result && <CreatedJob result={form.result} what="Image to 3D" />}
    </FormShell>
  );
}
