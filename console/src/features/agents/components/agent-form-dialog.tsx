import { Button, Classes, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import {
  AGENT_TYPES,
  CRITERIA_KEYS,
  CRITERIA_PLACEHOLDERS,
  createAgentInput,
  USER_MESSAGES,
  type AgentView,
} from '@pf/events';
import { useEffect, useState, type FormEvent } from 'react';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { useCreateAgent, useUpdateAgent } from '../api/agents';
import { CRITERIA_LABELS, emptyForm, fieldErrors, formFromAgent, toInput, type AgentFormValues } from './agent-form';

interface Props {
  isOpen: boolean;
  onClose: () => void;
  /** Given: the dialog edits this agent; absent: it creates one. */
  agent?: AgentView;
}

/** Create Agent (spec §2 and §5), also used to edit: the rules are the shared schemas of events/. */
export function AgentFormDialog({ isOpen, onClose, agent }: Props) {
  const [values, setValues] = useState<AgentFormValues>(() => (agent ? formFromAgent(agent) : emptyForm()));
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const pending = create.isPending || update.isPending;

  useEffect(() => {
    if (isOpen) setValues(agent ? formFromAgent(agent) : emptyForm());
    if (isOpen) setErrors({});
  }, [isOpen, agent]);

  const set = (patch: Partial<AgentFormValues>) => setValues((current) => ({ ...current, ...patch }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = createAgentInput.safeParse(toInput(values));
    if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues));
    setErrors({});
    try {
      if (agent) {
        const { name, description, criteria } = parsed.data;
        await update.mutateAsync({ id: agent.id, input: { name, description, criteria } });
        toastSuccess(USER_MESSAGES.agentUpdated);
      } else {
        await create.mutateAsync(parsed.data);
        toastSuccess(USER_MESSAGES.agentCreated, 'Success');
      }
      setValues(emptyForm());
      onClose();
    } catch {
      if (agent) toastError(USER_MESSAGES.agentUpdateFailed);
      else toastError(USER_MESSAGES.agentCreateFailed, 'Error');
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={agent ? 'Edit Agent' : 'Create Agent'} className="pf-agent-dialog">
      <form onSubmit={submit} noValidate>
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
            <HTMLSelect id="agent-type" fill disabled={Boolean(agent)} value={values.type} onChange={(e) => set({ type: e.currentTarget.value })}>
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
          <div className="pf-grid pf-grid-2">
            {CRITERIA_KEYS.map((key) => (
              <FormGroup key={key} label={CRITERIA_LABELS[key]} labelFor={`agent-${key}`}>
                <InputGroup
                  id={`agent-${key}`}
                  value={values.criteria[key]}
                  placeholder={CRITERIA_PLACEHOLDERS[key]}
                  onValueChange={(value) => set({ criteria: { ...values.criteria, [key]: value } })}
                />
              </FormGroup>
            ))}
          </div>
          {errors.criteria ? <p className={Classes.INTENT_DANGER}>{errors.criteria}</p> : null}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={onClose} />
              <Button type="submit" intent={Intent.PRIMARY} loading={pending} text={agent ? 'Save Agent' : 'Create Agent'} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
