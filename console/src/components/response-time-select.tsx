import { RESPONSE_TIMES } from '@pf/events';
import { ChoiceSelect } from './choice-select';

/**
 * The agent response times offered (hours), for Create Agent and the agent defaults that pre-fill it: one list,
 * so the two always offer the same choices in the same words.
 */
export function ResponseTimeSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: (typeof RESPONSE_TIMES)[number];
  onChange: (hours: (typeof RESPONSE_TIMES)[number]) => void;
}) {
  return (
    <ChoiceSelect
      id={id}
      choices={RESPONSE_TIMES}
      value={value}
      labelOf={(hours) => `${hours} ${hours === 1 ? 'hour' : 'hours'}`}
      onChange={onChange}
    />
  );
}
