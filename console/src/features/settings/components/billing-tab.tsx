import {
  Button,
  Callout,
  Card,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  H2,
  H3,
  HTMLTable,
  InputGroup,
  Intent,
  Checkbox,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { editPaymentMethodInput, poundsAndPence, type PaymentMethodView } from '@pf/events';
import { useState } from 'react';
import { Problem } from '../../../components/problem';
import { failureReason } from '../../../lib/api-client';
import { formatDate } from '../../../lib/display';
import { fieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { toastSuccess } from '../../../lib/toaster';
import { useBilling, useEditPaymentMethod } from '../api/billing';
import { AddPaymentMethod, brandName } from './add-payment-method';
import { PaymentProblem } from './payment-problem';

const expiry = (m: PaymentMethodView) => `${String(m.expMonth).padStart(2, '0')}/${m.expYear}`;
/** An invoice's day as written on it (a calendar day, not an instant: the same in every zone). */
const invoiceDay = (day: string) => formatDate(`${day}T12:00:00Z`, { day: 'numeric', month: 'long', year: 'numeric' });

/** Settings → Billing (docs/behaviour/billing.md): the plan, the firm's payment methods and its billing history. */
export function BillingTab() {
  const billing = useBilling();
  const [editing, setEditing] = useState<PaymentMethodView | null>(null);
  if (billing.error) return <Problem level={2} icon="error" title="Could not load billing" description={failureReason(billing.error)} />;
  if (!billing.data) return <Spinner />;
  const { plan, provider, paymentMethods, invoices, canChange } = billing.data;
  return (
    <div className="pf-settings-form">
      <Card className="pf-section" data-testid="current-plan">
        <div className="pf-muted pf-small">Current plan</div>
        <H2 className="pf-h4">{plan.name}</H2>
        <div className="pf-info-value">{poundsAndPence(plan.pricePence / 100)} per month</div>
      </Card>

      <Card className="pf-section">
        <H3 className="pf-h4">Payment methods</H3>
        {!provider.configured ? (
          <Callout intent={Intent.WARNING} data-testid="no-provider">
            No payment provider is configured for this installation, so no payment method can be added. The firm&apos;s invoices are still
            issued each month from its plan and listed below.
          </Callout>
        ) : null}
        {paymentMethods.length === 0 ? (
          <p className="pf-muted">No payment method yet.</p>
        ) : (
          <ul className="pf-plain-list" data-testid="payment-methods">
            {paymentMethods.map((method) => (
              <li key={method.id} data-testid="payment-method" className="pf-payment-method">
                <span>
                  {brandName(method.brand)} ending {method.last4}, expires {expiry(method)}
                </span>
                {method.isDefault ? (
                  <Tag minimal intent={Intent.PRIMARY}>
                    Default
                  </Tag>
                ) : null}
                {canChange && provider.configured ? (
                  <Button
                    variant="minimal"
                    icon="edit"
                    text="Edit"
                    aria-label={`Edit ${brandName(method.brand)} ending ${method.last4}`}
                    onClick={() => setEditing(method)}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {canChange && provider.configured ? <AddPaymentMethod /> : null}
        {!canChange ? <p className="pf-muted pf-small">Only the firm&apos;s admins can change its payment methods.</p> : null}
      </Card>

      <Card className="pf-section">
        <H3 className="pf-h4">Billing history</H3>
        {invoices.length === 0 ? (
          <p className="pf-muted">No invoice yet: the first is issued in the firm&apos;s first month.</p>
        ) : (
          <HTMLTable compact striped className="pf-full-width" data-testid="invoices">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Invoice</th>
                <th scope="col">Description</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.id} data-testid="invoice">
                  <td>{invoiceDay(invoice.issuedOn)}</td>
                  <td>{invoice.number}</td>
                  <td>{invoice.description}</td>
                  <td>{poundsAndPence(invoice.amountPence / 100)}</td>
                  <td>Issued</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
      {editing ? <EditPaymentMethod method={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

function EditPaymentMethod({ method, onClose }: { method: PaymentMethodView; onClose: () => void }) {
  const [month, setMonth] = useState(String(method.expMonth));
  const [year, setYear] = useState(String(method.expYear));
  const [makeDefault, setMakeDefault] = useState(method.isDefault);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const edit = useEditPaymentMethod();
  const save = () => {
    const input = { expMonth: Number(month), expYear: Number(year), makeDefault };
    const parsed = editPaymentMethodInput.safeParse(input);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    edit.mutate(
      { id: method.id, ...input },
      {
        onSuccess: () => {
          toastSuccess(`${brandName(method.brand)} ending ${method.last4} saved`, 'Payment method updated');
          onClose();
        },
        onError: (error) => setProblem(failureReason(error)),
      },
    );
  };
  return (
    <Dialog isOpen onClose={onClose} title={`Edit ${brandName(method.brand)} ending ${method.last4}`}>
      <DialogBody>
        <div className="pf-grid pf-grid-2">
          <FormGroup
            label="Expiry month"
            labelFor="card-exp-month"
            intent={errors.expMonth ? Intent.DANGER : Intent.NONE}
            helperText={errors.expMonth}
          >
            <InputGroup id="card-exp-month" inputMode="numeric" value={month} onValueChange={setMonth} />
          </FormGroup>
          <FormGroup
            label="Expiry year"
            labelFor="card-exp-year"
            intent={errors.expYear ? Intent.DANGER : Intent.NONE}
            helperText={errors.expYear}
          >
            <InputGroup id="card-exp-year" inputMode="numeric" value={year} onValueChange={setYear} />
          </FormGroup>
        </div>
        <Checkbox
          label="Pay invoices with this card (default)"
          checked={makeDefault}
          disabled={method.isDefault}
          onChange={(e) => setMakeDefault(e.currentTarget.checked)}
        />
        <PaymentProblem problem={problem} />
      </DialogBody>
      <DialogFooter actions={<Button intent={Intent.PRIMARY} text="Save" loading={edit.isPending} onClick={save} />} />
    </Dialog>
  );
}
