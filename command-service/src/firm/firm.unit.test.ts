import { describe, expect, it } from 'vitest';
import { Conflict, Forbidden, Invalid, NotFound } from '@pf/infra';
import { deciderSpec } from '../testing/decider-spec';
import { firmDecider, type FirmEvent } from './firm';

const spec = deciderSpec(firmDecider);
const FIRM = 'ada';
const created: FirmEvent[] = [
  { type: 'FirmCreated', data: { firmId: FIRM, name: 'Ada & Co', founderId: FIRM } },
  { type: 'MemberJoined', data: { firmId: FIRM, userId: FIRM, role: 'admin', inviteId: null } },
];
const invited = (role: 'operator' | 'auditor' = 'operator'): FirmEvent => ({
  type: 'MemberInvited',
  data: { firmId: FIRM, inviteId: 'i1', role, tokenHash: 'h1', expiresAt: '2030-01-01T00:00:00.000Z', invitedBy: FIRM },
});
const joined = (userId = 'carol', role: 'operator' | 'auditor' = 'operator'): FirmEvent => ({
  type: 'MemberJoined',
  data: { firmId: FIRM, userId, role, inviteId: 'i1' },
});
const join = (now = '2029-01-01T00:00:00.000Z', tokenHash = 'h1') => ({
  type: 'JoinFirm' as const,
  firmId: FIRM,
  userId: 'carol',
  inviteId: 'i1',
  tokenHash,
  now,
});

