import { streams, type EventMetadata } from '@pf/events';
import { NotFound, type ServiceContext } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { handleCommand } from '../handle-command';

type Context = Pick<ServiceContext, 'pool' | 'store'>;

/**
 * The agents a firm has: the write side keeps no index, so the agents read model lists them and, for one created
 * a moment ago that it may not hold yet, the PostgreSQL store's own events table (with EventStoreDB that query
 * fails and the read model alone answers). An agent from before firms (no firmId) is its owner's firm of one's.
 */
async function agentsOfFirm({ pool }: Context, firmId: string): Promise<number[]> {
  const rows = await Promise.all([
    pool.query<{ id: string }>('select id from rm_agents where firm_id = $1 and not is_deleted', [firmId]).catch(() => ({ rows: [] })),
    pool
      .query<{ id: string }>(
        `select distinct data->>'agentId' as id from events where type = 'AgentCreated'
         and coalesce(data->>'firmId', data->>'ownerId') = $1`,
        [firmId],
      )
      .catch(() => ({ rows: [] })),
  ]);
  return [...new Set(rows.flatMap((result) => result.rows.map((row) => Number(row.id))))].sort((a, b) => a - b);
}

/** Runs an agent command, taking an agent already deleted (or never the firm's) as nothing more to do. */
async function onAgent(run: () => Promise<unknown>): Promise<void> {
  await run().catch((error: unknown) => {
    if (!(error instanceof NotFound)) throw error;
  });
}

/**
 * A firm its last member left (docs/decisions/departures.md): nobody can manage its agents, so each active one
 * is paused (the automation stops their conversations, as for any pause), and its API tokens are revoked. Run
 * before the departure is recorded, so no agent of an empty firm moves after it; safe to run again.
 */
export async function standDownFirm(context: Context, firmId: string, actorId: string, metadata: EventMetadata): Promise<void> {
  for (const agentId of await agentsOfFirm(context, firmId)) {
    await onAgent(() =>
      handleCommand(
        context.store,
        streams.agent(agentId),
        agentDecider,
        { type: 'ChangeAgent', agentId, actorId, actorFirmId: firmId, isActive: false },
        metadata,
      ),
    );
  }
  await context.pool.query('update api_tokens set revoked_at = now() where firm_id = $1 and revoked_at is null', [firmId]);
}

/** A person leaves a firm that others stay in: the API tokens they created for it stop working at once. */
export async function revokeTokensOf(context: Context, firmId: string, userId: string): Promise<void> {
  await context.pool.query('update api_tokens set revoked_at = now() where firm_id = $1 and created_by = $2 and revoked_at is null', [
    firmId,
    userId,
  ]);
}

/** Delete Account: every agent the person created is deleted, in whichever firm (docs/decisions/departures.md). */
export async function deleteAgentsOf(context: Context, userId: string, metadata: EventMetadata): Promise<void> {
  const created = await context.pool
    .query<{ id: string; firm: string }>(
      `select distinct data->>'agentId' as id, coalesce(data->>'firmId', data->>'ownerId') as firm from events
       where type = 'AgentCreated' and data->>'ownerId' = $1`,
      [userId],
    )
    .catch(() => ({ rows: [] as { id: string; firm: string }[] }));
  const listed = await context.pool
    .query<{ id: string; firm: string }>('select id, firm_id as firm from rm_agents where owner_id = $1 and not is_deleted', [userId])
    .catch(() => ({ rows: [] as { id: string; firm: string }[] }));
  const firms = new Map([...listed.rows, ...created.rows].map((row) => [Number(row.id), row.firm]));
  for (const [agentId, firmId] of firms) {
    await onAgent(() =>
      handleCommand(
        context.store,
        streams.agent(agentId),
        agentDecider,
        { type: 'DeleteAgent', agentId, actorId: userId, actorFirmId: firmId },
        metadata,
      ),
    );
  }
}
