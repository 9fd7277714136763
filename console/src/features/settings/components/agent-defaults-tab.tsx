import { Button, Checkbox, FormGroup, InputGroup, Intent, NumericInput, Switch } from '@blueprintjs/core';
import {
  capitalised,
  agentDefaultsInput,
  DEFAULT_PROPERTY_TYPES,
  pounds,
  readMoney,
  REGIONS,
  type AgentDefaults,
  type AgentDefaultsView,
} from '@pf/events';
import { useState } from 'react';
import { ResponseTimeSelect } from '../../../components/response-time-select';
import { useStateFrom } from '../../../lib/use-state-from';
import { ApiError } from '../../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { useSaveAgentDefaults } from '../api/settings';

const PROPERTY_LABELS: Record<(typeof DEFAULT_PROPERTY_TYPES)[number], string> = {
  residential: 'Residential',
  buyToLet: 'Buy-to-Let',
  commercial: 'Commercial',
  bridging: 'Bridging',
};

/**
 * An amount in pounds written as the console writes money ("£50,000"): typed freely ("50000", "50k", "£50,000"),
 * read with the one money reader, and written back in full when the field is left. Unreadable words stay as typed
 * and the form's check names the field.
 */
function MoneyInput({ id, value, onValue }: { id: string; value: number; onValue: (value: number) => void }) {
  const [text, setText] = useState<string | null>(null);
  return (
    <InputGroup
      id={id}
      fill
      inputMode="decimal"
      value={text ?? (Number.isFinite(value) ? pounds(value) : '')}
      onValueChange={(typed) => {
        setText(typed);
        onValue(readMoney(typed) ?? Number.NaN);
      }}
      onBlur={() => {
        if (readMoney(text ?? '') !== null) setText(null);
      }}
    />
  );
}

function withoutSaved({ saved: _saved, ...defaults }: AgentDefaultsView): AgentDefaults {
  return defaults;
}

/**
 * Settings → Agent Defaults: they pre-fill Create Agent (loan amounts, LTV, term, property types and regions
 * as criteria the matcher and negotiator read; auto-negotiate as the agent's own switch).
 */
export function AgentDefaultsTab({ defaults: view }: { defaults: AgentDefaultsView }) {
  const [values, setValues] = useStateFrom<AgentDefaults>(() => withoutSaved(view), [view]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveAgentDefaults();
  const set = (patch: Partial<AgentDefaults>) => setValues((current) => ({ ...current, ...patch }));
  const toggleIn = <T extends string>(list: T[], item: T) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);

  const submit = async () => {
    const parsed = agentDefaultsInput.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    try {
      await save.mutateAsync(parsed.data);
      toastSuccess('New agents will start from these defaults', 'Agent defaults updated');
    } catch (error) {
      toastError(error instanceof ApiError ? error.message : 'Could not save your agent defaults');
    }
  };

  const number = (key: 'minLoanAmount' | 'maxLoanAmount' | 'preferredLTV' | 'preferredTerm', label: string) => (
    <FormGroup label={label} labelFor={`defaults-${key}`} intent={errors[key] ? Intent.DANGER : Intent.NONE} helperText={errors[key]}>
      {key === 'minLoanAmount' || key === 'maxLoanAmount' ? (
        <MoneyInput id={`defaults-${key}`} value={values[key]} onValue={(value) => set({ [key]: value })} />
      ) : (
        <NumericInput id={`defaults-${key}`} fill value={values[key]} onValueChange={(value) => set({ [key]: value })} />
      )}
    </FormGroup>
  );

  return (
    <div className="pf-settings-form">
      <div className="pf-grid pf-grid-2">
        {number('minLoanAmount', 'Minimum loan amount')}
        {number('maxLoanAmount', 'Maximum loan amount')}
        {number('preferredLTV', 'Preferred LTV (%)')}
        {number('preferredTerm', 'Preferred term (years)')}
      </div>
      <FormGroup label="Property types">
        {DEFAULT_PROPERTY_TYPES.map((type) => (
          <Checkbox
            key={type}
            inline
            label={PROPERTY_LABELS[type]}
            checked={values.propertyTypes.includes(type)}
            onChange={() => set({ propertyTypes: toggleIn(values.propertyTypes, type) })}
          />
        ))}
      </FormGroup>
      <FormGroup label="Regions">
        {REGIONS.map((region) => (
          <Checkbox
            key={region}
            inline
            label={capitalised(region)}
            checked={values.regions.includes(region)}
            onChange={() => set({ regions: toggleIn(values.regions, region) })}
          />
        ))}
      </FormGroup>
      <FormGroup
        label="Response time"
        labelFor="defaults-response"
        helperText="Pre-fills Create Agent: when you negotiate by hand and leave the other side unanswered this long, the agent takes your side back"
      >
        <ResponseTimeSelect id="defaults-response" value={values.responseTime} onChange={(responseTime) => set({ responseTime })} />
      </FormGroup>
      <Switch
        checked={values.autoNegotiate}
        onChange={() => set({ autoNegotiate: !values.autoNegotiate })}
        labelElement={
          <>
            <strong>Auto-negotiate</strong>{' '}
            <span className="pf-muted pf-small">
              Off: new agents are still matched, but their conversations open with your side in manual mode, so you negotiate
            </span>
          </>
        }
      />
      <Button intent={Intent.PRIMARY} icon="floppy-disk" loading={save.isPending} onClick={() => void submit()} text="Save Changes" />
    </div>
  );
}
