import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { streams, type DomainEvent, type EventMetadata, type EventOf } from '@pf/events';
import type { EventStore, NewEvent } from '@pf/infra';

/**
 * Realistic event histories for the replay benchmarks: per user three agents (one updated), and per
 * user two negotiated conversations with a match, a dozen messages, offers, a manual switch, an
 * outcome and a deal. About 46 events per user, appended through the event store as the services would.
 */
export const EVENTS_PER_USER = 46;
/** The events the product writes after an agreement: the deal's DealOpened and its illustration's DocumentUploaded. */
export const AFTER_AGREEMENT_EVENTS = 2;

const LINES = [
  'Thank you for the details. Based on the property value and your income, we can look at a 75% loan to value.',
  'Could you confirm the term you have in mind? Our best rates are on 25-year terms with a two-year fix.',
  'My client would prefer a lower arrangement fee; is there flexibility if the rate moves up slightly?',
  'We can offer 4.35% over 25 years with a £999 arrangement fee, subject to valuation.',
  'That works for us in principle. Please send the decision in principle and the valuation booking.',
  'Noted. Underwriting will need the last three months of payslips and a proof of deposit.',
];

interface Ids {
  agent(): number;
  conversation(): number;
  message(): number;
}

/** Reserves id ranges from the product's sequences so later commands never collide with generated ids. */
export async function reserveIds(pool: pg.Pool, users: number): Promise<Ids> {
  const reserve = async (sequence: string, count: number) => {
    const result = await pool.query<{ first: number }>(`select setval('${sequence}', nextval('${sequence}') + $1) - $1 as first`, [count]);
    let next = Number(result.rows[0]!.first);
    return () => next++;
  };
  const agent = await reserve('agent_ids', users * 3 + 1);
  const conversation = await reserve('conversation_ids', users * 2 + 1);
  const message = await reserve('message_ids', users * 24 + 1);
  return { agent, conversation, message };
}

const metadataOf = (actor: EventMetadata['actor']): EventMetadata => ({ actor, correlationId: randomUUID(), causationId: null });
const toNew = (event: DomainEvent, metadata: EventMetadata): NewEvent => ({
  id: randomUUID(),
  type: event.type,
  data: event.data,
  metadata,
});

/** What the product writes after each agreement (product-work.ts), when the history is to look like its own. */
export type AfterAgreement = (
  agreed: NewEvent & { readonly data: EventOf<'DealAgreed'>['data'] },
  parties: Record<
    'borrower' | 'lender' | 'broker',
    { agentId: number; ownerId: string; name: string; type: 'borrower' | 'broker' | 'lender' }
  >,
) => Promise<number>;

