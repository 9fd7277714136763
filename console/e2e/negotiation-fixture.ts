import { streams, type DomainEvent, type EventMetadata, type LoanTerms, type Participant } from '@pf/events';
import { writeRecordedStreams } from './past-history';

/**
 * A finished negotiation of the signed-in user's own agents, written into the store as it would have been
 * recorded over the last half hour: the agents' offers back and forth (one rejected, three superseded, the last
 * accepted), a takeover by the user in the middle with a message and an offer of their own, and a burst of
 * events inside one second (the timeline's axis must still read). The shared server runs without the automated
 * agents, so this is how a thread with offers and a history with a takeover reach the screens under test.
 */
export interface Negotiation {
  conversationId: number;
  borrower: { agentId: number; name: string };
  lender: { agentId: number; name: string };
  title: string;
  /** The offers in order, with what became of each. */
  offers: { by: 'borrower' | 'lender'; terms: LoanTerms; status: 'accepted' | 'rejected' | 'superseded'; person: boolean }[];
  personSaid: string;
}

/**
 * `chatter`: that many more messages back and forth after the first offer, for a long conversation (the thread and
 * History with a couple of hundred messages).
 */
export async function writeNegotiation(databaseUrl: string, userId: string, base: number, chatter = 0): Promise<Negotiation> {
  const conversationId = base;
  const borrower: Participant = { agentId: base + 1, ownerId: userId, name: 'Amelia Hart', type: 'borrower' };
  const lender: Participant = { agentId: base + 2, ownerId: userId, name: 'Northgate Building Society', type: 'lender' };
  const title = 'Amelia Hart and Northgate: 25-year residential mortgage';
  const terms = (interestRate: number, loanAmount: number, termYears: number, arrangementFee: number): LoanTerms => ({
    interestRate,
    loanAmount,
    termYears,
    arrangementFee,
  });
  const offers: Negotiation['offers'] = [
    { by: 'lender', terms: terms(5.2, 230_000, 25, 1_499), status: 'rejected', person: false },
    { by: 'borrower', terms: terms(4.1, 236_000, 30, 0), status: 'superseded', person: false },
    { by: 'lender', terms: terms(4.9, 234_000, 25, 1_299), status: 'superseded', person: false },
    { by: 'borrower', terms: terms(4.4, 236_000, 25, 999), status: 'superseded', person: true },
    { by: 'lender', terms: terms(4.6, 236_000, 25, 999), status: 'accepted', person: false },
  ];
  const personSaid = 'We can do 4.4% over 25 years on £236,000 with a £999 fee';
  const agentOf = (by: 'borrower' | 'lender') => (by === 'borrower' ? borrower : lender);
  const c = { conversationId };
  const events: (DomainEvent & { by: EventMetadata['actor'] })[] = [];
  const system: EventMetadata['actor'] = { kind: 'system', name: 'matcher' };
  const person: EventMetadata['actor'] = { kind: 'user', userId };
  const agent = (agentId: number): EventMetadata['actor'] => ({ kind: 'agent', agentId });
  let messageId = base * 10;
  const say = (from: Participant, content: string, by: EventMetadata['actor']) =>
    events.push({
      type: 'MessageSent',
      data: {
        ...c,
        messageId: messageId++,
        fromAgentId: from.agentId,
        toAgentId: from === borrower ? lender.agentId : borrower.agentId,
        content,
        isAutomated: by.kind !== 'user',
      },
      by,
    });
  const offer = (i: number) => {
    const o = offers[i]!;
    const from = agentOf(o.by);
    const to = from === borrower ? lender : borrower;
    events.push({
      type: 'OfferMade',
      data: { ...c, offerId: `fixture-${base}-${i}`, round: i, fromAgentId: from.agentId, toAgentId: to.agentId, terms: o.terms },
      by: o.person ? person : agent(from.agentId),
    });
  };

  events.push({ type: 'ConversationStarted', data: { ...c, title, participants: [borrower, lender], matchId: null }, by: system });
  say(lender, 'Good morning. For a £230,000 loan over 25 years we can offer 5.2% with a £1,499 arrangement fee.', agent(lender.agentId));
  offer(0);
  events.push({
    type: 'OfferRejected',
    data: { ...c, offerId: `fixture-${base}-0`, byAgentId: borrower.agentId },
    by: agent(borrower.agentId),
  });
  for (let n = 0; n < chatter; n++) {
    const from = n % 2 === 0 ? borrower : lender;
    say(
      from,
      `Point ${n + 1} of the file: checking the ${n % 3 === 0 ? 'valuation' : n % 3 === 1 ? 'income' : 'deposit'} figures again.`,
      agent(from.agentId),
    );
  }
  say(borrower, 'That is above what I can take on. I would propose 4.1% over 30 years for £236,000, no fee.', agent(borrower.agentId));
  offer(1);
  say(lender, 'We can move to 4.9% over 25 years on £234,000, with the fee down to £1,299.', agent(lender.agentId));
  offer(2);
  events.push({
    type: 'ManualModeChanged',
    data: { ...c, isManualMode: true, ownerId: userId, agentIds: [borrower.agentId], byUserId: userId },
    by: person,
  });
  say(borrower, personSaid, person);
  offer(3);
  events.push({
    type: 'ManualModeChanged',
    data: { ...c, isManualMode: false, ownerId: userId, agentIds: [borrower.agentId], byUserId: userId },
    by: person,
  });
  say(lender, 'Meeting you part way: 4.6% over 25 years on £236,000 with a £999 fee.', agent(lender.agentId));
  offer(4);
  events.push({
    type: 'OfferAccepted',
    data: { ...c, offerId: `fixture-${base}-4`, byAgentId: borrower.agentId, terms: offers[4]!.terms },
    by: agent(borrower.agentId),
  });
  say(borrower, 'Agreed: 4.6% over 25 years on £236,000 with a £999 fee.', agent(borrower.agentId));
  events.push({ type: 'ConversationCompleted', data: { ...c, outcome: 'agreed', reason: 'Terms agreed' }, by: system });

  const byEvent = new Map<DomainEvent, EventMetadata['actor']>();
  const conversation: DomainEvent[] = events.map(({ by, ...event }) => {
    byEvent.set(event, by);
    return event;
  });
  const agentStreams: [string, DomainEvent[]][] = [borrower, lender].map((a) => [
    streams.agent(a.agentId),
    [{ type: 'AgentCreated', data: { ...a, description: 'Written by the browser tests', criteria: null } }],
  ]);
  // Thirty minutes ago (longer for a long one), 90 s apart; the takeover's three events (take, say, offer) fall
  // inside one second.
  const start = Date.now() - Math.max(30 * 60_000, (conversation.length + 2) * 90_000);
  const takeover = 2 + conversation.findIndex((e) => e.type === 'ManualModeChanged');
  const at = (n: number) =>
    new Date(
      start +
        (n < takeover ? n : n > takeover + 2 ? n - 2 : takeover) * 90_000 +
        (n >= takeover && n <= takeover + 2 ? (n - takeover) * 200 : 0),
    );
  await writeRecordedStreams(databaseUrl, [...agentStreams, [streams.conversation(conversationId), conversation]], at, (event) => ({
    actor: byEvent.get(event) ?? { kind: 'user', userId },
    correlationId: `e2e-negotiation-${base}`,
    causationId: null,
  }));
  return { conversationId, borrower, lender, title, offers, personSaid };
}
