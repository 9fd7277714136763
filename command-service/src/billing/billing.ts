import { EMPTY_BILLING, evolveBilling, type BillingCommand, type BillingState, type EventOf } from '@pf/events';
import { NotFound } from '@pf/infra';
import type { Decider } from '../handle-command';

export type BillingEvent = EventOf<'PaymentMethodAdded' | 'PaymentMethodUpdated' | 'InvoiceIssued'>;

/**
 * A firm's billing as events (billing-{firmId}; docs/behaviour/billing.md). A card the firm already holds (the same
 * provider id) is not added twice; the first card becomes the default; a month is invoiced once, so the invoicing
 * run may be repeated, or run by several copies at once, without a second invoice.
 */
function decide(command: BillingCommand, state: BillingState): BillingEvent[] {
  const { firmId } = command;
  switch (command.type) {
    case 'AddPaymentMethod': {
      if (Object.values(state.providerIds).includes(command.method.providerId)) return [];
      return [{ type: 'PaymentMethodAdded', data: { firmId, ...command.method, isDefault: state.paymentMethods.length === 0 } }];
    }
    case 'UpdatePaymentMethod': {
      const method = state.paymentMethods.find((m) => m.id === command.paymentMethodId);
      if (!method) throw new NotFound(`Payment method ${command.paymentMethodId} not found`);
      const isDefault = method.isDefault || command.makeDefault;
      if (method.expMonth === command.expMonth && method.expYear === command.expYear && method.isDefault === isDefault) return [];
      return [
        {
          type: 'PaymentMethodUpdated',
          data: { firmId, paymentMethodId: method.id, expMonth: command.expMonth, expYear: command.expYear, isDefault },
        },
      ];
    }
    case 'IssueInvoice':
      if (state.invoices.some((invoice) => invoice.period === command.invoice.period)) return [];
      return [{ type: 'InvoiceIssued', data: { firmId, ...command.invoice } }];
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

export const billingDecider: Decider<BillingCommand, BillingState, BillingEvent> = {
  initialState: EMPTY_BILLING,
  decide,
  evolve: evolveBilling,
};