// docs/decisions/departures.md and firms-and-visibility.md: the firm's own rules (the last admin, invitations, removal).
describe('the firm decider', () => {
  it('founds a firm of one from before firms at its first change, its founder as admin', () => {
    spec
      .given([])
      .when({
        type: 'InviteMember',
        firmId: FIRM,
        actorId: FIRM,
        inviteId: 'i1',
        role: 'operator',
        tokenHash: 'h1',
        expiresAt: '2030-01-01T00:00:00.000Z',
        firmName: 'Ada & Co',
      })
      .then([...created, invited()]);
  });

  it('lets an invitation be used once, before it expires, with the secret it was issued with', () => {
    spec
      .given([...created, invited('auditor')])
      .when(join())
      .then([joined('carol', 'auditor')]);
    spec
      .given([...created, invited(), joined()])
      .when(join())
      .thenThrows(Conflict, 'already been used');
    spec
      .given([...created, invited()])
      .when(join('2031-01-01T00:00:00.000Z'))
      .thenThrows(Invalid, 'expired');
    spec
      .given([...created, invited()])
      .when(join(undefined, 'other'))
      .thenThrows(NotFound, 'not valid');
  });

  it('lets an admin revoke an invitation not yet used, once, after which its link is refused', () => {
    const revoke = (actorId = FIRM) => ({ type: 'RevokeInvite' as const, firmId: FIRM, actorId, inviteId: 'i1' });
    const revoked: FirmEvent = { type: 'InvitationRevoked', data: { firmId: FIRM, inviteId: 'i1', byUserId: FIRM } };
    spec
      .given([...created, invited()])
      .when(revoke())
      .then([revoked]);
    spec
      .given([...created, invited(), revoked])
      .when(revoke())
      .then([]);
    spec
      .given([...created, invited(), revoked])
      .when(join())
      .thenThrows(Conflict, 'withdrawn by the firm');
    spec
      .given([...created, invited(), joined()])
      .when(revoke())
      .thenThrows(Conflict, 'used already');
    spec
      .given([...created, invited(), joined()])
      .when(revoke('carol'))
      .thenThrows(Forbidden, 'Your role is Operator');
    spec.given(created).when(revoke()).thenThrows(NotFound, 'No such invitation');
  });

  it('lets only an admin invite, change roles and remove, and refuses naming the role', () => {
    spec
      .given([...created, invited(), joined('carol', 'operator')])
      .when({ type: 'RemoveMember', firmId: FIRM, actorId: 'carol', userId: FIRM })
      .thenThrows(Forbidden, 'Your role is Operator');
    spec
      .given([...created, invited(), joined()])
      .when({ type: 'ChangeMemberRole', firmId: FIRM, actorId: FIRM, userId: 'carol', role: 'auditor' })
      .then([{ type: 'MemberRoleChanged', data: { firmId: FIRM, userId: 'carol', role: 'auditor', from: 'operator' } }]);
    spec
      .given([...created, invited(), joined()])
      .when({ type: 'RemoveMember', firmId: FIRM, actorId: FIRM, userId: 'carol' })
      .then([{ type: 'MemberRemoved', data: { firmId: FIRM, userId: 'carol', byUserId: FIRM } }]);
  });

  it('keeps an admin, and the founder, in the firm', () => {
    spec
      .given(created)
      .when({ type: 'ChangeMemberRole', firmId: FIRM, actorId: FIRM, userId: FIRM, role: 'operator' })
      .thenThrows(Conflict, 'at least one admin');
    const state = [...created, invited(), joined()].reduce((state, event) => firmDecider.evolve(state, event), firmDecider.initialState);
    const promoted = firmDecider.evolve(state, {
      type: 'MemberRoleChanged',
      data: { firmId: FIRM, userId: 'carol', role: 'admin', from: 'operator' },
    });
    expect(() => firmDecider.decide({ type: 'RemoveMember', firmId: FIRM, actorId: 'carol', userId: FIRM }, promoted)).toThrow(
      'founder cannot be removed',
    );
  });

  it('lets the last admin leave by no route while anyone else is in the firm, and lets a member go', () => {
    const withCarol = [...created, invited(), joined()];
    const leave = (userId: string, reason: 'joined' | 'deleted') => ({ type: 'LeaveFirm' as const, firmId: FIRM, userId, reason });
    spec.given(withCarol).when(leave(FIRM, 'deleted')).thenThrows(Conflict, 'or name them as your successor');
    spec.given(withCarol).when(leave(FIRM, 'joined')).thenThrows(Conflict, 'ask its admin to remove you first');
    spec
      .given(withCarol)
      .when({ type: 'ChangeMemberRole', firmId: FIRM, actorId: FIRM, userId: FIRM, role: 'operator' })
      .thenThrows(Conflict, 'you are its only one');
    spec
      .given(withCarol)
      .when(leave('carol', 'deleted'))
      .then([{ type: 'MemberLeft', data: { firmId: FIRM, userId: 'carol', reason: 'deleted' } }]);
    // Alone, the founder may go: the firm of one records its founding first, so its stream tells the whole story.
    spec
      .given([])
      .when({ ...leave(FIRM, 'joined'), firmName: 'Ada & Co' })
      .then([...created, { type: 'MemberLeft', data: { firmId: FIRM, userId: FIRM, reason: 'joined' } }]);
    // Already gone: a step run again records nothing.
    spec
      .given([...created, { type: 'MemberLeft', data: { firmId: FIRM, userId: FIRM, reason: 'joined' } }])
      .when(leave(FIRM, 'joined'))
      .then([]);
  });

  it('takes nobody into a firm everyone has left, and brings its founder home as its admin', () => {
    const empty = [...created, invited(), { type: 'MemberLeft', data: { firmId: FIRM, userId: FIRM, reason: 'joined' } } as FirmEvent];
    spec.given(empty).when(join()).thenThrows(Conflict, 'no members any more');
    spec
      .given(empty)
      .when({ type: 'ReturnHome', firmId: FIRM, userId: FIRM })
      .then([{ type: 'MemberJoined', data: { firmId: FIRM, userId: FIRM, role: 'admin', inviteId: null } }]);
    spec.given(created).when({ type: 'ReturnHome', firmId: FIRM, userId: FIRM }).then([]);
    spec.given(created).when({ type: 'ReturnHome', firmId: FIRM, userId: 'carol' }).thenThrows(Invalid, 'founder');
  });
});
