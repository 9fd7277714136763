import type { FastifyPluginAsync } from 'fastify';
import { oidcSettings, signedInBeforeValidation, type ServiceContext } from '@pf/infra';
import { agentRoutes } from './agent/routes';
import { conversationRoutes } from './conversation/routes';
import { dealRoutes } from './deal/routes';
import { documentFileRoute } from './document/files-route';
import { documentMigrations } from './document/file-store';
import { documentRoutes } from './document/routes';
import { identityRoutes } from './identity/routes';
import { oidcRoutes } from './identity/oidc-routes';
import { matchRequestRoutes } from './matching/routes';
import { securityRoutes } from './identity/security-routes';
import { settingsRoutes } from './identity/settings-routes';
import { notificationRoutes } from './notifications/routes';
import { seedDemoRoutes } from './seed-demo/routes';

import { idMigrations } from './ids';
import { processManagerMigrations } from './process-managers/schema';

export const commandMigrations = [...idMigrations, ...processManagerMigrations, ...documentMigrations];
export { startDealOpener } from './deal/deal-opener';
export { startAutomation } from './process-managers/automation';
export { agentDecider } from './agent/agent';
export { conversationDecider } from './conversation/conversation';
export { handleCommand } from './handle-command';

/** The commands of signed-in users, each checked for a session before its schema. */
const commandRoutes: FastifyPluginAsync<ServiceContext> = async (app, context) => {
  app.addHook('preValidation', signedInBeforeValidation);
  await app.register(agentRoutes, context);
  await app.register(conversationRoutes, context);
  await app.register(seedDemoRoutes, context);
  await app.register(dealRoutes, context);
  await app.register(documentRoutes, context);
  await app.register(matchRequestRoutes, context);
  await app.register(settingsRoutes, context);
  await app.register(securityRoutes, context);
  await app.register(notificationRoutes, context);
};

/**
 * The write side: every non-GET /api route (rate-limited per client by the HTTP shell), identity
 * (sign-in, sign-out, the signed-in user), since signing in writes a session, and the signed document links.
 */
export const commandService: FastifyPluginAsync<ServiceContext> = async (app, context) => {
  // With an OpenID Connect provider configured, sign-in goes through it only (no guest accounts beside it).
  const oidc = oidcSettings(context.config);
  await app.register(identityRoutes, { sessions: context.sessions, ttlHours: context.config.SESSION_TTL_HOURS, guestSignIn: oidc === null });
  if (oidc) await app.register(oidcRoutes, { sessions: context.sessions, ttlHours: context.config.SESSION_TTL_HOURS, oidc });
  // A signed link is the permission itself: Share is for people without an account, so no session here.
  await app.register(documentFileRoute, context);
  await app.register(commandRoutes, context);
  // Expired and idle sessions are purged (they are refused anyway; this keeps the table to the living ones).
  const purge = () => void context.sessions.purgeExpired().catch((error) => context.log.warn({ err: error }, 'could not purge expired sessions'));
  const timer = setInterval(purge, 10 * 60_000);
  timer.unref();
  purge();
  app.addHook('onClose', async () => clearInterval(timer));
};
