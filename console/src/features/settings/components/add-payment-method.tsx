import { Button, Dialog, DialogBody, Spinner } from '@blueprintjs/core';
import { z } from 'zod';
import type { PaymentSetupView } from '@pf/events';
import { useEffect, useState } from 'react';
import { failureReason } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/toaster';
import { useAddPaymentMethod, useStartSetup } from '../api/billing';
import { PaymentProblem } from './payment-problem';

/** The provider's word that a setup succeeded, as its frame posts it. */
const setupSucceeded = z.object({ type: z.literal('setup_intent.succeeded'), setupIntent: z.string() });

/**
 * Add Payment Method (docs/behaviour/billing.md): the card is typed into the payment provider's own page, in a
 * frame of the provider's origin, and goes to the provider; this page only hears, from that origin alone, that the
 * setup succeeded, and sends the platform the setup's id.
 */
export function AddPaymentMethod() {
  const [setup, setSetup] = useState<PaymentSetupView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const start = useStartSetup();
  const add = useAddPaymentMethod();

  useEffect(() => {
    if (!setup) return;
    const listen = (event: MessageEvent) => {
      const said = setupSucceeded.safeParse(event.data);
      if (event.origin !== setup.providerOrigin || !said.success || said.data.setupIntent !== setup.setupId) return;
      add.mutate(setup.setupId, {
        onSuccess: (method) => {
          setSetup(null);
          toastSuccess(`${brandName(method.brand)} ending ${method.last4} can now pay the firm's invoices`, 'Payment method added');
        },
        onError: (error) => setProblem(failureReason(error)),
      });
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [setup, add]);

  const open = () => {
    setProblem(null);
    start.mutate(undefined, { onSuccess: setSetup, onError: (error) => setProblem(failureReason(error)) });
  };

  return (
    <>
      <Button icon="plus" text="Add Payment Method" onClick={open} loading={start.isPending} />
      {setup ? null : <PaymentProblem problem={problem} />}
      <Dialog isOpen={setup !== null} onClose={() => setSetup(null)} title="Add Payment Method">
        <DialogBody>
          <p className="pf-muted pf-small">Your card details go straight to the payment provider. This platform never sees them.</p>
          {setup ? <iframe className="pf-card-fields" title="Card details (payment provider)" src={setup.hostedFieldsUrl} /> : null}
          {add.isPending ? <Spinner size={20} /> : null}
          <PaymentProblem problem={problem} />
        </DialogBody>
      </Dialog>
    </>
  );
}

/** "Visa", "Mastercard", "Amex": the provider's brand as people write it. */
export const brandName = (brand: string) =>
  ({ visa: 'Visa', mastercard: 'Mastercard', amex: 'Amex' })[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
