import { roleRefusal, type EventOf, type FirmCommand, type FirmRole } from '@pf/events';
import { Conflict, Forbidden, Invalid, NotFound } from '@pf/infra';
import type { Decider } from '../handle-command';

export type FirmEvent = EventOf<
  | 'FirmCreated'
  | 'FirmRenamed'
  | 'MemberInvited'
  | 'InvitationRevoked'
  | 'MemberJoined'
  | 'MemberRoleChanged'
  | 'MemberRemoved'
  | 'MemberLeft'
>;

interface Invite {
  role: FirmRole;
  tokenHash: string;
  expiresAt: string;
  used: boolean;
  revoked: boolean;
}

/**
 * A firm's decision state. A firm without events is the firm of one its founder has had since before firms
 * (or since signing in): its id is the founder's user id and the founder is its admin. Its first change records
 * FirmCreated and the founder's MemberJoined first, so its stream tells the whole story.
 */
export interface FirmState {
  created: boolean;
  name: string | null;
  members: Record<string, FirmRole>;
  invites: Record<string, Invite>;
}

const admins = (members: Record<string, FirmRole>) => Object.values(members).filter((role) => role === 'admin').length;

/** The last admin of a firm with anyone else in it may not go, by any route, until they name a successor. */
const LAST_ADMIN = 'A firm needs at least one admin: you are its only one, so make another member admin first';

/** The state as it stands for this firm: a stream with no events is its founder's firm of one. */
function standing(state: FirmState, firmId: string): FirmState {
  return state.created ? state : { ...state, members: { [firmId]: 'admin' } };
}

/** Who is in the firm as its stream stands (a firm without events: its founder). */
export function membersOf(state: FirmState, firmId: string): string[] {
  return Object.keys(standing(state, firmId).members);
}

function founding(state: FirmState, firmId: string, name: string | undefined): FirmEvent[] {
  if (state.created) return [];
  return [
    { type: 'FirmCreated', data: { firmId, name: name ?? 'My firm', founderId: firmId } },
    { type: 'MemberJoined', data: { firmId, userId: firmId, role: 'admin', inviteId: null } },
  ];
}

function adminOf(state: FirmState, actorId: string): void {
  const role = state.members[actorId];
  if (!role) throw new NotFound('You are not a member of this firm');
  if (role !== 'admin') throw new Forbidden(roleRefusal(role, 'manage members'));
}

