import type { FirmRole } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { Violation } from './invariants';

/** Events by which an agent acts on its own: an automated move in a conversation. */
const MOVES = new Set(['OfferMade', 'OfferAccepted', 'OfferRejected', 'MessageSent', 'DealAgreed']);

interface Data {
  firmId?: string;
  userId?: string;
  role?: FirmRole;
  agentId?: number;
  ownerId?: string;
}

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

  observe(recorded: RecordedEvent): void {
    const data = recorded.data as Data;
    const firm = (firmId: string) => {
      let members = this.firms.get(firmId);
      if (!members) this.firms.set(firmId, (members = new Map<string, FirmRole>()));
      return members;
    };
    switch (recorded.type) {
      case 'FirmCreated':
        firm(data.firmId!);
        return;
      case 'MemberJoined': {
        const elsewhere = this.firmsOf(data.userId!).filter((id) => id !== data.firmId);
        if (elsewhere.length > 0)
          this.violate('one firm per person', `${data.userId} joined firm ${data.firmId} while a member of ${elsewhere.join(', ')}`);
        firm(data.firmId!).set(data.userId!, data.role!);
        return;
      }
      case 'MemberRoleChanged':
        firm(data.firmId!).set(data.userId!, data.role!);
        return;
      case 'MemberRemoved':
      case 'MemberLeft':
        firm(data.firmId!).delete(data.userId!);
        return;
      case 'AccountDeleted':
        this.deleted.add(data.userId!);
        for (const members of this.firms.values()) members.delete(data.userId!);
        return;
      case 'AgentCreated':
        this.agentFirm.set(data.agentId!, data.firmId ?? data.ownerId!);
        return;
      default:
        break;
    }
    const actor = recorded.metadata.actor;
    if (actor.kind === 'agent' && MOVES.has(recorded.type)) {
      const firmId = this.agentFirm.get(actor.agentId);
      const managers = firmId ? [...this.membersOf(firmId).values()].filter((role) => role !== 'auditor') : [];
      if (firmId && managers.length === 0)
        this.violate(
          'no agent without a manager acting',
          `agent ${actor.agentId} recorded ${recorded.type} in ${recorded.stream} while its firm ${firmId} had nobody to manage it`,
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
