import { firmOf, type FirmRole } from './firm';

/**
 * Who may see what: the one rule (docs/decisions/firms-and-visibility.md), used by the read models (which
 * store each row's firms with these functions, so their queries only match a firm id), the gateway (what it
 * pushes and to whom) and the command side (what a person may act on). Everything belongs to firms, never
 * to one person: a firm sees its own agents, every conversation one of its agents takes part in, every deal
 * one of its agents is party to and that deal's documents; nothing else of another firm.
 */

/** The person a session is: who, in which firm, with which role. */
export interface Viewer {
  userId: string;
  firmId: string;
  role: FirmRole;
}

/**
 * A viewer, or a user id standing for a person in their firm of one (the firm every account had before firms,
 * whose id is the user's): what callers that predate firms, and tests of one person per firm, pass.
 */
export type ViewerOrUser = string | Pick<Viewer, 'userId' | 'firmId'>;
export function asViewer(viewer: ViewerOrUser): Pick<Viewer, 'userId' | 'firmId'> {
  return typeof viewer === 'string' ? { userId: viewer, firmId: viewer } : viewer;
}

type Party = { ownerId: string; firmId?: string | undefined | null };

/** The firms of a set of parties (a conversation's participants, a deal's parties), once each, in order. */
export function firmsOf(parties: readonly (Party | null | undefined)[]): string[] {
  return [...new Set(parties.flatMap((party) => (party ? [firmOf(party)] : [])))];
}

/** The firms that may see a conversation: those of its agents. */
export function conversationFirms(conversation: { participants: readonly Party[] } | null | undefined): string[] {
  return conversation ? firmsOf(conversation.participants) : [];
}

export function canSeeConversation(conversation: { participants: readonly Party[] } | null | undefined, firmId: string): boolean {
  return conversation?.participants.some((participant) => firmOf(participant) === firmId) ?? false;
}

/** An agent is seen, and acted on, by its firm only (another firm meets it only inside a shared conversation). */
export function canSeeAgent(agent: Party | null | undefined, firmId: string): boolean {
  return agent !== null && agent !== undefined && firmOf(agent) === firmId;
}

/** The firms that may see a deal and the documents filed under it: those of its parties as it opened. */
export function dealFirmsOf(parties: { borrower: Party; lender: Party; broker?: Party | null }): string[] {
  return firmsOf([parties.borrower, parties.lender, parties.broker]);
}

/** Whether a participant is on the viewer's firm's side ("yours" in titles and lists). */
export function isOwnSide(participant: Party, firmId: string): boolean {
  return firmOf(participant) === firmId;
}

/**
 * The sandbox of demo data (the matcher's rule): a demo agent meets only demo agents of its own firm, and a
 * real agent only real agents. Agents of different firms otherwise meet: that is the market.
 */
export function mayMeet(a: Party & { isDemo?: boolean | undefined }, b: Party & { isDemo?: boolean | undefined }): boolean {
  if (!a.isDemo && !b.isDemo) return true;
  return Boolean(a.isDemo && b.isDemo) && firmOf(a) === firmOf(b);
}

/** The sandbox rule as people read it: beside the Demo badge, and in Match's answer when it is the reason. */
export const DEMO_SANDBOX_RULE = 'Demo agents meet only your firm’s other demo agents, never a real agent';
