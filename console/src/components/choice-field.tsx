import { FormGroup, HTMLSelect } from '@blueprintjs/core';

interface Props<Value extends string> {
  id: string;
  label: string;
  value: Value;
  options: readonly Value[];
  onChange: (value: Value) => void;
}

/** A labelled select over a fixed list of words (a deal's status or stage, a document's type). */
export function ChoiceField<Value extends string>({ id, label, value, options, onChange }: Props<Value>) {
  return (
    <FormGroup label={label} labelFor={id}>
      <HTMLSelect
        id={id}
        fill
        value={value}
        onChange={(event) => onChange(options.find((option) => option === event.currentTarget.value) ?? value)}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
