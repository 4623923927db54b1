// Inputs of the create forms: an image given as a file or a URL, three numbers, choices.
import { useState } from 'preact/hooks';
import { Checkbox, RadioChoices, Select } from '../../components/choices.tsx';
import { Field, FieldMessages, FieldNotes } from '../../components/ui.tsx';
import { formatBytes, readAsDataUri } from '../../util.ts';

/**
 * What every field takes: its id (its hint and messages are `<id>-hint` and `<id>-errors`), its value and
 * change, and, from its form (see ./fields.ts), the touch and the messages of the request field it fills.
 */
export interface FieldProps<T> {
  id: string;
  value: T;
  onChange: (value: T) => void;
  onTouch?: () => void;
  hint?: string;
  errors?: string[] | undefined;
}

/** A field with a label of its own (the others have a legend). */
type LabelledProps<T> = FieldProps<T> & { label: string };

export interface ImageValue {
  mode: 'file' | 'url';
  url: string;
  /** The picked file as a data URI (the service accepts one in image_url). */
  dataUri: string;
  fileName: string;
}

const IMAGE_MODES: Record<ImageValue['mode'], string> = { file: 'A file on this computer', url: 'An image URL' };

export const emptyImage: ImageValue = { mode: 'file', url: '', dataUri: '', fileName: '' };

export function imageOf(value: ImageValue): string {
  return value.mode === 'url' ? value.url : value.dataUri;
}

export function ImageSourceInput(props: Omit<FieldProps<ImageValue>, 'hint'> & { legend?: string }) {
  const { id, value } = props;
  const [reading, setReading] = useState<string | undefined>();
  const errorId = `${id}-errors`;
  return (
    <fieldset
      class={`field image-source${props.errors?.length ? ' invalid' : ''}`}
      aria-describedby={props.errors?.length ? errorId : undefined}
    >
      <legend>{props.legend ?? 'Image'}</legend>
      <div class="segmented">
        <RadioChoices
          name={`${id}-mode`}
          value={value.mode}
          labels={IMAGE_MODES}
          onChange={(mode) => props.onChange({ ...value, mode })}
        />
      </div>
      {value.mode === 'file' ? (
        <div class="field">
          <label for={`${id}-file`}>Image file (PNG, JPEG or WebP)</label>
          <input
            id={`${id}-file`}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              props.onTouch?.();
              if (!file) return props.onChange({ ...value, dataUri: '', fileName: '' });
              setReading(file.name);
              try {
                props.onChange({ ...value, mode: 'file', dataUri: await readAsDataUri(file), fileName: file.name });
              } finally {
                setReading(undefined);
              }
            }}
          />
          {value.dataUri && !reading && (
            <img class="image-source-preview" src={value.dataUri} alt={`To send: ${value.fileName}`} />
          )}
          <p class="hint">
            {reading
              ? `Reading ${reading}…`
              : value.fileName
                ? `${value.fileName} (${formatBytes(Math.floor((value.dataUri.length * 3) / 4))})`
                : 'It is sent to the service inside the request.'}
          </p>
        </div>
      ) : (
        <div class="field">
          <label for={`${id}-url`}>Image URL</label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://…"
            value={value.url}
            onInput={(e) => (props.onChange({ ...value, url: e.currentTarget.value }), props.onTouch?.())}
          />
        </div>
      )}
      <FieldMessages id={errorId} messages={props.errors} />
    </fieldset>
  );
}

export type Vec3Text = [string, string, string];

export function Vec3Input(
  props: FieldProps<Vec3Text> & { legend: string; names: [string, string, string]; step?: string },
) {
  const errorId = `${props.id}-errors`;
  const hintId = `${props.id}-hint`;
  return (
    <fieldset
      class={`field vec3${props.errors?.length ? ' invalid' : ''}`}
      aria-describedby={[props.hint ? hintId : '', props.errors?.length ? errorId : ''].join(' ').trim() || undefined}
    >
      <legend>{props.legend}</legend>
      <div class="vec3-inputs">
        {props.names.map((name, i) => (
          <label key={name}>
            <span>{name}</span>
            <input
              type="number"
              step={props.step ?? 'any'}
              value={props.value[i]}
              aria-invalid={props.errors?.some((m) => m.startsWith(`value ${i + 1}:`)) || undefined}
              onInput={(e) => {
                const next = [...props.value] as Vec3Text;
                next[i] = e.currentTarget.value;
                props.onChange(next);
                props.onTouch?.(); // messages appear while typing, not on blur (a blur must not move the button being clicked)
              }}
            />
          </label>
        ))}
      </div>
      <FieldNotes id={props.id} hint={props.hint} errors={props.errors} />
    </fieldset>
  );
}

export function SelectField<T extends string>(
  props: LabelledProps<T> & { options: readonly T[]; labels?: Partial<Record<T, string>>; defaultValue?: T },
) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} errors={props.errors}>
      {(describedBy) => (
        <Select
          id={props.id}
          value={props.value}
          describedBy={describedBy || undefined}
          onChange={(v) => (props.onChange(v), props.onTouch?.())}
        >
          {props.options.map((o) => (
            <option key={o} value={o}>
              {props.labels?.[o] ?? o}
              {o === props.defaultValue ? ' (default)' : ''}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

export function CheckboxField(props: LabelledProps<boolean>) {
  return (
    <div class={`field checkbox${props.errors?.length ? ' invalid' : ''}`}>
      <Checkbox
        id={props.id}
        checked={props.value}
        describedBy={props.hint ? `${props.id}-hint` : undefined}
        onChange={(v) => (props.onChange(v), props.onTouch?.())}
      >
        {props.label}
      </Checkbox>
      <FieldNotes id={props.id} hint={props.hint} errors={props.errors} />
    </div>
  );
}

/** A text input (or a textarea when multiline); a password one is never filled in or spellchecked by the browser. */
export function TextField(
  props: LabelledProps<string> & {
    placeholder?: string;
    maxLength?: number;
    type?: 'text' | 'url' | 'number' | 'password' | 'search';
    /** More classes of the field's box (e.g. `inline grow` in a row of filters). */
    class?: string;
    multiline?: boolean;
    rows?: number;
  },
) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} errors={props.errors} class={props.class}>
      {(describedBy) =>
        props.multiline ? (
          <textarea
            id={props.id}
            rows={props.rows ?? 4}
            value={props.value}
            placeholder={props.placeholder}
            aria-describedby={describedBy || undefined}
            aria-invalid={props.errors?.length ? true : undefined}
            onInput={(e) => (props.onChange(e.currentTarget.value), props.onTouch?.())}
          />
        ) : (
          <input
            id={props.id}
            type={(props.type ?? 'text') as 'text'}
            {...(props.type === 'password' && { autoComplete: 'new-password', spellcheck: false })}
            maxLength={props.maxLength}
            value={props.value}
            placeholder={props.placeholder}
            aria-describedby={describedBy || undefined}
            aria-invalid={props.errors?.length ? true : undefined}
            onInput={(e) => (props.onChange(e.currentTarget.value), props.onTouch?.())}
          />
        )
      }
    </Field>
  );
}
