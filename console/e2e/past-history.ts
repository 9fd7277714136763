import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { streams, type DomainEvent, type EventMetadata } from '@pf/events';
import { dealUuid } from '@pf/events/testing';
import { contentDigest, linkHash } from '@pf/infra';

/**
 * A negotiation that ended in a deal some days ago, written into the server's events table with that time.
 * The platform only ever records events as they happen, so a test that needs a past (to see a period change
 * its figures) writes one the way the store would have: new streams, each event hash-chained as the store
 * chains it (so the tamper check still passes), the streams' heads beside them. The agents are deleted at
 * once, so the matcher and the negotiators of today leave them alone.
 */
export interface PastDeal {
  readonly daysAgo: number;
  readonly borrowerAgentId: number;
  readonly lenderAgentId: number;
  readonly conversationId: number;
  readonly region: string;
  readonly loanAmount: number;
  readonly propertyValue: number;
  readonly interestRate: number;
  readonly arrangementFee: number;
  /** Whose agents they are: a firm of one's id is its person's (docs/decisions/firms-and-visibility.md). */
  readonly ownerId?: string;
}

const metadata: EventMetadata = {
  actor: { kind: 'system', name: 'e2e-past-history' },
  correlationId: 'e2e-past-history',
  causationId: null,
};

const pastMatchId = (past: PastDeal) => `past-${past.conversationId}`;

/** The streams a past deal is written to, for a test to verify their hash chains. */
export const pastStreams = (past: PastDeal) => [
  streams.agent(past.borrowerAgentId),
  streams.agent(past.lenderAgentId),
  streams.match(pastMatchId(past)),
  streams.conversation(past.conversationId),
];

export async function writePastDeal(databaseUrl: string, past: PastDeal): Promise<void> {
  const day = new Date(Date.now() - past.daysAgo * 86_400_000);
  const at = (minute: number) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 10, minute));
  const owner = past.ownerId ?? 'e2e-past-owner';
  const borrower = { agentId: past.borrowerAgentId, ownerId: owner, name: 'Past Borrower', type: 'borrower' as const };
  const lender = { agentId: past.lenderAgentId, ownerId: owner, name: 'Past Lender', type: 'lender' as const };
  const terms = { interestRate: past.interestRate, termYears: 25, loanAmount: past.loanAmount, arrangementFee: past.arrangementFee };
  const written: [string, DomainEvent[]][] = [
    [
      streams.agent(borrower.agentId),
      [{ type: 'AgentCreated', data: { ...borrower, description: '', criteria: { region: past.region } } }],
    ],
    [streams.agent(lender.agentId), [{ type: 'AgentCreated', data: { ...lender, description: '', criteria: null } }]],
    [
      streams.match(pastMatchId(past)),
      [
        {
          type: 'MatchFound',
          data: {
            matchId: pastMatchId(past),
            borrowerAgentId: borrower.agentId,
            lenderAgentId: lender.agentId,
            brokerAgentId: null,
            score: 80,
            explanation: [],
          },
        },
      ],
    ],
    [
      streams.conversation(past.conversationId),
      [
        {
          type: 'ConversationStarted',
          data: {
            conversationId: past.conversationId,
            title: 'A past negotiation',
            participants: [borrower, lender],
            matchId: pastMatchId(past),
          },
        },
        {
          type: 'OfferMade',
          data: {
            conversationId: past.conversationId,
            offerId: `past-offer-${past.conversationId}`,
            round: 0,
            fromAgentId: lender.agentId,
            toAgentId: borrower.agentId,
            terms,
          },
        },
        {
          type: 'DealAgreed',
          data: {
            dealId: dealUuid(`past-deal-${past.conversationId}`),
            conversationId: past.conversationId,
            borrowerAgentId: borrower.agentId,
            lenderAgentId: lender.agentId,
            brokerAgentId: null,
            propertyValue: past.propertyValue,
            loanAmount: past.loanAmount,
            ltv: Math.round((past.loanAmount / past.propertyValue) * 1000) / 10,
            interestRate: past.interestRate,
            termYears: 25,
            arrangementFee: past.arrangementFee,
          },
        },
        { type: 'ConversationCompleted', data: { conversationId: past.conversationId, outcome: 'agreed', reason: 'deal' } },
      ],
    ],
    [streams.agent(borrower.agentId), [{ type: 'AgentDeleted', data: { agentId: borrower.agentId } }]],
    [streams.agent(lender.agentId), [{ type: 'AgentDeleted', data: { agentId: lender.agentId } }]],
  ];
  await writeRecordedStreams(databaseUrl, written, at, () => metadata);
}

/**
 * Writes whole new streams into the server's events table as the store would have written them (hash-chained,
 * the streams' heads beside them), each event at `at(n)` for the n-th event written, with `metadataOf`'s actor.
 */
export async function writeRecordedStreams(
  databaseUrl: string,
  recorded: [string, DomainEvent[]][],
  at: (n: number) => Date,
  metadataOf: (event: DomainEvent) => EventMetadata,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const heads = new Map<string, { version: number; hash: string | null }>();
    let minute = 0;
    for (const [stream, events] of recorded) {
      for (const event of events) {
        const head = heads.get(stream) ?? { version: -1, hash: null };
        const version = head.version + 1;
        const metadata = metadataOf(event);
        const fields = { id: randomUUID(), stream, type: event.type, data: event.data, metadata, recordedAt: at(minute++) };
        const hash = linkHash(head.hash, version, contentDigest(fields));
        await client.query(
          `insert into events (event_id, stream_name, stream_version, type, data, metadata, recorded_at, hash, previous_hash)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            fields.id,
            stream,
            version,
            event.type,
            JSON.stringify(event.data),
            JSON.stringify(metadata),
            fields.recordedAt,
            hash,
            head.hash,
          ],
        );
        heads.set(stream, { version, hash });
      }
    }
    for (const [stream, head] of heads) {
      await client.query('insert into streams (stream_name, version, hash) values ($1, $2, $3)', [stream, head.version, head.hash]);
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
}
