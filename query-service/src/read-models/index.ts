import type pg from 'pg';
import type { FastifyPluginAsync } from 'fastify';
import type { RecordedEvent } from '@pf/infra';
import type { ProjectorMemory } from '../projection-kit/memory';
import { agentsReadModel } from './agents';
import { conversationsReadModel } from './conversations';
import { dealReadRoutes, dealsReadModel } from './deals';
import { dealsAgreedReadModel } from './deals-agreed';
import { documentReadRoutes, documentsReadModel } from './documents';
import { leadReadRoutes, leadsReadModel } from './leads';
import { matchReadRoutes, matchesReadModel } from './matches';
import { matchesFoundReadModel } from './matches-found';
import { notificationsReadModel } from './notifications';
import type { ReadModelRouteOptions } from '../projection-kit/read-model-routes';
import type { ReadModel } from '../projection-kit/read-model';
import { versionsReadModel } from './versions';
import { conversationStatusReadModel } from './conversation-status/projection';
import { eventFeedReadModel } from './event-feed/projection';
import { erasureReadModel } from './erasure/projection';

export type { ReadModel } from '../projection-kit/read-model';

/**
 * Every read model, in the order their batches are applied (a later one may read an earlier one's rows:
 * a match's parties are read from rm_agents).
 */
export const readModels: readonly ReadModel[] = [
  agentsReadModel,
  conversationsReadModel,
  matchesFoundReadModel,
  dealsAgreedReadModel,
  // The boards of Deals & Transactions, Documents and Matching & Leads (each its own rows, from the events).
  dealsReadModel,
  documentsReadModel,
  leadsReadModel,
  matchesReadModel,
  versionsReadModel,
  conversationStatusReadModel,
  // What the event feed asks of each batch: the firms of its streams, agents' owners, deleted people.
  eventFeedReadModel,
  // Notifications read the rows above (agents, conversations, participants), so they come last. (The analytics
  // facts are not here: the analytics consumer folds them, see ./analytics/consumer.ts.)
  notificationsReadModel,
  // Last: a deleted person's words leave the rows above (docs/decisions/hash-chain.md "Erasure").
  erasureReadModel,
];

export const READ_MODEL_TABLES: readonly string[] = readModels.flatMap((model) => model.tables);
export const readModelMigrations = readModels.flatMap((model) => model.migrations);

export async function projectReadModels(client: pg.ClientBase, batch: readonly RecordedEvent[], memory?: ProjectorMemory): Promise<void> {
  for (const model of readModels) await model.project(client, batch, memory);
}

/** The GET routes of the read models that serve their own (deals, documents, leads, matches). */
export const readModelRoutes: FastifyPluginAsync<ReadModelRouteOptions> = async (app, options) => {
  await app.register(dealReadRoutes, options);
  await app.register(documentReadRoutes, options);
  await app.register(leadReadRoutes, options);
  await app.register(matchReadRoutes, options);
};
