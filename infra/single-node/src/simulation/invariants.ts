import {
  agentsSwitched,
  DEFAULT_BANK_RATE_PERCENT,
  evolveAgent,
  describeOffer,
  productRangeOf,
  type Agent,
  type DomainEvent,
  type EventOf,
  type LoanTerms,
  type Participant,
} from '@pf/events';
import { bestLine, DEFAULT_LENDING_RULES, negotiatedNeeds, outsideLimits } from '@pf/command-service';
import type { RecordedEvent } from '@pf/infra';

/**
 * What the simulation knows of the world, folded from every stored event in order, and the invariants checked
 * on it after each step (docs/simulation.md). Nothing here is taken from the product's own state: it reads the
 * event store and applies the rules as a broker would state them.
 */
export interface SimConversation {
  id: number;
  participants: Participant[];
  status: 'active' | 'completed';
  /** The sides held by hand (a side is one participant): the agent → the person holding it. */
  manual: Map<number, string>;
  /** Offers made so far: who made the last one decides whose move is due. */
  lastOfferFrom: number | null;
  stalledSinceLastMove: boolean;
  /** The agents' criteria when it started: the limits the agreement must respect. */
  criteria: Map<number, Agent['criteria']>;
  /** The borrower's needs and the lender's range as recorded when it started (null: none; the criteria are read). */
  profiles: Map<number, Pick<Agent, 'needs' | 'products'>>;
  events: DomainEvent[];
}

export interface Violation {
  invariant: string;
  detail: string;
}

/** An operator's offer the simulation typed or submitted, and what it must have become. */
export type OperatorOfferCheck =
  | {
      kind: 'text';
      conversationId: number;
      messageId: number;
      agentId: number;
      expect: { offer: Partial<LoanTerms> } | 'chat' | 'unclear';
      text: string;
    }
  | { kind: 'form'; conversationId: number; offerId: string; terms: LoanTerms };

export class World {
  readonly agents = new Map<number, Agent>();
  readonly conversations = new Map<number, SimConversation>();
  /** Per borrower: the deal its need is committed to, if any. */
  readonly needs = new Map<number, { dealId: string; conversationId: number | null } | null>();
  /** Deals agreed (their ids), and each deal's borrower, for cancelling. */
  readonly deals = new Map<string, { borrowerAgentId: number; cancelled: boolean; opened: boolean }>();
  readonly tally = {
    events: 0,
    commitments: 0,
    reopenings: 0,
    dealsAgreed: 0,
    operatorOffersRecorded: 0,
    operatorOffersRefused: 0,
    readAsChat: 0,
    unclear: 0,
    handBacks: 0,
    stalls: 0,
  };
  private pending: Violation[] = [];

