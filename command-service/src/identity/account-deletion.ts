import { streams, type EventMetadata } from '@pf/events';
import { AccountStore, PersonalDataVault, type ServiceContext, type SessionUser } from '@pf/infra';
import { deleteAgentsOf, revokeTokensOf } from '../firm/departures';
import { firmDecider } from '../firm/firm';
import { handleCommand, type Handled } from '../handle-command';
import { userDecider, type UserEvent, type UserState } from './user';

/**
 * Delete Account, as steps that are each safe to run again, in an order where a failure part-way leaves
 * nothing worse than a retry can finish (the session stays valid until the last step, so the console can
 * simply ask again):
 * 1. the person leaves their firm (MemberLeft): the only admin of a firm with other members is refused unless
 *    they name a successor, who is made admin first (docs/decisions/departures.md); the API tokens they created
 *    are revoked;
 * 2. every agent they created is deleted (an agent already deleted records nothing), so the automation lets
 *    them go;
 * 3. the user's key is deleted: from here on their personal data in events is unreadable (crypto-shredding),
 *    whatever happens next, so the key can never outlive a deletion that was reported;
 * 4. AccountDeleted is recorded (a second request records nothing), so every read model forgets the user;
 * 5. the answers kept for its Idempotency-Key retries and the account row go, and with the row (by cascade)
 *    its sessions and devices.
 * Only then is the deletion reported. The events stay in their streams, so counterparties' history remains
 * complete and its hash chains verifiable; what they say of the person is removed wherever it is read
 * (docs/decisions/hash-chain.md "Erasure").
 */
export async function deleteAccount(
  context: Pick<ServiceContext, 'pool' | 'store' | 'sessions'>,
  user: Pick<SessionUser, 'id' | 'firmId' | 'firmName'>,
  metadata: EventMetadata,
  successor?: string,
): Promise<Handled<UserState, UserEvent>> {
  const { pool, store, sessions } = context;
  const userId = user.id;
  const firm = streams.firm(user.firmId);
  if (successor !== undefined && successor !== userId) {
    const command = { firmId: user.firmId, actorId: userId, userId: successor, role: 'admin' as const, firmName: user.firmName };
    await handleCommand(store, firm, firmDecider, { type: 'ChangeMemberRole', ...command }, metadata);
    await pool.query("update users set firm_role = 'admin' where id = $1 and firm_id = $2", [successor, user.firmId]);
    sessions.forgetUser(successor);
  }
  await handleCommand(
    store,
    firm,
    firmDecider,
    { type: 'LeaveFirm', firmId: user.firmId, userId, reason: 'deleted', firmName: user.firmName },
    metadata,
  );
  await revokeTokensOf(context, user.firmId, userId);
  await deleteAgentsOf(context, userId, metadata);
  await new PersonalDataVault(pool).shred(userId);
  const handled = await handleCommand(store, streams.user(userId), userDecider, { type: 'DeleteAccount', userId }, metadata);
  // Answers kept for Idempotency-Key retries may hold the profile (a Save Changes answer): they go too.
  await pool.query('delete from idempotency_keys where user_id = $1', [userId]);
  await new AccountStore(pool).delete(userId);
  sessions.forgetUser(userId);
  return handled;
}
