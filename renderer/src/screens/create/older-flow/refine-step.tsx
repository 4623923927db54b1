// Step 3 of the step-by-step flow: refine the preview, its pivot starting from the preview's.
import type { JobView } from '../../../../../shared/bridge/contract.ts';
import { refineRequest } from '../../../../../shared/contract/image-to-3d.ts';
import { bindFields, type SetValue } from '../fields.ts';
import { CreatedJob, type CreateOutput, FormFooter, num, useCreateForm } from '../form.tsx';
import type { Vec3Text } from '../inputs.tsx';
import { PivotInput, submitStep } from './step-form.tsx';

export interface RefineFields {
  pivot_point: Vec3Text;
}

export function RefineStep(props: {
  code: string;
  previewOut: CreateOutput | undefined;
  previewJob: JobView | undefined;
  refine: RefineFields;
  setRefine: SetValue<RefineFields>;
  refineOut: CreateOutput | undefined;
  onRefine: (out: CreateOutput) => void;
}) {
  const { refine, previewOut } = props;
  const refineBody = () => ({ pivot_point: refine.pivot_point.map(num) });
  const refineForm = useCreateForm(refineRequest, refineBody);
  const refineField = bindFields(refineForm, refine, props.setRefine);
  return (
    <li class="step">
      <h4>3. Refine</h4>
      {!previewOut && <p class="muted">Available once a preview was asked for.</p>}
      {previewOut && (
        <form noValidate onSubmit={submitStep(props.code, refineForm, 'refine', refineBody, props.onRefine)}>
          <PivotInput
            id="ref-pivot"
            legend="Pivot point of the refined mesh"
            {...refineField('pivot_point')}
            hint="Each from -0.5 to 0.5; 0, 0, 0 is the centre."
          />
          {props.previewJob?.state === 'succeeded' ? (
            <FormFooter form={refineForm} label="Refine mesh" endpoint="refine" />
          ) : (
            <p class="muted">The refine button appears when the preview is done.</p>
          )}
        </form>
      )}
      {props.refineOut && <CreatedJob result={props.refineOut} what="Refine" />}
    </li>
  );
}
