import type { FastifyPluginAsync } from 'fastify';
import { oidcSettings, SignInThrottle, signedInBeforeValidation, type ServiceContext } from '@pf/infra';
import { agentRoutes } from './agent/routes';
import { conversationRoutes } from './conversation/routes';
import { dealRoutes } from './deal/routes';
import { documentFileRoute } from './document/files-route';
import { documentMigrations } from './document/file-store';
import { documentRoutes } from './document/routes';
import { identityRoutes } from './identity/routes';
import { oidcRoutes } from './identity/oidc-routes';
import { matchRequestRoutes } from './matching/routes';
import { apiTokenRoutes } from './identity/api-token-routes';
import { securityRoutes } from './identity/security-routes';
import { billingRoutes } from './billing/routes';
import { startInvoicing } from './billing/invoicing';
import { photoRoutes } from './identity/photo/routes';
import { settingsRoutes } from './identity/settings-routes';
import { protectionRoutes } from './identity/protection/routes';
import { signInRoutes } from './identity/protection/sign-in-routes';
import { notificationRoutes } from './notifications/routes';
import { seedDemoRoutes } from './seed-demo/routes';
import { seedDemoMigrations } from './seed-demo/claims';
import { firmRoutes } from './firm/routes';
import { writersOnly } from './route-roles';
import { invitationLinkRoute, inviteRoutes } from './firm/invite-routes';

import { idMigrations } from './ids';
import { processManagerMigrations } from './automation/process-managers/schema';

export const commandMigrations = [...idMigrations, ...processManagerMigrations, ...documentMigrations, ...seedDemoMigrations];
export { DEAL_OPENER_CHECKPOINT, startDealOpener } from './deal/deal-opener';
export { issueDueInvoices } from './billing/invoicing';
export { illustrationDocument, ILLUSTRATION_MAKER_CHECKPOINT, startIllustrationMaker } from './illustration/illustration-maker';
export { illustrationInputOf } from './illustration/esis-content';
export { startAutomation, type Automation, type AutomationOptions } from './automation/process-managers/automation';
export { agentDecider } from './agent/agent';
export { conversationDecider } from './conversation/conversation';
export { handleCommand } from './handle-command';
export { firmDecider } from './firm/firm';

/**
 * The commands of signed-in users, each checked for a session, and for the role its route declares
 * (`route-roles.ts`), before its schema.
 */
const commandRoutes: FastifyPluginAsync<ServiceContext> = async (app, context) => {
  app.addHook('preValidation', signedInBeforeValidation);
  app.addHook('preValidation', writersOnly);
  await app.register(agentRoutes, context);
  await app.register(conversationRoutes, context);
  await app.register(seedDemoRoutes, context);
  await app.register(dealRoutes, context);
  await app.register(documentRoutes, context);
  await app.register(matchRequestRoutes, context);
  await app.register(settingsRoutes, context);
  await app.register(photoRoutes, context);
  await app.register(securityRoutes, context);
  await app.register(protectionRoutes, context);
  await app.register(apiTokenRoutes, context);
  await app.register(notificationRoutes, context);
  await app.register(firmRoutes, context);
  await app.register(inviteRoutes, context);
  await app.register(billingRoutes, context);
};

/**
 * The write side: every non-GET /api route (rate-limited per client by the HTTP shell), identity
 * (sign-in, sign-out, the signed-in user), since signing in writes a session, and the signed document links.
 */
export const commandService: FastifyPluginAsync<ServiceContext> = async (app, context) => {
  // With an OpenID Connect provider configured, sign-in goes through it only (no guest accounts beside it).
  const oidc = oidcSettings(context.config);
  await app.register(identityRoutes, {
    sessions: context.sessions,
    ttlHours: context.config.SESSION_TTL_HOURS,
    guestSignIn: oidc === null,
    config: context.config,
  });
  if (oidc) await app.register(oidcRoutes, { sessions: context.sessions, ttlHours: context.config.SESSION_TTL_HOURS, oidc });
  else await app.register(signInRoutes, context);
  // A signed link is the permission itself: Share is for people without an account, so no session here.
  await app.register(documentFileRoute, context);
  // An invitation link tells a signed-out visitor what it is before they sign in.
  await app.register(invitationLinkRoute, context);
  await app.register(commandRoutes, context);
  // Expired and idle sessions are purged (they are refused anyway; this keeps the table to the living ones).
  const throttle = new SignInThrottle(context.pool);
  const purge = () =>
    void Promise.all([context.sessions.purgeExpired(), throttle.purge()]).catch((error) =>
      context.log.warn({ err: error }, 'could not purge expired sessions'),
    );
  const timer = setInterval(purge, 10 * 60_000);
  timer.unref();
  purge();
  app.addHook('onClose', async () => clearInterval(timer));
  // Each firm's monthly invoice from its plan (docs/behaviour/billing.md, "Invoices").
  const stopInvoicing = await startInvoicing(context.pool, context.store, context.log, context.config.INVOICE_RUN_SECONDS);
  app.addHook('onClose', async () => stopInvoicing());
};
/** For the simulation's invariants (infra/single-node/src/simulation): the same rules the agents apply. */
export { bestLine, negotiatedNeeds } from './automation/negotiation/setup';
export { outsideLimits } from './automation/negotiation/pricing';
export { DEFAULT_LENDING_RULES } from './automation/negotiation/lending-rules';
export { commitmentRule } from './need/need';
export { membershipRule } from './firm/membership';
// What the running product writes after an agreement, for the bench's generated histories (bench/lib/product-work.ts).
export { deterministicId } from './automation/process-managers/deterministic-id';
export { esisContent } from './illustration/esis-content';
export { renderEsisPdf } from './illustration/esis-pdf';
export { storeDocumentFile } from './document/file-write';
