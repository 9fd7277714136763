import {
  billingEvents,
  billingView,
  EMPTY_BILLING,
  errorAnswers,
  evolveBilling,
  FIRM_PLAN,
  mayManageMembers,
  PLANS,
  SIGNED_IN_ERRORS,
  streams,
} from '@pf/events';
import { sessionViewer, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { z } from 'zod';

const billingEvent = z.discriminatedUnion('type', billingEvents);

/**
 * GET /api/billing (docs/behaviour/billing.md): the firm's plan, whether a payment provider is configured, its
 * payment methods (brand, last four digits, expiry) and its invoices, newest first, folded from its own
 * billing-{firmId} stream with the one fold the write side decides with. Any member may read it; only a firm's
 * own stream is ever read, so no other firm's billing can be.
 */
export const billingReadRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { store, config }) => {
  app.get(
    '/api/billing',
    {
      schema: {
        summary: "Your firm's plan, payment methods and billing history",
        response: { 200: billingView, ...errorAnswers(...SIGNED_IN_ERRORS) },
      },
    },
    async (request) => {
      const viewer = sessionViewer(request);
      let state = EMPTY_BILLING;
      for (const recorded of await store.readStream(streams.billing(viewer.firmId))) {
        const event = billingEvent.safeParse({ type: recorded.type, data: recorded.data });
        if (event.success) state = evolveBilling(state, event.data);
      }
      const plan = PLANS[FIRM_PLAN];
      return {
        plan: { name: plan.name, pricePence: plan.pricePence, interval: plan.interval },
        provider: {
          configured: Boolean(config.PAYMENT_PROVIDER_URL && config.PAYMENT_PROVIDER_SECRET_KEY && config.PAYMENT_PROVIDER_PUBLISHABLE_KEY),
        },
        paymentMethods: state.paymentMethods,
        invoices: [...state.invoices].sort((a, b) => (a.period < b.period ? 1 : -1)),
        canChange: mayManageMembers(viewer.role),
      };
    },
  );
};
