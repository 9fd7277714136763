import type { EventOf, FirmRole, MembershipCommand } from '@pf/events';
import { Conflict } from '@pf/infra';
import type { Decider } from '../handle-command';

export type MembershipEvent = EventOf<'MembershipChanged'>;

/**
 * Which firm a person is in, as their own stream (membership-{userId}) records it: every join and removal is
 * decided here first and appended with the version it was decided on, so two invitations accepted at the same
 * moment cannot both stand (docs/decisions/departures.md). `firmId` null: no event yet, the accounts table's
 * firm stands (the command carries it).
 */
export interface MembershipState {
  firmId: string | null;
  role: FirmRole | null;
  /** The invitation of the join that brought them in, and the firm they came from (a retried join carries on). */
  inviteId: string | null;
  fromFirmId: string | null;
}

/**
 * The simulation's broken-rule test turns this off to show that the simulation catches a person let into a second
 * firm (docs/simulation.md): joins are then decided by the firm alone (moves.ts); nothing else touches it.
 */
export const membershipRule = { enforced: true };

const ANOTHER_FIRM = 'You are already a member of another firm: ask its admin to remove you before you join a new one';

function decide(command: MembershipCommand, state: MembershipState): MembershipEvent[] {
  const { userId } = command;
  switch (command.type) {
    case 'EnterFirm': {
      const current = state.firmId ?? command.recordedFirmId;
      // The same join asked again (a retry after a failure part-way): it carries on from where it stopped.
      if (current === command.firmId && state.inviteId === command.inviteId) return [];
      if (current === command.firmId) throw new Conflict('You are already a member of this firm');
      // Only from one's own firm of one: a person in someone else's firm leaves it by being removed.
      if (current !== userId) throw new Conflict(ANOTHER_FIRM);
      const { firmId, role, inviteId } = command;
      return [{ type: 'MembershipChanged', data: { userId, firmId, fromFirmId: current, role, inviteId, reason: 'joined' } }];
    }
    case 'ExitFirm': {
      const current = state.firmId ?? command.recordedFirmId;
      // Not (or no longer) in that firm: a removal there touches nothing of where they really are.
      if (current !== command.firmId || current === userId) return [];
      return [
        {
          type: 'MembershipChanged',
          data: { userId, firmId: userId, fromFirmId: current, role: 'admin', inviteId: null, reason: 'removed' },
        },
      ];
    }
    case 'UndoEntry': {
      if (state.firmId !== command.firmId || state.inviteId !== command.inviteId || state.fromFirmId === null) return [];
      return [
        {
          type: 'MembershipChanged',
          data: { userId, firmId: state.fromFirmId, fromFirmId: command.firmId, role: 'admin', inviteId: null, reason: 'undone' },
        },
      ];
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: MembershipState, event: MembershipEvent): MembershipState {
  const { firmId, role, inviteId, fromFirmId } = event.data;
  return { firmId, role, inviteId, fromFirmId };
}

export const membershipDecider: Decider<MembershipCommand, MembershipState, MembershipEvent> = {
  initialState: { firmId: null, role: null, inviteId: null, fromFirmId: null },
  decide,
  evolve,
};
