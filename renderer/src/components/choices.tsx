// Choices: a checkbox with its words in one label, a row of radio choices, a select of typed values.
import type { ComponentChildren } from 'preact';

/** A checkbox and its words in one label: its state in, each change out as a boolean. */
export function Checkbox(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ComponentChildren;
  /** The input's id and class (what labels, tests and styles find it by). */
  id?: string;
  class?: string;
  disabled?: boolean;
  describedBy?: string | undefined;
  /** The label's class and title. */
  labelClass?: string;
  title?: string;
}) {
  return (
    <label class={props.labelClass} title={props.title}>
      <input
        id={props.id}
        type="checkbox"
        class={props.class}
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />{' '}
      {props.children}
    </label>
  );
}

/** One radio button a choice, each in its label, in the order of `labels`; `name` groups them. */
export function RadioChoices<T extends string>(props: {
  name: string;
  value: T;
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  return (
    <>
      {(Object.keys(props.labels) as T[]).map((choice) => (
        <label key={choice}>
          <input
            type="radio"
            name={props.name}
            checked={props.value === choice}
            onChange={() => props.onChange(choice)}
          />{' '}
          {props.labels[choice]}
        </label>
      ))}
    </>
  );
}

/** A select whose change hands on the chosen value, of its options' type (the options are `children`). */
export function Select<T extends string>(props: {
  id: string;
  value: T;
  onChange: (value: T) => void;
  describedBy?: string | undefined;
  children: ComponentChildren;
}) {
  return (
    <select
      id={props.id}
      value={props.value}
      aria-describedby={props.describedBy}
      onChange={(e) => props.onChange(e.currentTarget.value as T)}
    >
      {props.children}
    </select>
  );
}
