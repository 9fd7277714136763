import type { FirmRole } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { Violation } from './invariants';

/** Events by which an agent acts on its own: an automated move in a conversation. */
const MOVES = new Set(['OfferMade', 'OfferAccepted', 'OfferRejected', 'MessageSent', 'DealAgreed']);

/**
 * Who is in which firm, folded from the firms' own streams as the store holds them (docs/decisions/departures.md),
 * and the membership invariants (docs/simulation.md): a person is in one firm at a time; a firm with anyone in it
 * has an admin; no agent makes a move while its firm has nobody able to manage it (an admin or an operator). A firm
 * whose stream has no events is its founder's firm of one (its id is theirs), the founder its admin.
 */
export class MembershipWorld {
  private readonly firms = new Map<string, Map<string, FirmRole>>();
  private readonly agentFirm = new Map<number, string>();
  private readonly deleted = new Set<string>();
  private pending: Violation[] = [];

  private membersOf(firmId: string): ReadonlyMap<string, FirmRole> {
    const recorded = this.firms.get(firmId);
    if (recorded) return recorded;
    return this.deleted.has(firmId) ? new Map() : new Map([[firmId, 'admin']]);
  }

  /** The firms a person is in: those whose streams name them, and their own firm of one while it has no events. */
  firmsOf(userId: string): string[] {
    const named = [...this.firms].filter(([, members]) => members.has(userId)).map(([firmId]) => firmId);
    return this.firms.has(userId) || this.deleted.has(userId) ? named : [userId, ...named];
  }

  roleIn(firmId: string, userId: string): FirmRole | undefined {
    return this.membersOf(firmId).get(userId);
  }

  memberIds(firmId: string): string[] {
    return [...this.membersOf(firmId).keys()];
  }

  observe(event: RecordedEvent): void {
    const firm = (firmId: string) => {
      let members = this.firms.get(firmId);
      if (!members) this.firms.set(firmId, (members = new Map<string, FirmRole>()));
      return members;
    };
    switch (event.type) {
      case 'FirmCreated':
        firm(event.data.firmId);
        return;
      case 'MemberJoined': {
        const { firmId, userId, role } = event.data;
        const elsewhere = this.firmsOf(userId).filter((id) => id !== firmId);
        if (elsewhere.length > 0)
          this.violate('one firm per person', `${userId} joined firm ${firmId} while a member of ${elsewhere.join(', ')}`);
        firm(firmId).set(userId, role);
        return;
      }
      case 'MemberRoleChanged':
        firm(event.data.firmId).set(event.data.userId, event.data.role);
        return;
      case 'MemberRemoved':
      case 'MemberLeft':
        firm(event.data.firmId).delete(event.data.userId);
        return;
      case 'AccountDeleted':
        this.deleted.add(event.data.userId);
        for (const members of this.firms.values()) members.delete(event.data.userId);
        return;
      case 'AgentCreated':
        this.agentFirm.set(event.data.agentId, event.data.firmId ?? event.data.ownerId);
        return;
      default:
        break;
    }
    const actor = event.metadata.actor;
    if (actor.kind === 'agent' && MOVES.has(event.type)) {
      const firmId = this.agentFirm.get(actor.agentId);
      const managers = firmId ? [...this.membersOf(firmId).values()].filter((role) => role !== 'auditor') : [];
      if (firmId && managers.length === 0)
        this.violate(
          'no agent without a manager acting',
          `agent ${actor.agentId} recorded ${event.type} in ${event.stream} while its firm ${firmId} had nobody to manage it`,
        );
    }
  }

  /** The violations found since the last call, and any firm left with members but no admin. */
  takeViolations(): Violation[] {
    for (const [firmId, members] of this.firms) {
      if (members.size > 0 && ![...members.values()].includes('admin'))
        this.violate('no firm without an admin', `firm ${firmId} has ${members.size} member(s) and no admin`);
    }
    const found = this.pending;
    this.pending = [];
    return found;
  }

  violate(invariant: string, detail: string): void {
    if (!this.pending.some((v) => v.invariant === invariant && v.detail === detail)) this.pending.push({ invariant, detail });
  }
}
