import { HTMLSelect } from '@blueprintjs/core';

/**
 * A Blueprint select over a fixed list of choices (a contract's const list: periods, regions, response times),
 * typed by that list: the value handed back is one of the choices, never a string to cast.
 */
export function ChoiceSelect<T extends string | number>({
  choices,
  value,
  labelOf,
  onChange,
  id,
  label,
}: {
  choices: readonly T[];
  value: T;
  labelOf: (choice: T) => string;
  onChange: (choice: T) => void;
  /** For a FormGroup's labelFor; without one, `label` names the select to assistive technology. */
  id?: string;
  label?: string;
}) {
  return (
    <HTMLSelect
      id={id}
      aria-label={label}
      value={value}
      onChange={(e) => {
        const chosen = choices.find((choice) => String(choice) === e.currentTarget.value);
        if (chosen !== undefined) onChange(chosen);
      }}
    >
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {labelOf(choice)}
        </option>
      ))}
    </HTMLSelect>
  );
}
