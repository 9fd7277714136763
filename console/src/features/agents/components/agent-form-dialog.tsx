import { Classes, Dialog, DialogBody, FormGroup, HTMLSelect, InputGroup, Intent, Switch, TextArea } from '@blueprintjs/core';
import {
  AGENT_TYPES,
  CRITERIA_PLACEHOLDERS,
  createAgentInput,
  EXTRA_CRITERIA_KEYS,
  RESPONSE_TIMES,
  SPEC_CRITERIA_KEYS,
  USER_MESSAGES,
  type AgentView,
  type CriteriaKey,
} from '@pf/events';
import { type FormEvent } from 'react';
import { useStateFrom } from '../../../lib/use-state-from';
import { toastFailure, toastSuccess } from '../../../lib/toaster';
import { useAgentDefaults, useCreateAgent, useUpdateAgent } from '../api/agents';
import { CRITERIA_LABELS, fieldErrors, formFromAgent, formFromDefaults, toInput, type AgentFormValues } from './agent-form';
import { SubmitFooter } from '../../../components/submit-footer';
import { NeedsFields, RangeFields } from './profile-fields';
import { profileIssue } from './profile-form';

interface Props {
  isOpen: boolean;
  onClose: () => void;
  /** Given: the dialog edits this agent; absent: it creates one. */
  agent?: AgentView;
}

