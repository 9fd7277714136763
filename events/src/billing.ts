import { z } from 'zod';

/**
 * Settings → Billing (docs/behaviour/billing.md): the firm's plan, its payment methods and its invoices. A card
 * never reaches the platform: the browser gives it to the payment provider's hosted fields, and the platform
 * keeps only what the provider answers about it (its id there, brand, last four digits, expiry).
 */
export const PLANS = { professional: { name: 'Professional', pricePence: 4900, interval: 'month' } } as const;
export type PlanId = keyof typeof PLANS;
/** Every firm is on Professional: the one plan the product sells. */
export const FIRM_PLAN: PlanId = 'professional';

const period = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'period must be a month as YYYY-MM' });
const cardBrand = z.string().min(1).max(30);

export const paymentMethodAdded = z.object({
  type: z.literal('PaymentMethodAdded'),
  data: z.object({
    firmId: z.string(),
    paymentMethodId: z.uuid(),
    /** The provider's id of the card (pm_…): the platform's only handle on it. */
    providerId: z.string().min(1).max(200),
    brand: cardBrand,
    last4: z.string().regex(/^\d{4}$/),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(2200),
    isDefault: z.boolean(),
  }),
});
export const paymentMethodUpdated = z.object({
  type: z.literal('PaymentMethodUpdated'),
  data: z.object({
    firmId: z.string(),
    paymentMethodId: z.uuid(),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int().min(2000).max(2200),
    isDefault: z.boolean(),
  }),
});
export const invoiceIssued = z.object({
  type: z.literal('InvoiceIssued'),
  data: z.object({
    firmId: z.string(),
    invoiceId: z.uuid(),
    /** "INV-202611-3F2A": the month and the firm, readable on a statement. */
    number: z.string(),
    period,
    plan: z.enum(Object.keys(PLANS) as [PlanId]),
    description: z.string(),
    amountPence: z.number().int().nonnegative(),
    /** The day it is dated: the month's first, or the day the firm began in its first month. */
    issuedOn: z.iso.date(),
  }),
});
export const billingEvents = [paymentMethodAdded, paymentMethodUpdated, invoiceIssued] as const;
type BillingEvent = z.infer<typeof paymentMethodAdded> | z.infer<typeof paymentMethodUpdated> | z.infer<typeof invoiceIssued>;

export const billingCommand = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('AddPaymentMethod'),
    firmId: z.string(),
    method: paymentMethodAdded.shape.data.omit({ firmId: true, isDefault: true }),
  }),
  z.object({
    type: z.literal('UpdatePaymentMethod'),
    firmId: z.string(),
    paymentMethodId: z.uuid(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    makeDefault: z.boolean(),
  }),
  z.object({ type: z.literal('IssueInvoice'), firmId: z.string(), invoice: invoiceIssued.shape.data.omit({ firmId: true }) }),
]);
export type BillingCommand = z.infer<typeof billingCommand>;

export const paymentMethodView = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  isDefault: z.boolean(),
});
export type PaymentMethodView = z.infer<typeof paymentMethodView>;
export const invoiceView = z.object({
  id: z.string(),
  number: z.string(),
  period,
  description: z.string(),
  amountPence: z.number().int(),
  issuedOn: z.string(),
  /** Issued, not collected: no payment is taken by the platform itself. */
  status: z.literal('issued'),
});
export type InvoiceView = z.infer<typeof invoiceView>;

/** The firm's billing, folded from its billing-{firmId} stream: one fold for the decider and the read. */
export interface BillingState {
  paymentMethods: PaymentMethodView[];
  providerIds: Record<string, string>;
  invoices: InvoiceView[];
}
export const EMPTY_BILLING: BillingState = { paymentMethods: [], providerIds: {}, invoices: [] };

export function evolveBilling(state: BillingState, event: BillingEvent): BillingState {
  switch (event.type) {
    case 'PaymentMethodAdded': {
      const { paymentMethodId, providerId, brand, last4, expMonth, expYear, isDefault } = event.data;
      const others = state.paymentMethods.map((m) => (isDefault ? { ...m, isDefault: false } : m));
      return {
        ...state,
        paymentMethods: [...others, { id: paymentMethodId, brand, last4, expMonth, expYear, isDefault }],
        providerIds: { ...state.providerIds, [paymentMethodId]: providerId },
      };
    }
    case 'PaymentMethodUpdated': {
      const { paymentMethodId, expMonth, expYear, isDefault } = event.data;
      return {
        ...state,
        paymentMethods: state.paymentMethods.map((m) =>
          m.id === paymentMethodId ? { ...m, expMonth, expYear, isDefault } : isDefault ? { ...m, isDefault: false } : m,
        ),
      };
    }
    case 'InvoiceIssued': {
      const { invoiceId, number, period: month, description, amountPence, issuedOn } = event.data;
      return {
        ...state,
        invoices: [...state.invoices, { id: invoiceId, number, period: month, description, amountPence, issuedOn, status: 'issued' }],
      };
    }
  }
}

/** GET /api/billing: the plan, whether a provider is configured, the payment methods and the invoices, newest first. */
export const billingView = z.object({
  plan: z.object({ name: z.string(), pricePence: z.number().int(), interval: z.literal('month') }),
  provider: z.object({ configured: z.boolean() }),
  paymentMethods: z.array(paymentMethodView),
  invoices: z.array(invoiceView),
  /** Whether this person may change the firm's billing (its admins). */
  canChange: z.boolean(),
});
export type BillingView = z.infer<typeof billingView>;

/** Add Payment Method, step one: a setup at the provider, and the address of its hosted card fields. */
export const paymentSetupView = z.object({ setupId: z.string(), hostedFieldsUrl: z.string(), providerOrigin: z.string() });
export type PaymentSetupView = z.infer<typeof paymentSetupView>;
/** Step two, once the hosted fields say the card was taken: the setup's id (never a card detail). */
export const addPaymentMethodInput = z.strictObject({
  setupId: z.string({ error: 'setupId is required: the id of the setup the hosted card fields completed' }).min(1).max(200),
});
/** Edit: the card's new expiry, and whether it becomes the one invoices are paid with. */
export const editPaymentMethodInput = z.strictObject({
  expMonth: z
    .number({ error: 'Expiry month must be a number from 1 to 12' })
    .int()
    .min(1, { error: 'Expiry month must be from 1 to 12' })
    .max(12, { error: 'Expiry month must be from 1 to 12' }),
  expYear: z
    .number({ error: 'Expiry year must be a year such as 2030' })
    .int()
    .min(2000, { error: 'Expiry year must be a year such as 2030' })
    .max(2200, { error: 'Expiry year must be a year such as 2030' }),
  makeDefault: z.boolean().default(false),
});
export type EditPaymentMethodInput = z.input<typeof editPaymentMethodInput>;
export const paymentMethodParams = z.object({ id: z.uuid({ error: 'Payment method id must be a UUID' }) });

/** The payment provider's answers the platform reads (command-service/src/billing/provider.ts), in its own field names. */
export const providerSetup = z.object({
  id: z.string(),
  client_secret: z.string(),
  status: z.string(),
  payment_method: z.string().nullable().optional(),
  metadata: z.object({ firm: z.string().optional() }).optional(),
});
export const providerPaymentMethod = z.object({
  id: z.string(),
  card: z.object({ brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() }),
});
export type ProviderPaymentMethod = z.infer<typeof providerPaymentMethod>;
