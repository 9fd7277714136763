import {
  CRITERIA_KEYS,
  DEFAULT_AGENT_DEFAULTS,
  pounds,
  type AgentDefaults,
  type AgentView,
  type CreateAgentInput,
  type CriteriaKey,
} from '@pf/events';
import { emptyNeeds, emptyRange, needsForm, rangeForm, toNeeds, toRange, type NeedsForm, type RangeForm } from './profile-form';

/** The dialog's editable state: every field as the text the operator typed. */
export interface AgentFormValues {
  name: string;
  type: string;
  description: string;
  criteria: Record<CriteriaKey, string>;
  /** Off: its conversations open with the owner's side taken over (set on creation only). */
  autoNegotiate: boolean;
  /** In hours (1, 4, 24 or 48): how long the owner may leave the other side unanswered while negotiating by hand (creation only). */
  responseTime: AgentDefaults['responseTime'];
  /** A lender's product range and a borrower's needs (docs/behaviour/products.md), sent only when switched on. */
  withProfile: boolean;
  range: RangeForm;
  needs: NeedsForm;
}

export const CRITERIA_LABELS: Record<CriteriaKey, string> = {
  propertyValueMin: 'Property value (min)',
  propertyValueMax: 'Property value (max)',
  interestRateMin: 'Interest rate (min)',
  interestRateMax: 'Interest rate (max)',
  loanTermMin: 'Loan term (min)',
  loanTermMax: 'Loan term (max)',
  loanAmount: 'Loan amount',
  deposit: 'Deposit',
  annualIncome: 'Annual income',
  propertyType: 'Property type',
  expectedRent: 'Expected rent',
  region: 'Region',
  maxLtv: 'Maximum LTV',
};

/**
 * `defaults`: criteria to pre-fill a new agent with (Settings → Agent Defaults, through formFromDefaults).
 */
function emptyForm(defaults: Partial<Record<CriteriaKey, string>> = {}): AgentFormValues {
  const criteria = Object.fromEntries(CRITERIA_KEYS.map((key) => [key, defaults[key] ?? ''])) as Record<CriteriaKey, string>;
  return {
    name: '',
    type: '',
    description: '',
    criteria,
    autoNegotiate: true,
    responseTime: DEFAULT_AGENT_DEFAULTS.responseTime,
    withProfile: false,
    range: emptyRange(),
    needs: emptyNeeds(),
  };
}

/** Settings' property type names (buyToLet) as the criteria reader reads them. */
const PROPERTY_TYPE_WORDS: Record<AgentDefaults['propertyTypes'][number], string> = {
  residential: 'residential',
  buyToLet: 'buy-to-let',
  commercial: 'commercial',
  bridging: 'bridging',
};

/**
 * A new agent's criteria from the user's defaults, in the words the criteria reader understands: the loan
 * amounts as a range, the preferred LTV as the maximum LTV, the property values those loans stand for at that
 * LTV (£50,000 at 75% → £66,667), the loan term up to the preferred one, and the property types and regions as
 * lists. These are what the matcher and the negotiator read, so the defaults feed both through them.
 */
function criteriaFromDefaults(defaults: AgentDefaults): Partial<Record<CriteriaKey, string>> {
  const ltv = defaults.preferredLTV / 100;
  return {
    propertyValueMin: pounds(defaults.minLoanAmount / ltv),
    propertyValueMax: pounds(defaults.maxLoanAmount / ltv),
    loanTermMax: `${defaults.preferredTerm} years`,
    loanAmount: `${pounds(defaults.minLoanAmount)} to ${pounds(defaults.maxLoanAmount)}`,
    maxLtv: `${defaults.preferredLTV}%`,
    propertyType: defaults.propertyTypes.map((type) => PROPERTY_TYPE_WORDS[type]).join(', '),
    region: defaults.regions.join(', '),
  };
}

/** The Create Agent form, pre-filled from the user's defaults when they have them (auto-negotiate and response time included). */
export function formFromDefaults(defaults: (AgentDefaults & { saved: boolean }) | undefined): AgentFormValues {
  const form = emptyForm();
  if (defaults?.saved) {
    Object.assign(form.criteria, criteriaFromDefaults(defaults));
    form.autoNegotiate = defaults.autoNegotiate;
    form.responseTime = defaults.responseTime;
  }
  return form;
}

export function formFromAgent(agent: AgentView): AgentFormValues {
  const form = emptyForm();
  for (const key of CRITERIA_KEYS) form.criteria[key] = agent.criteria?.[key] ?? '';
  // Editing leaves auto-negotiate as it was set at creation (the dialog does not offer it there).
  return {
    ...form,
    name: agent.name,
    type: agent.type,
    description: agent.description ?? '',
    withProfile: agent.products !== null || agent.needs !== null,
    range: agent.products ? rangeForm(agent.products) : form.range,
    needs: agent.needs ? needsForm(agent.needs) : form.needs,
  };
}

/** What the shared schema validates: an unchosen type is absent, so its message ("Please select an agent type") applies. */
export function toInput(values: AgentFormValues): CreateAgentInput {
  return {
    name: values.name,
    type: (values.type || undefined) as CreateAgentInput['type'],
    description: values.description,
    criteria: values.criteria,
    ...(values.autoNegotiate ? {} : { autoNegotiate: false }),
    responseTime: values.responseTime,
    ...(values.withProfile && values.type === 'lender' ? { products: toRange(values.range) } : {}),
    ...(values.withProfile && values.type === 'borrower' ? { needs: toNeeds(values.needs) } : {}),
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
