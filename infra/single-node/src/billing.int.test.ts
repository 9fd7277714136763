import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueDueInvoices } from '@pf/command-service';
import { createPool, PostgresEventStore, readingTheContract } from '@pf/infra';
import {
  streams,
  type ApiError,
  type BillingView,
  type CurrentUserView,
  type InviteView,
  type PaymentMethodView,
  type PaymentSetupView,
} from '@pf/events';
import { ApiClient } from './testing/api-client';
import { startPaymentProviderStandIn } from './testing/payment-provider-stand-in';
import { testSingleNode } from './testing/single-node';

/**
 * Settings → Billing's routes on the real single node (docs/behaviour/billing.md). The payment provider is stood in
 * for by a real HTTP server in this test (testing/payment-provider-stand-in.ts), standing in for its HTTP API only;
 * the test plays the browser's part at the hosted card fields by calling that server as its page does.
 */
const provider = await startPaymentProviderStandIn();

describe('billing', () => {
  const node = testSingleNode({
    PAYMENT_PROVIDER_URL: provider.url,
    PAYMENT_PROVIDER_SECRET_KEY: provider.secretKey,
    PAYMENT_PROVIDER_PUBLISHABLE_KEY: provider.publishableKey,
  });
  const unconfigured = testSingleNode();
  let admin: ApiClient;
  let other: ApiClient;
  afterAll(() => provider.close());
  beforeAll(async () => {
    admin = await ApiClient.signIn(node.server.url);
    other = await ApiClient.signIn(node.server.url);
  });

  /** What the hosted fields page does in the browser: the card goes to the provider, with the publishable key. */
  const giveCardToProvider = async (setup: PaymentSetupView, number: string) => {
    const params = new URL(setup.hostedFieldsUrl).searchParams;
    const answer = await fetch(`${provider.url}/v1/setup_intents/${setup.setupId}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${params.get('key')}` },
      body: JSON.stringify({ client_secret: params.get('client_secret'), card: { number, exp_month: '8', exp_year: '2031', cvc: '123' } }),
    });
    expect(answer.status).toBe(200);
  };
  const addCard = async (client: ApiClient, number: string) => {
    const setup = (await client.post<PaymentSetupView>('/api/billing/setups')).body;
    await giveCardToProvider(setup, number);
    return client.post<PaymentMethodView & ApiError>('/api/billing/payment-methods', { setupId: setup.setupId });
  };

  it('adds a card by its setup (brand, last four, expiry; never the number), edits its expiry and keeps firms apart', async () => {
    const added = await addCard(admin, '4242424242424242');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 8, expYear: 2031, isDefault: true });
    const second = await addCard(admin, '5555555555554444');
    expect(second.body).toMatchObject({ brand: 'mastercard', last4: '4444', isDefault: false });

    const edited = await admin.patch<PaymentMethodView>(`/api/billing/payment-methods/${second.body.id}`, {
      expMonth: 3,
      expYear: 2032,
      makeDefault: true,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ expMonth: 3, expYear: 2032, isDefault: true });
    const billing = (await admin.get<BillingView>('/api/billing')).body;
    expect(billing.provider.configured).toBe(true);
    expect(billing.paymentMethods.map((m) => [m.last4, m.isDefault])).toEqual([
      ['4242', false],
      ['4444', true],
    ]);

    // Another firm sees none of it, cannot edit it (404, as for none) and cannot take this firm's setup as its own.
    expect((await other.get<BillingView>('/api/billing')).body.paymentMethods).toEqual([]);
    const foreign = await other.patch<ApiError>(`/api/billing/payment-methods/${added.body.id}`, { expMonth: 1, expYear: 2033 });
    expect(foreign.status).toBe(404);
    const setup = (await admin.post<PaymentSetupView>('/api/billing/setups')).body;
    await giveCardToProvider(setup, '4000056655665556');
    const stolen = await other.post<ApiError>('/api/billing/payment-methods', { setupId: setup.setupId });
    expect([stolen.status, stolen.body.message]).toEqual([
      400,
      "setupId: that setup has not taken a card at the payment provider, or is not your firm's",
    ]);

    // No card number in any row of the platform's database: the provider had them all.
    expect(provider.cardNumbersReceived).toContain('4242424242424242');
    const pool = createPool(node.server.databaseUrl, 1);
    try {
      const tables = await pool.query<{ name: string }>(
        "select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'",
      );
      for (const { name } of tables.rows) {
        const found = await pool.query(
          `select 1 from ${name} t where t::text ~ '(4242424242424242|5555555555554444|4000056655665556)' limit 1`,
        );
        expect(found.rowCount, name).toBe(0);
      }
    } finally {
      await pool.end();
    }
  });

  it('refuses bad input with the reason, and changes only for the firm’s admins', async () => {
    const noSetup = await admin.post<ApiError>('/api/billing/payment-methods', {});
    expect(noSetup.status).toBe(400);
    const cardNumber = await admin.post<ApiError>('/api/billing/payment-methods', { setupId: 'seti_x', number: '4242424242424242' });
    expect(cardNumber.status).toBe(400);
    const unknown = await admin.post<ApiError>('/api/billing/payment-methods', { setupId: 'seti_unknown' });
    expect(unknown.status).toBe(400);
    const method = (await admin.get<BillingView>('/api/billing')).body.paymentMethods[0]!;
    const month = await admin.patch<ApiError>(`/api/billing/payment-methods/${method.id}`, { expMonth: 13, expYear: 2030 });
    expect([month.status, month.body.message]).toEqual([400, expect.stringContaining('Expiry month must be from 1 to 12') as string]);
    const past = await admin.patch<ApiError>(`/api/billing/payment-methods/${method.id}`, { expMonth: 1, expYear: 2020 });
    expect([past.status, past.body.message]).toEqual([400, 'expYear: the expiry is in the past; a card past its expiry cannot pay']);
    expect((await admin.patch<ApiError>('/api/billing/payment-methods/not-a-uuid', { expMonth: 1, expYear: 2030 })).status).toBe(400);

    // An operator of the firm reads billing but changes nothing.
    const invite = (await admin.post<InviteView>('/api/firm/invites', { role: 'operator' })).body;
    const operator = await ApiClient.signIn(node.server.url);
    expect((await operator.post('/api/firm/join', { token: invite.token })).status).toBe(200);
    const read = (await operator.get<BillingView>('/api/billing')).body;
    expect([read.paymentMethods.length, read.canChange]).toEqual([2, false]);
    const refused = await operator.post<ApiError>('/api/billing/setups');
    expect(refused.status).toBe(403);
    expect((await operator.patch(`/api/billing/payment-methods/${method.id}`, { expMonth: 1, expYear: 2033 })).status).toBe(403);
  });

  it('without a provider, says so and takes no payment method; invoices are issued once a month from the plan, however often the run repeats', async () => {
    const alone = await ApiClient.signIn(unconfigured.server.url);
    const me = (await alone.get<CurrentUserView>('/api/auth/user')).body;
    const refused = await alone.post<ApiError>('/api/billing/setups');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^No payment provider is configured/);

    const pool = createPool(unconfigured.server.databaseUrl, 2);
    try {
      // The firm began three months ago, on the 14th.
      const began = new Date();
      began.setUTCDate(14);
      began.setUTCMonth(began.getUTCMonth() - 3);
      await pool.query('update firms set created_at = $2 where id = $1', [me.firmId, began]);
      const store = readingTheContract(new PostgresEventStore(pool, unconfigured.server.databaseUrl));
      const runs = await Promise.all([issueDueInvoices(pool, store, new Date()), issueDueInvoices(pool, store, new Date())]);
      await issueDueInvoices(pool, store, new Date());
      expect(runs[0] + runs[1]).toBeGreaterThanOrEqual(4);
      const billing = (await alone.get<BillingView>('/api/billing')).body;
      expect(billing.provider.configured).toBe(false);
      expect(billing.plan).toEqual({ name: 'Professional', pricePence: 4900, interval: 'month' });
      const mine = billing.invoices;
      expect(mine).toHaveLength(4);
      expect(mine.every((invoice) => invoice.amountPence === 4900)).toBe(true);
      expect(mine.at(-1)!.issuedOn).toBe(began.toISOString().slice(0, 10));
      expect(mine[0]!.issuedOn.endsWith('-01')).toBe(true);
      const events = await pool.query<{ n: number }>(
        "select count(*)::int as n from events where stream_name = $1 and type = 'InvoiceIssued'",
        [streams.billing(me.firmId!)],
      );
      expect(events.rows[0]!.n).toBe(4);
    } finally {
      await pool.end();
    }
  });
});
