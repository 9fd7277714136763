import { providerPaymentMethod as paymentMethod, providerSetup as setup, type ProviderPaymentMethod } from '@pf/events';
import { DomainError, type Config } from '@pf/infra';

/**
 * The payment provider's HTTP API as the platform uses it (docs/behaviour/billing.md, "The payment provider"),
 * shaped like Stripe's SetupIntents: the platform asks for a setup for the firm, the browser gives the card to the
 * provider's hosted fields (never to the platform), and the platform reads back the payment method the setup made:
 * its id, brand, last four digits and expiry. Edit changes the expiry at the provider. Every call carries the
 * platform's secret key; none carries a card number.
 */

/** A contract's schema, as far as reading an answer needs it. */
interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

class ProviderUnavailable extends DomainError {
  constructor(what: string) {
    super(`The payment provider could not ${what} just now; nothing was changed. Try again in a minute.`, 502);
  }
}

export interface PaymentProvider {
  /** The browser's page of card fields, served by the provider, for this setup. */
  hostedFieldsUrl(setup: { id: string; clientSecret: string }, parentOrigin: string): string;
  readonly origin: string;
  createSetup(firmId: string): Promise<{ id: string; clientSecret: string }>;
  /** The setup's payment method once it has succeeded, for this firm only; null otherwise. */
  completedSetup(setupId: string, firmId: string): Promise<ProviderPaymentMethod | null>;
  updateExpiry(providerId: string, expMonth: number, expYear: number): Promise<ProviderPaymentMethod>;
}

export function paymentProvider(
  config: Pick<Config, 'PAYMENT_PROVIDER_URL' | 'PAYMENT_PROVIDER_SECRET_KEY' | 'PAYMENT_PROVIDER_PUBLISHABLE_KEY'>,
): PaymentProvider | null {
  const { PAYMENT_PROVIDER_URL: url, PAYMENT_PROVIDER_SECRET_KEY: secret, PAYMENT_PROVIDER_PUBLISHABLE_KEY: publishable } = config;
  if (!url || !secret || !publishable) return null;
  const base = url.replace(/\/$/, '');

  const call = async <T>(what: string, method: string, path: string, schema: Schema<T>, body?: unknown): Promise<T | null> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new ProviderUnavailable(what);
    }
    if (response.status === 404) return null;
    if (!response.ok) throw new ProviderUnavailable(what);
    const parsed = schema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new ProviderUnavailable(what);
    return parsed.data;
  };

  return {
    origin: new URL(base).origin,
    hostedFieldsUrl: ({ id, clientSecret }, parentOrigin) =>
      `${base}/hosted/card?${new URLSearchParams({ setup: id, client_secret: clientSecret, key: publishable, parent_origin: parentOrigin })}`,
    async createSetup(firmId) {
      const created = await call('start adding a card', 'POST', '/v1/setup_intents', setup, {
        usage: 'off_session',
        metadata: { firm: firmId },
      });
      if (!created) throw new ProviderUnavailable('start adding a card');
      return { id: created.id, clientSecret: created.client_secret };
    },
    async completedSetup(setupId, firmId) {
      const found = await call('confirm the card', 'GET', `/v1/setup_intents/${encodeURIComponent(setupId)}`, setup);
      if (!found || found.status !== 'succeeded' || !found.payment_method || found.metadata?.firm !== firmId) return null;
      return call('read the card', 'GET', `/v1/payment_methods/${encodeURIComponent(found.payment_method)}`, paymentMethod);
    },
    async updateExpiry(providerId, expMonth, expYear) {
      const updated = await call('change the card', 'POST', `/v1/payment_methods/${encodeURIComponent(providerId)}`, paymentMethod, {
        card: { exp_month: expMonth, exp_year: expYear },
      });
      if (!updated) throw new ProviderUnavailable('change the card');
      return updated;
    },
  };
}