function decide(command: FirmCommand, given: FirmState): FirmEvent[] {
  const { firmId } = command;
  const state = standing(given, firmId);
  switch (command.type) {
    case 'RenameFirm': {
      adminOf(state, command.actorId);
      if (state.created && state.name === command.name) return [];
      return [...founding(state, firmId, command.name), { type: 'FirmRenamed', data: { firmId, name: command.name } }];
    }
    case 'InviteMember': {
      adminOf(state, command.actorId);
      const { inviteId, role, tokenHash, expiresAt } = command;
      return [
        ...founding(state, firmId, command.firmName),
        { type: 'MemberInvited', data: { firmId, inviteId, role, tokenHash, expiresAt, invitedBy: command.actorId } },
      ];
    }
    case 'JoinFirm': {
      const invite = state.invites[command.inviteId];
      if (!invite || invite.tokenHash !== command.tokenHash) throw new NotFound('This invitation link is not valid');
      if (invite.used) throw new Conflict('This invitation link has already been used; ask for a new one');
      if (invite.revoked) throw new Conflict('This invitation has been withdrawn by the firm; ask for a new one');
      if (invite.expiresAt <= command.now) throw new Invalid('This invitation link has expired; ask for a new one');
      if (state.members[command.userId]) throw new Conflict('You are already a member of this firm');
      // Everyone left (its only member joined another firm or deleted their account): nobody could manage a newcomer.
      if (Object.keys(state.members).length === 0) throw new Conflict('This firm has no members any more: the invitation no longer works');
      return [{ type: 'MemberJoined', data: { firmId, userId: command.userId, role: invite.role, inviteId: command.inviteId } }];
    }
    case 'ChangeMemberRole': {
      adminOf(state, command.actorId);
      const from = state.members[command.userId];
      if (!from) throw new NotFound('No such member of this firm');
      if (from === command.role) return [];
      if (from === 'admin' && admins(state.members) === 1)
        throw new Conflict(
          command.userId === command.actorId ? LAST_ADMIN : 'A firm needs at least one admin: make another member admin first',
        );
      return [
        ...founding(state, firmId, command.firmName),
        { type: 'MemberRoleChanged', data: { firmId, userId: command.userId, role: command.role, from } },
      ];
    }
    case 'RemoveMember': {
      adminOf(state, command.actorId);
      if (!state.members[command.userId]) throw new NotFound('No such member of this firm');
      if (command.userId === firmId) throw new Conflict("The firm's founder cannot be removed: the firm is theirs");
      if (state.members[command.userId] === 'admin' && admins(state.members) === 1) throw new Conflict('A firm needs at least one admin');
      return [
        ...founding(state, firmId, command.firmName),
        { type: 'MemberRemoved', data: { firmId, userId: command.userId, byUserId: command.actorId } },
      ];
    }
    case 'LeaveFirm': {
      const role = state.members[command.userId];
      // Already gone (a step of a join or a deletion run again): nothing more to record.
      if (!role) return [];
      const others = Object.keys(state.members).filter((id) => id !== command.userId);
      if (command.reason === 'joined' && others.length > 0)
        throw new Conflict('You belong to a firm with other members: ask its admin to remove you first');
      if (role === 'admin' && admins(state.members) === 1 && others.length > 0)
        throw new Conflict(command.reason === 'deleted' ? `${LAST_ADMIN}, or name them as your successor` : LAST_ADMIN);
      return [
        ...founding(state, firmId, command.firmName),
        { type: 'MemberLeft', data: { firmId, userId: command.userId, reason: command.reason } },
      ];
    }
    case 'RevokeInvite': {
      adminOf(state, command.actorId);
      const invite = state.invites[command.inviteId];
      if (!invite) throw new NotFound('No such invitation of this firm');
      if (invite.used) throw new Conflict('This invitation has been used already: remove the member instead');
      if (invite.revoked) return [];
      return [{ type: 'InvitationRevoked', data: { firmId, inviteId: command.inviteId, byUserId: command.actorId } }];
    }
    case 'ReturnHome': {
      if (command.userId !== firmId) throw new Invalid("Only a firm's founder comes back to it without an invitation");
      if (state.members[command.userId]) return [];
      return [{ type: 'MemberJoined', data: { firmId, userId: command.userId, role: 'admin', inviteId: null } }];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: FirmState, event: FirmEvent): FirmState {
  switch (event.type) {
    case 'FirmCreated':
      return { ...state, created: true, name: event.data.name };
    case 'FirmRenamed':
      return { ...state, name: event.data.name };
    case 'MemberInvited': {
      const { inviteId, role, tokenHash, expiresAt } = event.data;
      return { ...state, invites: { ...state.invites, [inviteId]: { role, tokenHash, expiresAt, used: false, revoked: false } } };
    }
    case 'InvitationRevoked': {
      const invite = state.invites[event.data.inviteId];
      return invite ? { ...state, invites: { ...state.invites, [event.data.inviteId]: { ...invite, revoked: true } } } : state;
    }
    case 'MemberJoined': {
      const { inviteId } = event.data;
      const invite = inviteId ? state.invites[inviteId] : undefined;
      return {
        ...state,
        members: { ...state.members, [event.data.userId]: event.data.role },
        invites: invite && inviteId ? { ...state.invites, [inviteId]: { ...invite, used: true } } : state.invites,
      };
    }
    case 'MemberRoleChanged':
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case 'MemberRemoved':
    case 'MemberLeft': {
      const { [event.data.userId]: _removed, ...members } = state.members;
      return { ...state, members };
    }
    default:
      return state;
  }
}

export const firmDecider: Decider<FirmCommand, FirmState, FirmEvent> = {
  initialState: { created: false, name: null, members: {}, invites: {} },
  decide,
  evolve,
};