/** Create Agent (docs/behaviour/agents.md), also used to edit: the rules are the shared schemas of events/. */
export function AgentFormDialog({ isOpen, onClose, agent }: Props) {
  const defaults = useAgentDefaults();
  // Opening the dialog starts again from the agent (or the defaults, once they have loaded), with no errors.
  const [values, setValues] = useStateFrom<AgentFormValues>(
    () => (agent ? formFromAgent(agent) : formFromDefaults(defaults.data)),
    [isOpen, agent, defaults.data],
  );
  const [errors, setErrors] = useStateFrom<Partial<Record<string, string>>>(() => ({}), [isOpen]);
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const pending = create.isPending || update.isPending;

  const set = (patch: Partial<AgentFormValues>) => setValues((current) => ({ ...current, ...patch }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = createAgentInput.safeParse(toInput(values));
    if (!parsed.success) {
      const profile = parsed.error.issues.find((issue) => issue.path[0] === 'products' || issue.path[0] === 'needs');
      return setErrors({ ...fieldErrors(parsed.error.issues), ...(profile ? { profile: profileIssue(profile) } : {}) });
    }
    setErrors({});
    try {
      if (agent) {
        const { name, description, criteria, products, needs } = parsed.data;
        // Switched off while editing: the range or needs are removed (null); never sent for the other types.
        const profile =
          agent.type === 'lender' ? { products: products ?? null } : agent.type === 'borrower' ? { needs: needs ?? null } : {};
        await update.mutateAsync({ id: agent.id, input: { name, description, criteria, ...profile } });
        toastSuccess(USER_MESSAGES.agentUpdated);
      } else {
        await create.mutateAsync(parsed.data);
        toastSuccess(USER_MESSAGES.agentCreated, 'Success');
      }
      setValues(formFromDefaults(defaults.data));
      onClose();
    } catch (error) {
      toastFailure(agent ? USER_MESSAGES.agentUpdateFailed : USER_MESSAGES.agentCreateFailed, error);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={agent ? 'Edit Agent' : 'Create Agent'} className="pf-agent-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogBody>
          <FormGroup label="Name" labelFor="agent-name" intent={errors.name ? Intent.DANGER : Intent.NONE} helperText={errors.name}>
            <InputGroup
              id="agent-name"
              value={values.name}
              placeholder="e.g. First-time buyer agent"
              intent={errors.name ? Intent.DANGER : Intent.NONE}
              onValueChange={(name) => set({ name })}
            />
          </FormGroup>
          <FormGroup label="Type" labelFor="agent-type" intent={errors.type ? Intent.DANGER : Intent.NONE} helperText={errors.type}>
            <HTMLSelect
              id="agent-type"
              fill
              disabled={Boolean(agent)}
              value={values.type}
              onChange={(e) => set({ type: e.currentTarget.value })}
            >
              <option value="">Select agent type</option>
              {AGENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type.charAt(0).toUpperCase() + type.slice(1)}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label="Description" labelFor="agent-description" helperText={errors.description}>
            <TextArea
              id="agent-description"
              fill
              value={values.description}
              placeholder="What this agent looks for"
              onChange={(e) => set({ description: e.currentTarget.value })}
            />
          </FormGroup>
          <p className={Classes.TEXT_MUTED}>Criteria (optional)</p>
          <CriteriaFields keys={SPEC_CRITERIA_KEYS} values={values.criteria} onChange={(criteria) => set({ criteria })} />
          <p className={Classes.TEXT_MUTED}>Loan, income and property (optional, written as you would say them)</p>
          <CriteriaFields keys={EXTRA_CRITERIA_KEYS} values={values.criteria} onChange={(criteria) => set({ criteria })} />
          {errors.criteria ? <p className={Classes.INTENT_DANGER}>{errors.criteria}</p> : null}
          {values.type === 'lender' || values.type === 'borrower' ? (
            <Switch
              checked={values.withProfile}
              onChange={() => set({ withProfile: !values.withProfile })}
              label={values.type === 'lender' ? 'Record the product range' : 'Record the needs as a broker would'}
            />
          ) : null}
          {values.withProfile && values.type === 'lender' ? (
            <RangeFields range={values.range} onChange={(range) => set({ range })} />
          ) : null}
          {values.withProfile && values.type === 'borrower' ? (
            <NeedsFields needs={values.needs} onChange={(needs) => set({ needs })} />
          ) : null}
          {errors.profile ? (
            <p className={Classes.INTENT_DANGER} role="alert" data-testid="profile-error">
              {errors.profile}
            </p>
          ) : null}
          {agent ? null : (
            <FormGroup
              label="Response time"
              labelFor="agent-response-time"
              helperText="When you negotiate by hand and leave the other side unanswered this long, the agent takes your side back"
            >
              <HTMLSelect
                id="agent-response-time"
                value={values.responseTime}
                onChange={(e) => set({ responseTime: Number(e.currentTarget.value) as AgentFormValues['responseTime'] })}
              >
                {RESPONSE_TIMES.map((hours) => (
                  <option key={hours} value={hours}>
                    {hours} {hours === 1 ? 'hour' : 'hours'}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
          {agent ? null : (
            <Switch
              checked={values.autoNegotiate}
              onChange={() => set({ autoNegotiate: !values.autoNegotiate })}
              labelElement={
                <>
                  <strong>Auto-negotiate</strong>{' '}
                  <span className={Classes.TEXT_MUTED}>
                    {values.autoNegotiate
                      ? 'The agent negotiates its matches itself'
                      : 'Its conversations open with your side in manual mode: you negotiate, and may hand over to the agent'}
                  </span>
                </>
              }
            />
          )}
        </DialogBody>
        <SubmitFooter submitText={agent ? 'Save Agent' : 'Create Agent'} busy={pending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function CriteriaFields({
  keys,
  values,
  onChange,
}: {
  keys: readonly CriteriaKey[];
  values: Record<CriteriaKey, string>;
  onChange: (criteria: Record<CriteriaKey, string>) => void;
}) {
  return (
    <div className="pf-grid pf-grid-2">
      {keys.map((key) => (
        <FormGroup key={key} label={CRITERIA_LABELS[key]} labelFor={`agent-${key}`}>
          <InputGroup
            id={`agent-${key}`}
            value={values[key]}
            placeholder={CRITERIA_PLACEHOLDERS[key]}
            onValueChange={(value) => onChange({ ...values, [key]: value })}
          />
        </FormGroup>
      ))}
    </div>
  );
}
