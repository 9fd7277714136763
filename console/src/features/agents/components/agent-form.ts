import { CRITERIA_KEYS, type AgentView, type CreateAgentInput, type CriteriaKey } from '@pf/events';

/** The dialog's editable state: every field as the text the operator typed. */
export interface AgentFormValues {
  name: string;
  type: string;
  description: string;
  criteria: Record<CriteriaKey, string>;
}

export const CRITERIA_LABELS: Record<CriteriaKey, string> = {
  propertyValueMin: 'Property value (min)',
  propertyValueMax: 'Property value (max)',
  interestRateMin: 'Interest rate (min)',
  interestRateMax: 'Interest rate (max)',
  loanTermMin: 'Loan term (min)',
  loanTermMax: 'Loan term (max)',
};

export function emptyForm(): AgentFormValues {
  const criteria = Object.fromEntries(CRITERIA_KEYS.map((key) => [key, ''])) as Record<CriteriaKey, string>;
  return { name: '', type: '', description: '', criteria };
}

export function formFromAgent(agent: AgentView): AgentFormValues {
  const form = emptyForm();
  for (const key of CRITERIA_KEYS) form.criteria[key] = agent.criteria?.[key] ?? '';
  return { ...form, name: agent.name, type: agent.type, description: agent.description ?? '' };
}

/** What the shared schema validates: an unchosen type is absent, so its §5 message applies. */
export function toInput(values: AgentFormValues): CreateAgentInput {
  return {
    name: values.name,
    type: (values.type || undefined) as CreateAgentInput['type'],
    description: values.description,
    criteria: values.criteria,
  };
}

/** The first error message per top-level field, from a zod issue list. */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}
