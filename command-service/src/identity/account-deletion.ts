import { streams, type EventMetadata } from '@pf/events';
import { AccountStore, NotFound, PersonalDataVault, type ServiceContext } from '@pf/infra';
import { agentDecider } from '../agent/agent';
import { handleCommand, type Handled } from '../handle-command';
import { userDecider, type UserEvent, type UserState } from './user';

/**
 * Delete Account, as steps that are each safe to run again, in an order where a failure part-way leaves
 * nothing worse than a retry can finish (the session stays valid until the last step, so the console can
 * simply ask again):
 * 1. the user's agents are deleted (an agent already deleted records nothing), so the automation lets them go;
 * 2. the user's key is deleted: from here on their personal data in events is unreadable (crypto-shredding),
 *    whatever happens next, so the key can never outlive a deletion that was reported;
 * 3. AccountDeleted is recorded (a second request records nothing), so every read model forgets the user;
 * 4. the answers kept for its Idempotency-Key retries and the account row go, and with the row (by cascade)
 *    its sessions and devices.
 * Only then is the deletion reported. The events stay in their streams, sealed, so counterparties' history
 * remains complete and its hash chains verifiable.
 */
export async function deleteAccount(
  { pool, store, sessions }: Pick<ServiceContext, 'pool' | 'store' | 'sessions'>,
  userId: string,
  metadata: EventMetadata,
): Promise<Handled<UserState, UserEvent>> {
  // The write side keeps no index of owners; the agents read model lists them, and each deletion is then
  // decided on the agent's own stream. An agent created a moment ago may not be in the read model yet: with
  // the PostgreSQL event store its AgentCreated is read from the events table too (else that query fails).
  const listed = await pool
    .query<{ id: string }>('select id from rm_agents where owner_id = $1 and not is_deleted', [userId])
    .catch(() => ({ rows: [] }));
  const recorded = await pool
    .query<{ id: string }>("select distinct data->>'agentId' as id from events where type = 'AgentCreated' and data->>'ownerId' = $1", [
      userId,
    ])
    .catch(() => ({ rows: [] }));
  const owned = { rows: [...new Map([...listed.rows, ...recorded.rows].map((row) => [String(row.id), row])).values()] };
  for (const { id } of owned.rows) {
    const agentId = Number(id);
    // Already deleted (the read model may lag behind a first attempt): nothing more to do for it.
    await handleCommand(store, streams.agent(agentId), agentDecider, { type: 'DeleteAgent', agentId, actorId: userId }, metadata).catch(
      (error: unknown) => {
        if (!(error instanceof NotFound)) throw error;
      },
    );
  }
  await new PersonalDataVault(pool).shred(userId);
  const handled = await handleCommand(store, streams.user(userId), userDecider, { type: 'DeleteAccount', userId }, metadata);
  // Answers kept for Idempotency-Key retries may hold the profile (a Save Changes answer): they go too.
  await pool.query('delete from idempotency_keys where user_id = $1', [userId]);
  await new AccountStore(pool).delete(userId);
  sessions.forgetUser(userId);
  return handled;
}