/** Appends one user's history; returns the number of events appended. */
export async function appendUserHistory(
  store: EventStore,
  ids: Ids,
  ownerId: string,
  n: number,
  afterAgreement?: AfterAgreement,
): Promise<number> {
  const user = metadataOf({ kind: 'user', userId: ownerId });
  const types = ['borrower', 'broker', 'lender'] as const;
  const agents = types.map((type) => ({ agentId: ids.agent(), ownerId, name: `${type} ${n}`, type }));
  let appended = 0;
  for (const agent of agents) {
    const events: DomainEvent[] = [
      {
        type: 'AgentCreated',
        data: {
          ...agent,
          strategy: 'linear',
          description: `A ${agent.type} looking for a residential mortgage`,
          criteria: { propertyValueMin: '£200,000', propertyValueMax: '£650,000', interestRateMax: '5.2%', loanTermMin: '20 years' },
        },
      },
    ];
    if (agent.type === 'borrower') {
      events.push({
        type: 'AgentUpdated',
        data: { agentId: agent.agentId, name: agent.name, description: 'Updated brief', criteria: { loanTermMax: '30 years' } },
      });
    }
    await store.append(
      streams.agent(agent.agentId),
      events.map((event) => toNew(event, user)),
      'no_stream',
    );
    appended += events.length;
  }
  const [borrower, broker, lender] = agents as [(typeof agents)[0], (typeof agents)[0], (typeof agents)[0]];
  for (let c = 0; c < 2; c++) {
    const conversationId = ids.conversation();
    const matchId = `m-${conversationId}`;
    // A deal id is a UUID (the contract's), one per conversation: readable in the store as the conversation's number in hex.
    const dealId = `00000000-0000-4000-8000-${conversationId.toString(16).padStart(12, '0')}`;
    const explanation = [{ criterion: 'property value', verdict: 'pass' as const, detail: '£420,000 is within £200,000–£650,000' }];
    await store.append(
      streams.match(matchId),
      [
        toNew(
          {
            type: 'MatchFound',
            data: {
              matchId,
              borrowerAgentId: borrower.agentId,
              lenderAgentId: lender.agentId,
              brokerAgentId: broker.agentId,
              score: 82,
              explanation,
            },
          },
          metadataOf({ kind: 'system', name: 'matcher' }),
        ),
      ],
      'no_stream',
    );
    const terms = { interestRate: 4.35, termYears: 25, loanAmount: 315_000, arrangementFee: 999 };
    const flow: DomainEvent[] = [
      { type: 'ConversationStarted', data: { conversationId, title: `${borrower.name} ↔ ${lender.name}`, participants: agents, matchId } },
    ];
    for (let m = 0; m < 12; m++) {
      const from = agents[m % 3]!;
      const to = agents[(m + 1) % 3]!;
      flow.push({
        type: 'MessageSent',
        data: {
          conversationId,
          messageId: ids.message(),
          fromAgentId: from.agentId,
          toAgentId: to.agentId,
          content: LINES[m % LINES.length]!,
          isAutomated: true,
        },
      });
      if (m === 3 || m === 6 || m === 9) {
        const offerId = `${conversationId}-o${m}`;
        flow.push({
          type: 'OfferMade',
          data: { conversationId, offerId, round: m / 3, fromAgentId: lender.agentId, toAgentId: borrower.agentId, terms },
        });
        if (m === 9) flow.push({ type: 'OfferAccepted', data: { conversationId, offerId, byAgentId: borrower.agentId, terms } });
      }
    }
    flow.push({ type: 'ManualModeChanged', data: { conversationId, isManualMode: true } });
    // The negotiator records the agreement on the conversation's stream (the deal opener then opens the deal's own).
    const agreement: EventOf<'DealAgreed'> = {
      type: 'DealAgreed',
      data: {
        dealId,
        conversationId,
        borrowerAgentId: borrower.agentId,
        lenderAgentId: lender.agentId,
        brokerAgentId: broker.agentId,
        propertyValue: 420_000,
        loanAmount: terms.loanAmount,
        ltv: 75,
        interestRate: terms.interestRate,
        termYears: terms.termYears,
        arrangementFee: terms.arrangementFee,
      },
    };
    const agreed = { ...toNew(agreement, metadataOf({ kind: 'system', name: 'negotiator' })), data: agreement.data };
    const completed = toNew({ type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Terms accepted' } }, user);
    await store.append(streams.conversation(conversationId), [...flow.map((event) => toNew(event, user)), agreed, completed], 'no_stream');
    appended += flow.length + 3;
    if (afterAgreement) appended += await afterAgreement(agreed, { borrower, lender, broker });
  }
  return appended;
}

/**
 * Appends histories of fresh users with `writers` concurrent writers until about `events` events are stored; with
 * `afterAgreement`, what it writes after each agreement too (each user's share of events then counts it).
 */
export async function generateEvents(
  pool: pg.Pool,
  store: EventStore,
  events: number,
  writers = 8,
  afterAgreement?: AfterAgreement,
): Promise<number> {
  const users = Math.max(1, Math.round(events / (EVENTS_PER_USER + (afterAgreement ? 2 * AFTER_AGREEMENT_EVENTS : 0))));
  const ids = await reserveIds(pool, users);
  let next = 0;
  let appended = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < users) {
        const n = next++;
        // Read after the await: `appended += await ...` reads it before, and writers settling together overwrite each other's counts.
        const written = await appendUserHistory(store, ids, randomUUID(), n, afterAgreement);
        appended += written;
      }
    }),
  );
  return appended;
}
