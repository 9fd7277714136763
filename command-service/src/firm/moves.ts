import { streams, type EventMetadata, type FirmRole, type Position } from '@pf/events';
import { Conflict, FirmStore, type ServiceContext, type SessionUser } from '@pf/infra';
import { foldEvents, handleCommand } from '../handle-command';
import { revokeTokensOf, standDownFirm } from './departures';
import { firmDecider, membersOf } from './firm';
import { membershipDecider, membershipRule } from './membership';

type Context = Pick<ServiceContext, 'pool' | 'store' | 'sessions'>;

/** The firm as its stream stands now, without deciding anything. */
async function firmNow({ store }: Context, firmId: string) {
  return foldEvents(firmDecider, await store.readStream(streams.firm(firmId)));
}

/**
 * Accepting an invitation (docs/decisions/departures.md "Joining"), as steps that are each safe to run again:
 * 1. the invitation is checked against the firm as it stands (nothing is recorded for a link that does not work);
 * 2. the person's own membership stream records the move, appended at the version it was decided on: of two
 *    invitations accepted at once, only one stands, and the other is decided again and refused;
 * 3. the firm they leave records MemberLeft (only a firm nobody else is in; its agents are paused and its
 *    tokens revoked first, since nobody is left to manage them);
 * 4. the new firm records MemberJoined (the invitation used).
 * A refusal at 3 or 4 (a race with another change to those firms) undoes what 2 and 3 recorded, so no person is
 * ever in two firms' histories at once. Then the accounts table follows and their sessions read it afresh.
 */
export async function joinFirm(
  context: Context,
  user: SessionUser,
  invite: { id: string; firmId: string; tokenHash: string },
  metadata: EventMetadata,
): Promise<{ role: FirmRole; position: Position | null }> {
  const { store, pool, sessions } = context;
  const join = {
    type: 'JoinFirm' as const,
    firmId: invite.firmId,
    userId: user.id,
    inviteId: invite.id,
    tokenHash: invite.tokenHash,
    now: new Date().toISOString(),
  };
  const decided = firmDecider.decide(join, await firmNow(context, invite.firmId)).find((event) => event.type === 'MemberJoined');
  const role = decided?.type === 'MemberJoined' ? decided.data.role : 'operator';

  if (!membershipRule.enforced) {
    // The broken rule the simulation must catch: the firm's own decision alone, as before the person's stream.
    const joined = await handleCommand(store, streams.firm(invite.firmId), firmDecider, join, metadata);
    await new FirmStore(pool).join(user.id, invite.firmId, role, invite.id);
    sessions.forgetUser(user.id);
    return { role, position: joined.position };
  }
  const entered = await handleCommand(
    store,
    streams.membership(user.id),
    membershipDecider,
    { type: 'EnterFirm', userId: user.id, firmId: invite.firmId, role, inviteId: invite.id, recordedFirmId: user.firmId },
    metadata,
  );
  const fromFirmId = entered.state.fromFirmId ?? user.firmId;
  const undoEntry = () =>
    handleCommand(
      store,
      streams.membership(user.id),
      membershipDecider,
      { type: 'UndoEntry', userId: user.id, firmId: invite.firmId, inviteId: invite.id },
      metadata,
    );

  try {
    const others = membersOf(await firmNow(context, fromFirmId), fromFirmId).filter((id) => id !== user.id);
    if (others.length > 0) throw new Conflict('You belong to a firm with other members: ask its admin to remove you first');
    await standDownFirm(context, fromFirmId, user.id, metadata);
    await handleCommand(
      store,
      streams.firm(fromFirmId),
      firmDecider,
      { type: 'LeaveFirm', firmId: fromFirmId, userId: user.id, reason: 'joined', firmName: user.firmName },
      metadata,
    );
  } catch (error) {
    await undoEntry();
    throw error;
  }

  let position: Position | null;
  try {
    position = (await handleCommand(store, streams.firm(invite.firmId), firmDecider, join, metadata)).position;
  } catch (error) {
    await handleCommand(
      store,
      streams.firm(fromFirmId),
      firmDecider,
      { type: 'ReturnHome', firmId: fromFirmId, userId: user.id },
      metadata,
    );
    await undoEntry();
    throw error;
  }
  await new FirmStore(pool).join(user.id, invite.firmId, role, invite.id);
  sessions.forgetUser(user.id);
  return { role, position };
}

/**
 * An admin removes a member (docs/decisions/departures.md "Removal"): the firm records MemberRemoved (its rules:
 * never the founder, never the last admin). Only if the person's own membership stream says they are in this
 * firm do they go back to their firm of one and their sessions end; someone who is no longer here keeps
 * everything of where they are. The API tokens they created for this firm are revoked; its agents stay its own.
 */
export async function removeMember(
  context: Context,
  actor: SessionUser,
  userId: string,
  metadata: EventMetadata,
): Promise<Position | null> {
  const { store, pool, sessions } = context;
  const firmId = actor.firmId;
  const removed = await handleCommand(
    store,
    streams.firm(firmId),
    firmDecider,
    { type: 'RemoveMember', firmId, actorId: actor.id, userId, firmName: actor.firmName },
    metadata,
  );
  const firms = new FirmStore(pool);
  const recordedFirmId = (await firms.firmOfUser(userId)) ?? userId;
  const exited = await handleCommand(
    store,
    streams.membership(userId),
    membershipDecider,
    { type: 'ExitFirm', userId, firmId, recordedFirmId },
    metadata,
  );
  await revokeTokensOf(context, firmId, userId);
  if (exited.events.length === 0) return removed.position;
  const home = await handleCommand(store, streams.firm(userId), firmDecider, { type: 'ReturnHome', firmId: userId, userId }, metadata);
  await firms.sendHome(userId, firmId);
  await sessions.revokeAllOf(userId);
  return home.position ?? exited.position;
}
