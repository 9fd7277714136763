import type { FastifyPluginAsync } from 'fastify';
import type { ServiceContext } from '@pf/infra';
import { agentRoutes } from './agent/routes';
import { conversationRoutes } from './conversation/routes';
import { seedDemoRoutes } from './seed-demo/routes';

import { idMigrations } from './ids';
import { processManagerMigrations } from './process-managers/schema';

export const commandMigrations = [...idMigrations, ...processManagerMigrations];
export { startAutomation } from './process-managers/automation';
export { agentDecider } from './agent/agent';
export { conversationDecider } from './conversation/conversation';
export { handleCommand } from './handle-command';

/** The write side: every non-GET /api route (rate-limited per client by the HTTP shell). */
export const commandService: FastifyPluginAsync<ServiceContext> = async (app, context) => {
  await app.register(agentRoutes, context);
  await app.register(conversationRoutes, context);
  await app.register(seedDemoRoutes, context);
};
