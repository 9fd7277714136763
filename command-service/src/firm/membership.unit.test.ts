import { describe, it } from 'vitest';
import { Conflict } from '@pf/infra';
import { deciderSpec } from '../testing/decider-spec';
import { membershipDecider, type MembershipEvent } from './membership';

const spec = deciderSpec(membershipDecider);
const CAROL = 'carol';
const enter = (firmId: string, inviteId = `invite-${firmId}`) => ({
  type: 'EnterFirm' as const,
  userId: CAROL,
  firmId,
  role: 'operator' as const,
  inviteId,
  recordedFirmId: CAROL,
});
const entered = (firmId: string, inviteId = `invite-${firmId}`): MembershipEvent => ({
  type: 'MembershipChanged',
  data: { userId: CAROL, firmId, fromFirmId: CAROL, role: 'operator', inviteId, reason: 'joined' },
});

// docs/decisions/departures.md: a person is in one firm at a time, every move decided on their membership stream.
describe('a person’s membership: one decision at a time', () => {
  it('lets a person in their own firm of one join another, once', () => {
    spec
      .given([])
      .when(enter('harbour'))
      .then([entered('harbour')]);
    // The second of two invitations accepted at once is decided on the first's event, and refused.
    spec
      .given([entered('harbour')])
      .when(enter('northgate'))
      .thenThrows(Conflict, 'already a member of another firm');
    // The same join asked again carries on; the same firm by another link is refused.
    spec
      .given([entered('harbour')])
      .when(enter('harbour'))
      .then([]);
    spec
      .given([entered('harbour')])
      .when(enter('harbour', 'another-link'))
      .thenThrows(Conflict, 'already a member of this firm');
  });

  it('reads the accounts table’s firm for a person whose stream has no events yet', () => {
    spec
      .given([])
      .when({ ...enter('northgate'), recordedFirmId: 'harbour' })
      .thenThrows(Conflict, 'already a member of another firm');
  });

  it('moves a person home when removed from the firm they are in, and touches nothing when they are elsewhere', () => {
    const exit = (firmId: string) => ({ type: 'ExitFirm' as const, userId: CAROL, firmId, recordedFirmId: CAROL });
    spec
      .given([entered('harbour')])
      .when(exit('harbour'))
      .then([
        {
          type: 'MembershipChanged',
          data: { userId: CAROL, firmId: CAROL, fromFirmId: 'harbour', role: 'admin', inviteId: null, reason: 'removed' },
        },
      ]);
    spec
      .given([entered('harbour')])
      .when(exit('northgate'))
      .then([]);
    spec.given([]).when(exit(CAROL)).then([]);
  });

  it('undoes a join its firm refused, once', () => {
    const undo = { type: 'UndoEntry' as const, userId: CAROL, firmId: 'harbour', inviteId: 'invite-harbour' };
    spec
      .given([entered('harbour')])
      .when(undo)
      .then([
        {
          type: 'MembershipChanged',
          data: { userId: CAROL, firmId: CAROL, fromFirmId: 'harbour', role: 'admin', inviteId: null, reason: 'undone' },
        },
      ]);
    spec.given([]).when(undo).then([]);
  });
});
