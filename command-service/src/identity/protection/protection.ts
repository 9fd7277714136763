import type { EventOf, ProtectionCommand } from '@pf/events';
import { Conflict, NotFound } from '@pf/infra';
import type { Decider } from '../../handle-command';

export type ProtectionEvent = EventOf<'PasswordChanged' | 'TwoFactorEnabled' | 'TwoFactorDisabled' | 'RecoveryCodeUsed' | 'AccountDeleted'>;

export interface ProtectionState {
  deleted: boolean;
  password: boolean;
  twoFactor: boolean;
}

/**
 * A person's sign-in protection as events on their user-{id} stream, beside their settings (user.ts). The
 * secrets themselves are checked and kept by the routes (docs/decisions/sign-in-secrets.md); this decides what
 * may follow what: a second factor needs a password, and is turned on or off once.
 */
function decide(command: ProtectionCommand, state: ProtectionState): ProtectionEvent[] {
  if (state.deleted) throw new NotFound('This account has been deleted');
  const { userId } = command;
  switch (command.type) {
    case 'ChangePassword':
      return [{ type: 'PasswordChanged', data: { userId, first: !state.password } }];
    case 'EnableTwoFactor':
      if (!state.password) throw new Conflict('Set a password first: two-factor authentication adds to it');
      if (state.twoFactor) throw new Conflict('Two-factor authentication is already on');
      return [{ type: 'TwoFactorEnabled', data: { userId, recoveryCodes: command.recoveryCodes } }];
    case 'DisableTwoFactor':
      if (!state.twoFactor) throw new Conflict('Two-factor authentication is already off');
      return [{ type: 'TwoFactorDisabled', data: { userId, confirmedWith: command.confirmedWith } }];
    case 'UseRecoveryCode':
      return [{ type: 'RecoveryCodeUsed', data: { userId, remaining: command.remaining } }];
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: ProtectionState, event: ProtectionEvent): ProtectionState {
  switch (event.type) {
    case 'PasswordChanged':
      return { ...state, password: true };
    case 'TwoFactorEnabled':
      return { ...state, twoFactor: true };
    case 'TwoFactorDisabled':
      return { ...state, twoFactor: false };
    case 'AccountDeleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export const protectionDecider: Decider<ProtectionCommand, ProtectionState, ProtectionEvent> = {
  initialState: { deleted: false, password: false, twoFactor: false },
  decide,
  evolve,
};
