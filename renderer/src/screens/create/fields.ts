// A form's field values in one record, and each control bound to its value by one name: the value and its
// change, and the form's touch and messages of the request field it fills (instead of that name written into
// value, onChange, onTouch and errors of every control). Used by the create forms and the settings.
import { useState } from 'preact/hooks';
import type { FieldProps } from './inputs.tsx';

/** What a form checks its fields with: a create form (./form.tsx) is one. */
export interface FieldChecks {
  /** The messages of a request field (e.g. `prompt`, `input.mesh`, `webhooks.port`). */
  errors(field: string): string[] | undefined;
  /** The user changed the field: its messages may show now, and the server's old ones go. */
  touch(field: string): void;
}

/** The props a bound control takes (TextField, CheckboxField, SelectField, Vec3Input, ImageSourceInput). */
export type BoundField<T> = Pick<FieldProps<T>, 'value' | 'onChange' | 'errors'> & { onTouch: () => void };

export type SetValue<V> = <K extends keyof V>(key: K, value: V[K]) => void;

/** The values of a form's fields, starting at `initial`, and a setter of one. */
export function useValues<V extends object>(initial: V | (() => V)): [V, SetValue<V>, (all: V) => void] {
  const [values, setValues] = useState<V>(initial);
  return [values, (key, value) => setValues((v) => ({ ...v, [key]: value })), setValues];
}

/**
 * Binds the fields of `values` to controls: `field(key)` spreads into a control as its value, change, touch
 * and messages. The request field checked is `prefix` + the key unless `check` names it (a value kept under
 * another name: the text of a number, a key of a nested object).
 */
export function bindFields<V extends object>(form: FieldChecks, values: V, set: SetValue<V>, prefix = '') {
  return <K extends keyof V & string>(key: K, check = `${prefix}${key}`): BoundField<V[K]> => ({
    value: values[key],
    onChange: (value) => set(key, value),
    onTouch: () => form.touch(check),
    errors: form.errors(check),
  });
}
