import { FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { wholeNumber } from '@pf/events';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';

export interface Choice {
  value: string;
  label: string;
}

interface Props {
  id: string;
  label: string;
  /** What is chosen from, for the search box's name and the hint ("deals", "borrower agents"). */
  noun: string;
  /** The first option, chosen when nothing is. */
  none: string;
  value: string;
  onChange: (value: string) => void;
  queryKey: readonly unknown[];
  /** The first page of choices matching the search, and how many match in all. */
  fetchChoices: (q: string | undefined) => Promise<{ choices: Choice[]; total: number }>;
  enabled: boolean;
  error?: string;
}

/**
 * A choice among a firm's deals or agents, of which there may be thousands (docs/behaviour/console-layout.md):
 * a search box over a select holding at most one page of matches, read from the server.
 */
export function SearchedSelect({ id, label, noun, none, value, onChange, queryKey, fetchChoices, enabled, error }: Props) {
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim());
  const [chosen, setChosen] = useState<Choice | null>(null);
  const found = useQuery({
    queryKey: [...queryKey, 'choices', q],
    queryFn: () => fetchChoices(q || undefined),
    enabled,
    placeholderData: keepPreviousData,
  });
  const choices = found.data?.choices ?? [];
  // What was chosen stays a choice when a later search no longer finds it.
  const shown = chosen && chosen.value === value && !choices.some((c) => c.value === value) ? [chosen, ...choices] : choices;
  const total = found.data?.total ?? 0;
  const hint = total > choices.length ? `The first ${choices.length} of ${wholeNumber(total)} ${noun}: search to narrow` : undefined;
  return (
    <FormGroup label={label} labelFor={id} intent={error ? Intent.DANGER : Intent.NONE} helperText={error ?? hint}>
      <InputGroup
        type="search"
        leftIcon="search"
        aria-label={`Search ${noun}`}
        placeholder={`Search ${noun}…`}
        value={search}
        onValueChange={setSearch}
      />
      <HTMLSelect
        id={id}
        fill
        value={value}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setChosen(shown.find((c) => c.value === next) ?? null);
          onChange(next);
        }}
      >
        <option value="">{none}</option>
        {shown.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}