  observe(event: RecordedEvent): void {
    this.tally.events += 1;
    const at = event.recordedAt.toISOString();
    if (event.type.startsWith('Agent') && 'agentId' in event.data && typeof event.data.agentId === 'number') {
      const id = event.data.agentId;
      const next = evolveAgent(this.agents.get(id) ?? null, event, at);
      if (next) this.agents.set(id, next);
    }
    switch (event.type) {
      case 'NeedCommitted': {
        const { borrowerAgentId, dealId, agreedInConversationId } = event.data;
        const held = this.needs.get(borrowerAgentId);
        if (held)
          this.violate(
            'one commitment per need',
            `borrower ${borrowerAgentId}'s need was committed to deal ${dealId} while already committed to deal ${held.dealId}`,
          );
        this.needs.set(borrowerAgentId, { dealId, conversationId: agreedInConversationId });
        this.tally.commitments += 1;
        return;
      }
      case 'NeedReopened':
        this.needs.set(event.data.borrowerAgentId, null);
        this.tally.reopenings += 1;
        return;
      case 'DealAgreed':
        this.agreed(event.data);
        break;
      case 'DealOpened': {
        const deal = this.deals.get(event.data.dealId);
        if (deal) deal.opened = true;
        return;
      }
      case 'DealStatusChanged': {
        const deal = this.deals.get(event.data.dealId);
        if (deal && event.data.status === 'cancelled') deal.cancelled = true;
        return;
      }
      default:
        break;
    }
    if (!('conversationId' in event.data)) return;
    const id = event.data.conversationId;
    if (event.type === 'ConversationStarted') {
      const criteria = new Map(event.data.participants.map((p) => [p.agentId, this.agents.get(p.agentId)?.criteria ?? null] as const));
      const profiles = new Map(
        event.data.participants.map(
          (p) =>
            [
              p.agentId,
              { needs: this.agents.get(p.agentId)?.needs ?? null, products: this.agents.get(p.agentId)?.products ?? null },
            ] as const,
        ),
      );
      this.conversations.set(id, {
        id,
        participants: event.data.participants,
        status: 'active',
        manual: new Map(),
        lastOfferFrom: null,
        stalledSinceLastMove: false,
        criteria,
        profiles,
        events: [],
      });
    }
    const conversation = this.conversations.get(id);
    if (!conversation) return;
    conversation.events.push(event);
    switch (event.type) {
      case 'ManualModeChanged': {
        // Read as recorded (the one reader rule, agentsSwitched); the holder is the person it was given to.
        const switched = agentsSwitched(event, conversation.participants);
        this.pending.push(...checkHold(conversation, event, event, switched));
        for (const agentId of switched) {
          const owner = conversation.participants.find((p) => p.agentId === agentId)?.ownerId ?? '';
          if (event.data.isManualMode) conversation.manual.set(agentId, event.data.byUserId ?? owner);
          else conversation.manual.delete(agentId);
        }
        if (!event.data.isManualMode && !event.data.byUserId) this.tally.handBacks += 1;
        break;
      }
      case 'OfferMade':
        conversation.lastOfferFrom = event.data.fromAgentId;
        conversation.stalledSinceLastMove = false;
        break;
      case 'ConversationStalled':
        conversation.stalledSinceLastMove = true;
        this.tally.stalls += 1;
        break;
      case 'ConversationCompleted':
        conversation.status = 'completed';
        break;
      default:
        break;
    }
  }

  private agreed(deal: Extract<DomainEvent, { type: 'DealAgreed' }>['data']): void {
    this.tally.dealsAgreed += 1;
    this.deals.set(deal.dealId, {
      borrowerAgentId: deal.borrowerAgentId,
      cancelled: false,
      opened: this.deals.get(deal.dealId)?.opened ?? false,
    });
    const need = this.needs.get(deal.borrowerAgentId);
    if (!need || need.dealId !== deal.dealId || need.conversationId !== deal.conversationId) {
      this.violate(
        'one commitment per need',
        `deal ${deal.dealId} was agreed in conversation ${deal.conversationId} without the borrower ${deal.borrowerAgentId}'s need committed to it (it stands at ${need ? `deal ${need.dealId}` : 'open'})`,
      );
    }
    const conversation = this.conversations.get(deal.conversationId);
    if (!conversation)
      return this.violate(
        'agreements inside both parties’ limits',
        `deal ${deal.dealId} names conversation ${deal.conversationId}, never started`,
      );
    // The case as the agents' criteria priced it when the conversation started: the lender's best line for the
    // borrower's needs (docs/behaviour/negotiation.md); the deal keeps the needs, the product, the discretion and the fee cap.
    const criteria = (agentId: number) => conversation.criteria.get(agentId) ?? null;
    const profile = (agentId: number) => conversation.profiles.get(agentId);
    const borrowerNeeds = negotiatedNeeds(
      { criteria: criteria(deal.borrowerAgentId), needs: profile(deal.borrowerAgentId)?.needs ?? null },
      criteria(deal.lenderAgentId),
    );
    const lenderRange = productRangeOf({
      type: 'lender',
      criteria: criteria(deal.lenderAgentId),
      products: profile(deal.lenderAgentId)?.products ?? null,
    });
    const { priced } = bestLine(
      { agentId: deal.borrowerAgentId, needs: borrowerNeeds, criteria: criteria(deal.borrowerAgentId) },
      { agentId: deal.lenderAgentId, range: lenderRange, criteria: criteria(deal.lenderAgentId) },
      { bankRatePercent: DEFAULT_BANK_RATE_PERCENT, rules: DEFAULT_LENDING_RULES },
    );
    const terms: LoanTerms = {
      loanAmount: deal.loanAmount,
      interestRate: deal.interestRate,
      termYears: deal.termYears,
      arrangementFee: deal.arrangementFee,
    };
    const outside = priced ? outsideLimits(priced, terms, deal.product ?? null) : 'there is no case to price';
    if (outside)
      this.violate(
        'agreements inside both parties’ limits',
        `deal ${deal.dealId} (${describeOffer(terms)}) lies outside the limits of borrower ${deal.borrowerAgentId} or lender ${deal.lenderAgentId}: ${outside}`,
      );
  }

