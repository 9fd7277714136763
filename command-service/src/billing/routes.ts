import { randomUUID } from 'node:crypto';
import {
  addPaymentMethodInput,
  editPaymentMethodInput,
  errorAnswers,
  paymentMethodParams,
  paymentMethodView,
  paymentSetupView,
  SIGNED_IN_ERRORS,
  streams,
  type PaymentMethodView,
} from '@pf/events';
import { Conflict, Invalid, NotFound, requireAdmin, sessionViewer, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { foldEvents, handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { billingDecider } from './billing';
import { paymentProvider } from './provider';

const WRITE_ERRORS = [...SIGNED_IN_ERRORS, 403, 404, 409, 502] as const;
const WHAT = "change the firm's billing";

/**
 * Settings → Billing's changes (docs/behaviour/billing.md), for the firm's admins: Add Payment Method (a setup at
 * the provider, whose hosted fields take the card; then the setup's card recorded by its provider id, brand, last
 * four digits and expiry) and Edit (a new expiry, or made the default). No route here reads a card number: none
 * is ever sent to the platform.
 */
export const billingRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { store, config }) => {
  const provider = paymentProvider(config);
  const configured = () => {
    if (!provider) {
      throw new Conflict(
        'No payment provider is configured, so no payment method can be added (PAYMENT_PROVIDER_URL, PAYMENT_PROVIDER_SECRET_KEY, PAYMENT_PROVIDER_PUBLISHABLE_KEY)',
      );
    }
    return provider;
  };

  app.post(
    '/api/billing/setups',
    {
      schema: {
        summary: "Add Payment Method, step one: a setup at the payment provider and its hosted card fields' address (admins)",
        response: { 201: paymentSetupView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { firmId } = requireAdmin(sessionViewer(request), WHAT);
      const provider = configured();
      const setup = await provider.createSetup(firmId);
      // The page that opens the fields is told the card was taken, in a message only this origin may read.
      const parentOrigin = request.headers.origin ?? `${request.protocol}://${request.host}`;
      return reply
        .status(201)
        .send({ setupId: setup.id, hostedFieldsUrl: provider.hostedFieldsUrl(setup, parentOrigin), providerOrigin: provider.origin });
    },
  );

  app.post(
    '/api/billing/payment-methods',
    {
      schema: {
        summary:
          'Add Payment Method, step two: the card the completed setup made, by its provider id, brand, last four digits and expiry (admins)',
        body: addPaymentMethodInput,
        response: { 201: paymentMethodView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { firmId } = requireAdmin(sessionViewer(request), WHAT);
      const { metadata } = signedIn(request);
      const card = await configured().completedSetup(request.body.setupId, firmId);
      if (!card) throw new Invalid("setupId: that setup has not taken a card at the payment provider, or is not your firm's");
      const handled = await handleCommand(
        store,
        streams.billing(firmId),
        billingDecider,
        {
          type: 'AddPaymentMethod',
          firmId,
          method: {
            paymentMethodId: randomUUID(),
            providerId: card.id,
            brand: card.card.brand,
            last4: card.card.last4,
            expMonth: card.card.exp_month,
            expYear: card.card.exp_year,
          },
        },
        metadata,
      );
      const id = Object.entries(handled.state.providerIds).find(([, providerId]) => providerId === card.id)![0];
      return withPosition(reply, handled.position)
        .status(201)
        .send(handled.state.paymentMethods.find((m) => m.id === id)!);
    },
  );

  app.patch(
    '/api/billing/payment-methods/:id',
    {
      schema: {
        summary: "Edit a payment method: the card's new expiry (changed at the provider), or make it the default (admins)",
        params: paymentMethodParams,
        body: editPaymentMethodInput,
        response: { 200: paymentMethodView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { firmId } = requireAdmin(sessionViewer(request), WHAT);
      const { metadata } = signedIn(request);
      const { expMonth, expYear, makeDefault } = request.body;
      const now = new Date();
      if (expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)) {
        throw new Invalid('expYear: the expiry is in the past; a card past its expiry cannot pay');
      }
      // Another firm's payment method is not in this firm's stream: 404, as for one that does not exist.
      const state = foldEvents(billingDecider, await store.readStream(streams.billing(firmId)));
      const providerId = state.providerIds[request.params.id];
      if (!providerId) throw new NotFound(`Payment method ${request.params.id} not found`);
      await configured().updateExpiry(providerId, expMonth, expYear);
      const handled = await handleCommand(
        store,
        streams.billing(firmId),
        billingDecider,
        { type: 'UpdatePaymentMethod', firmId, paymentMethodId: request.params.id, expMonth, expYear, makeDefault },
        metadata,
      );
      const method: PaymentMethodView = handled.state.paymentMethods.find((m) => m.id === request.params.id)!;
      return withPosition(reply, handled.position).send(method);
    },
  );
};
