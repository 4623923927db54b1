// What the preview and refine steps share: sending the step for the session, and the pivot input.
import type { CreateForm, CreateOutput } from '../form.tsx';
import { type FieldProps, Vec3Input, type Vec3Text } from '../inputs.tsx';

/** A step's form sends `endpoint` for the session `code` with the form's body, then hands on what it answered. */
export const submitStep =
  (
    code: string,
    form: CreateForm,
    endpoint: 'preview' | 'refine',
    body: () => unknown,
    then: (out: CreateOutput) => void,
  ) =>
  async (e: Event) => {
    e.preventDefault();
    const out = await form.submit({
      endpoint,
      params: { session_code: code },
      body: body(),
      label: `${code} ${endpoint}`,
    });
    if (out) then(out);
  };

/** The pivot_point of a preview or refine step: X, Y and Z in steps of 0.05. */
export function PivotInput(props: FieldProps<Vec3Text> & { legend: string }) {
  return <Vec3Input {...props} names={['X', 'Y', 'Z']} step="0.05" />;
}