  unopenedDeals(): number {
    return [...this.deals.values()].filter((deal) => !deal.opened).length;
  }

  private violate(invariant: string, detail: string): void {
    this.pending.push({ invariant, detail });
  }

  /** The violations found while folding since the last call. */
  takeViolations(): Violation[] {
    const found = this.pending;
    this.pending = [];
    return found;
  }

  /**
   * With the node idle (no move pending anywhere), every active conversation waits on a named person (the side
   * whose move it is, held by hand), or has recorded a stall with its reason. Anything else hangs.
   */
  idleConversations(): Violation[] {
    const found: Violation[] = [];
    for (const conversation of this.conversations.values()) {
      if (conversation.status !== 'active' || conversation.stalledSinceLastMove) continue;
      const borrower = conversation.participants.find((p) => p.type === 'borrower');
      const lender = conversation.participants.find((p) => p.type === 'lender');
      if (!borrower || !lender) continue;
      const held = (p: Participant) => conversation.manual.has(p.agentId);
      const need = this.needs.get(borrower.agentId);
      const committedElsewhere = need && need.conversationId !== conversation.id;
      const due = conversation.lastOfferFrom === borrower.agentId ? lender : borrower;
      const waitsOnPerson = committedElsewhere ? held(borrower) && held(lender) : held(due);
      if (!waitsOnPerson) {
        found.push({
          invariant: 'no conversation idle without a reason',
          detail: `conversation ${conversation.id} is active with nothing pending: ${due.name}'s move is due${committedElsewhere ? ` (its borrower is committed to deal ${need.dealId})` : ''}, its side is not held by a person, and no stall is recorded`,
        });
      }
    }
    return found;
  }

