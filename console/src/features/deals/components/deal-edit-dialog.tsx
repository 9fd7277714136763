import { Callout, Dialog, DialogBody, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { DEAL_STAGES, DEAL_STATUSES, type ChangeDealInput, type DealStage, type DealStatus, type DealView } from '@pf/events';
import { useState, type FormEvent } from 'react';
import { ChoiceField } from '../../../components/choice-field';
import { failureReason } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/toaster';
import { useChangeDeal } from '../api/deals';
import { SubmitFooter } from '../../../components/submit-footer';

/** Edit: status, stage, address and target date; the server's rules answer in words (no completion before underwriting). */
export function DealEditDialog({ deal, onClose }: { deal: DealView; onClose: () => void }) {
  const [status, setStatus] = useState<DealStatus>(deal.status);
  const [stage, setStage] = useState<DealStage>(deal.stage);
  const [address, setAddress] = useState(deal.propertyAddress);
  const [target, setTarget] = useState(deal.targetCompletion ?? '');
  const [error, setError] = useState<string | null>(null);
  const change = useChangeDeal();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changes: ChangeDealInput = {};
    if (stage !== deal.stage) changes.stage = stage;
    if (status !== deal.status) changes.status = status;
    if (address.trim() !== deal.propertyAddress) changes.propertyAddress = address;
    if ((target || null) !== deal.targetCompletion) changes.targetCompletion = target || null;
    if (Object.keys(changes).length === 0) return onClose();
    try {
      await change.mutateAsync({ id: deal.id, changes });
      toastSuccess('Deal updated');
      onClose();
    } catch (failure) {
      setError(failureReason(failure));
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title="Edit Deal" className="pf-wide-dialog">
      <form onSubmit={(event) => void submit(event)}>
        <DialogBody>
          <FormGroup label="Property address" labelFor="deal-address">
            <InputGroup id="deal-address" value={address} onValueChange={setAddress} placeholder="14 Harbour Row, Bristol BS1 5TT" />
          </FormGroup>
          <div className="pf-grid pf-grid-2">
            <ChoiceField id="deal-status" label="Status" value={status} options={DEAL_STATUSES} onChange={setStatus} />
            <ChoiceField id="deal-stage" label="Stage" value={stage} options={DEAL_STAGES} onChange={setStage} />
          </div>
          <FormGroup label="Target completion" labelFor="deal-target">
            <InputGroup id="deal-target" type="date" value={target} onValueChange={setTarget} />
          </FormGroup>
          {error ? <Callout intent={Intent.DANGER}>{error}</Callout> : null}
        </DialogBody>
        <SubmitFooter submitText="Save" busy={change.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
