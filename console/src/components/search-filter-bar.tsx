import { capitalised } from '@pf/events';
import { HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useNarrow } from '../lib/use-narrow';

interface Props<Value extends string> {
  /** What is searched, for screen readers ("deals", "documents", "leads"). */
  noun: string;
  placeholder: string;
  search: string;
  onSearch: (search: string) => void;
  /** The filter's accessible name ("Status filter") and its first option ("All Statuses"). */
  filterLabel: string;
  allLabel: string;
  options: readonly Value[];
  value: Value | 'all';
  onFilter: (value: Value | 'all') => void;
  className?: string;
}

/** The search box beside an exact-match filter, as Deals, Documents and Leads show them. */
export function SearchFilterBar<Value extends string>(props: Props<Value>) {
  const { noun, placeholder, search, onSearch, filterLabel, allLabel, options, value, onFilter, className } = props;
  // On a phone the long placeholder would be cut off mid-word: the short one says the same.
  const narrow = useNarrow();
  return (
    <div className={className ? `pf-filters ${className}` : 'pf-filters'}>
      <InputGroup
        className="pf-grow"
        leftIcon="search"
        type="search"
        aria-label={`Search ${noun}`}
        placeholder={narrow ? `Search ${noun}…` : placeholder}
        value={search}
        onValueChange={onSearch}
      />
      <HTMLSelect aria-label={filterLabel} value={value} onChange={(event) => onFilter(event.currentTarget.value as Value | 'all')}>
        <option value="all">{allLabel}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {capitalised(option)}
          </option>
        ))}
      </HTMLSelect>
    </div>
  );
}
