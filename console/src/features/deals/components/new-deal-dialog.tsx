import { Callout, Dialog, DialogBody, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { agentPage, newDealInput, PAGE_LIMIT_DEFAULT, type AgentType } from '@pf/events';
import { useState, type FormEvent } from 'react';
import { SearchedSelect } from '../../../components/searched-select';
import { api, failureReason } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { searchParams } from '../../../lib/use-cursor-pages';
import { toastSuccess } from '../../../lib/toaster';
import { useCreateDeal } from '../api/deals';
import { SubmitFooter } from '../../../components/submit-footer';

const FIELDS = [
  'propertyAddress',
  'propertyValue',
  'loanAmount',
  'interestRate',
  'termYears',
  'arrangementFee',
  'targetCompletion',
] as const;
type Field = (typeof FIELDS)[number] | 'borrowerAgentId' | 'lenderAgentId' | 'brokerAgentId';
const LABELS: Record<(typeof FIELDS)[number], [string, string]> = {
  propertyAddress: ['Property address', '14 Harbour Row, Bristol BS1 5TT'],
  propertyValue: ['Property value (£)', '350000'],
  loanAmount: ['Loan amount (£)', '262500'],
  interestRate: ['Interest rate (%)', '4.25'],
  termYears: ['Term (years)', '25'],
  arrangementFee: ['Arrangement fee (£)', '999'],
  targetCompletion: ['Target completion', ''],
};
const NUMERIC = new Set(['propertyValue', 'loanAmount', 'interestRate', 'termYears', 'arrangementFee']);

/** The firm's agents of one type matching a search, a page at most: a firm may have thousands. */
async function agentChoices(type: AgentType, q: string | undefined) {
  const page = await api.get(`/api/agents/page?${searchParams({ type, q, limit: PAGE_LIMIT_DEFAULT })}`, agentPage);
  return { choices: page.items.map((agent) => ({ value: String(agent.id), label: agent.name })), total: page.total };
}

/** New Deal: between the user's own agents; the shared schema's messages name each field. */
export function NewDealDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const [values, setValues] = useState<Record<Field, string>>(
    () => Object.fromEntries([...FIELDS, 'borrowerAgentId', 'lenderAgentId', 'brokerAgentId'].map((k) => [k, ''])) as Record<Field, string>,
  );
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateDeal();
  const set = (field: Field, value: string) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const number = (text: string) => (text.trim() === '' ? undefined : Number(text.replace(/[£,%\s]/g, '')));
    const input = {
      propertyAddress: values.propertyAddress,
      borrowerAgentId: number(values.borrowerAgentId),
      lenderAgentId: number(values.lenderAgentId),
      brokerAgentId: number(values.brokerAgentId) ?? null,
      propertyValue: number(values.propertyValue),
      loanAmount: number(values.loanAmount),
      interestRate: number(values.interestRate),
      termYears: number(values.termYears),
      arrangementFee: number(values.arrangementFee),
      targetCompletion: values.targetCompletion || null,
    };
    const parsed = newDealInput.safeParse(input);
    if (!parsed.success) {
      return setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? ''), issue.message])));
    }
    setErrors({});
    setFailure(null);
    try {
      await create.mutateAsync(input as never);
      toastSuccess('Deal created');
      onClose();
    } catch (error) {
      setFailure(failureReason(error));
    }
  };

  const agentSelect = (field: 'borrowerAgentId' | 'lenderAgentId' | 'brokerAgentId', type: AgentType, label: string, optional = false) => (
    <SearchedSelect
      id={`deal-${field}`}
      label={label}
      noun={`${type} agents`}
      none={optional ? 'None' : `Choose a ${type} agent`}
      value={values[field]}
      onChange={(value) => set(field, value)}
      queryKey={[...queryKeys.agents, 'page', type]}
      fetchChoices={(q) => agentChoices(type, q)}
      enabled={isOpen}
      error={errors[field]}
    />
  );

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="New Deal" className="pf-wide-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogBody>
          <div className="pf-grid pf-grid-2">
            {agentSelect('borrowerAgentId', 'borrower', 'Borrower')}
            {agentSelect('lenderAgentId', 'lender', 'Lender')}
          </div>
          {agentSelect('brokerAgentId', 'broker', 'Broker (optional)', true)}
          {FIELDS.map((field) => (
            <FormGroup
              key={field}
              label={LABELS[field][0]}
              labelFor={`deal-${field}`}
              intent={errors[field] ? Intent.DANGER : Intent.NONE}
              helperText={errors[field]}
            >
              <InputGroup
                id={`deal-${field}`}
                type={field === 'targetCompletion' ? 'date' : 'text'}
                inputMode={NUMERIC.has(field) ? 'decimal' : undefined}
                placeholder={LABELS[field][1]}
                value={values[field]}
                onValueChange={(value) => set(field, value)}
                intent={errors[field] ? Intent.DANGER : Intent.NONE}
              />
            </FormGroup>
          ))}
          {failure ? <Callout intent={Intent.DANGER}>{failure}</Callout> : null}
        </DialogBody>
        <SubmitFooter submitText="Create Deal" busy={create.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