  /** Each operator offer the simulation made: recorded with exactly the figures typed, or refused with a reason. */
  checkOperatorOffer(check: OperatorOfferCheck): Violation[] {
    const conversation = this.conversations.get(check.conversationId);
    if (!conversation) return [{ invariant: 'operator offers recorded exactly', detail: `conversation ${check.conversationId} unknown` }];
    const events = conversation.events;
    const wrong = (detail: string): Violation[] => [{ invariant: 'operator offers recorded exactly', detail }];
    if (check.kind === 'form') {
      const made = events.find((e): e is EventOf<'OfferMade'> => e.type === 'OfferMade' && e.data.offerId === check.offerId);
      if (!made) return wrong(`the structured offer ${check.offerId} was answered 201 but is not in conversation ${check.conversationId}`);
      const recorded = made.data.terms;
      const same = (['loanAmount', 'interestRate', 'termYears', 'arrangementFee'] as const).every(
        (issue) => recorded[issue] === check.terms[issue],
      );
      if (!same) return wrong(`the structured offer ${describeOffer(check.terms)} was recorded as ${describeOffer(made.data.terms)}`);
      this.tally.operatorOffersRecorded += 1;
      return [];
    }
    const at = events.findIndex((e) => e.type === 'MessageSent' && e.data.messageId === check.messageId);
    if (at < 0) return wrong(`the operator's message ${check.messageId} ("${check.text}") is not in conversation ${check.conversationId}`);
    const readingAt = events.findIndex(
      (e, i) => i > at && e.type === 'MessageSent' && e.data.reading && e.data.fromAgentId === check.agentId,
    );
    if (readingAt < 0) {
      // A conversation that ended before the message was read: refused by its end, whose reason is shown.
      if (conversation.status === 'completed') return [];
      return wrong(`the operator's message "${check.text}" in conversation ${check.conversationId} was never read (no note in the thread)`);
    }
    const readingEvent = events[readingAt]!;
    const reading = readingEvent.type === 'MessageSent' ? readingEvent.data.content : '';
    if (reading.startsWith('Not recorded as an offer: ')) {
      this.tally.operatorOffersRefused += 1;
      return [];
    }
    if (check.expect === 'chat') {
      this.tally.readAsChat += 1;
      return reading === 'Read as chat: no offer recorded' ? [] : wrong(`"${check.text}" was read as "${reading}", not as chat`);
    }
    if (check.expect === 'unclear') {
      this.tally.unclear += 1;
      return reading.startsWith('Not read as an offer: ')
        ? []
        : wrong(`"${check.text}" cannot be read without guessing, yet was read as "${reading}"`);
    }
    if (!reading.startsWith('Read as an offer: '))
      return wrong(`"${check.text}" states ${JSON.stringify(check.expect.offer)} but was read as "${reading}"`);
    const made = events.find(
      (e, i): e is EventOf<'OfferMade'> => i > readingAt && e.type === 'OfferMade' && e.data.fromAgentId === check.agentId,
    );
    if (!made) return wrong(`"${check.text}" was read as an offer but no offer was recorded`);
    const terms = made.data.terms;
    for (const [issue, value] of Object.entries(check.expect.offer)) {
      if (terms[issue as keyof LoanTerms] !== value)
        return wrong(
          `"${check.text}" was recorded as ${describeOffer(terms)} (${issue} ${terms[issue as keyof LoanTerms]}, typed ${value})`,
        );
    }
    if (reading !== `Read as an offer: ${describeOffer(terms)}`)
      return wrong(`the note "${reading}" does not say the recorded figures (${describeOffer(terms)})`);
    this.tally.operatorOffersRecorded += 1;
    return [];
  }
}

/**
 * The invariant over every takeover and hand-over recorded (the World's fold calls it; the steps that take and hand over sides are control-steps.ts): a side is held only by
 * the person it was given to: taken by themself, or handed over by the person who held it then.
 */
function checkHold(
  conversation: SimConversation,
  recorded: RecordedEvent,
  event: EventOf<'ManualModeChanged'>,
  switched: readonly number[],
): Violation[] {
  const { isManualMode, byUserId, handedOverBy } = event.data;
  const actor = recorded.metadata.actor;
  if (!isManualMode || byUserId === undefined || actor.kind !== 'user') return [];
  const wrong = (detail: string) => [{ invariant: 'a side is held only by the person it was given to', detail }];
  if (handedOverBy === undefined) {
    return byUserId === actor.userId
      ? []
      : wrong(`${actor.userId} took agent(s) ${switched.join(', ')} of conversation ${conversation.id} for ${byUserId}`);
  }
  if (handedOverBy !== actor.userId)
    return wrong(`${actor.userId} handed over agent(s) ${switched.join(', ')} in the name of ${handedOverBy}`);
  const before = switched.map((agentId) => conversation.manual.get(agentId));
  return before.every((holder) => holder === handedOverBy)
    ? []
    : wrong(`${handedOverBy} handed over agent(s) ${switched.join(', ')} of conversation ${conversation.id}, held by ${before.join(', ')}`);
}
