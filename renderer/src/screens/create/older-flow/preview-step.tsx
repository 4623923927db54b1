// Step 2 of the step-by-step flow: a preview mesh from the chosen spin view, with its model version and pivot.
import { PREVIEW_MODEL_VERSIONS, previewRequest } from '../../../../../shared/contract/image-to-3d.ts';
import { bindFields, useValues } from '../fields.ts';
import { CreatedJob, type CreateOutput, FormFooter, num, useCreateForm } from '../form.tsx';
import { SelectField, type Vec3Text } from '../inputs.tsx';
import type { Spin } from './spins.ts';
import { PivotInput, submitStep } from './step-form.tsx';

/** The preview step's own fields, by the request field each fills. */
interface PreviewFields {
  model_version: (typeof PREVIEW_MODEL_VERSIONS)[number];
  pivot_point: Vec3Text;
}

export function PreviewStep(props: {
  code: string;
  spins: Spin[] | undefined;
  chosen: number;
  previewOut: CreateOutput | undefined;
  /** The preview was asked for, with this pivot. */
  onPreview: (out: CreateOutput, pivot: Vec3Text) => void;
}) {
  const { spins, chosen } = props;
  const [preview, setPreview] = useValues<PreviewFields>({ model_version: '1.1', pivot_point: ['0', '0', '0'] });
  const previewBody = () => {
    const spin = spins?.find((s) => s.index === chosen);
    return {
      model_version: preview.model_version,
      selected_spin_index: chosen,
      ...(spin?.remote && { selected_spin: spin.remote }),
      pivot_point: preview.pivot_point.map(num),
    };
  };
  const previewForm = useCreateForm(previewRequest, previewBody);
  const previewField = bindFields(previewForm, preview, setPreview);
  return (
    <li class="step">
      <h4>2. Preview mesh</h4>
      <form
        noValidate
        onSubmit={submitStep(props.code, previewForm, 'preview', previewBody, (out) =>
          props.onPreview(out, preview.pivot_point),
        )}
      >
        <div class="grid-2">
          <SelectField
            id="prev-version"
            label="Preview model version"
            options={PREVIEW_MODEL_VERSIONS}
            defaultValue="1.1"
            {...previewField('model_version')}
          />
          <p class="hint">Spin view used: {spins?.length ? `spin ${chosen + 1}` : 'the first (index 0, default)'}</p>
        </div>
        <PivotInput
          id="prev-pivot"
          legend="Pivot point"
          {...previewField('pivot_point')}
          hint="Each from -0.5 to 0.5 of the bounding box; 0, 0, 0 is the centre (default), 0, -0.5, 0 the centre of the bottom."
        />
        {previewForm.errors('selected_spin_index') && (
          <p class="job-error">{previewForm.errors('selected_spin_index')!.join(' ')}</p>
        )}
        <FormFooter form={previewForm} label="Make preview" endpoint="preview" />
      </form>
      {props.previewOut && <CreatedJob result={props.previewOut} what="Preview" />}
    </li>
  );
}
