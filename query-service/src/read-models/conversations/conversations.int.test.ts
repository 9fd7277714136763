import { beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { readModelDatabase, recorded, recordedAsStored } from '../testing';
import { projectMatchesFound } from '../matches-found/projection';
import { projectConversations } from './projection';
import { findConversation, listConversations, listMessages } from './queries';

const participants = [
  { agentId: 1, ownerId: 'alice', name: 'Alice Borrower', type: 'borrower' as const },
  { agentId: 2, ownerId: 'bob', name: 'Northern Bank', type: 'lender' as const },
];
const start = (conversationId: number, title: string): DomainEvent => ({
  type: 'ConversationStarted',
  data: { conversationId, title, participants, matchId: null },
});
const say = (conversationId: number, messageId: number, fromAgentId: number, content: string): DomainEvent => ({
  type: 'MessageSent',
  data: { conversationId, messageId, fromAgentId, toAgentId: null, content, isAutomated: true },
});
const terms = { interestRate: 4.1, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 12, n)).toISOString();

describe('conversations read model', () => {
  const database = readModelDatabase();

  beforeAll(async () => {
    const client = await database.pool.connect();
    try {
      // Two batches; the second a day later.
      const events = recorded(
        [
          start(10, 'Elm Street'),
          start(11, 'Oak Avenue'),
          say(10, 100, 1, 'Hello'),
          say(11, 101, 2, 'Good morning'),
          // A non-participant's message is no part of the conversation: 11 keeps its time.
          say(11, 102, 99, 'Not a participant'),
          say(10, 103, 2, 'We can do 4.1%'),
          // An offer is activity a person sees: 10's time is the offer's.
          { type: 'OfferMade', data: { conversationId: 10, offerId: 'o1', round: 1, fromAgentId: 2, toAgentId: 1, terms } },
        ],
        (index) => (index < 4 ? new Date(Date.UTC(2026, 0, 1, 12, index)) : new Date(Date.UTC(2026, 0, 2, 12, index - 4))),
      );
      await projectConversations(client, events.slice(0, 4));
      await projectConversations(client, events.slice(4));
    } finally {
      client.release();
    }
  });

  it('lists the conversations of a user’s agents, most recently active first, each participant marked as theirs or not', async () => {
    const forBob = await listConversations(database.pool, 'bob');
    expect(forBob.map((c) => [c.id, c.updatedAt])).toEqual([
      [10, '2026-01-02T12:02:00.000Z'],
      [11, minute(3)],
    ]);
    expect(forBob[0]!.participants).toEqual([
      { agentId: 1, name: 'Alice Borrower', type: 'borrower', isMine: false },
      { agentId: 2, name: 'Northern Bank', type: 'lender', isMine: true },
    ]);
    expect(await listConversations(database.pool, 'mallory')).toEqual([]);
  });

  it('finds a conversation only for the owners of its agents', async () => {
    expect(await findConversation(database.pool, 'alice', 11)).toMatchObject({
      id: 11,
      title: 'Oak Avenue',
      status: 'active',
      isManualMode: false,
      createdAt: minute(1),
    });
    expect(await findConversation(database.pool, 'mallory', 11)).toBeNull();
  });

  it('lists a conversation’s messages in order under their senders’ names, without a non-participant’s', async () => {
    expect((await listMessages(database.pool, 10)).map((m) => [m.id, m.fromAgentName, m.fromAgentType, m.content])).toEqual([
      [100, 'Alice Borrower', 'borrower', 'Hello'],
      [103, 'Northern Bank', 'lender', 'We can do 4.1%'],
    ]);
    expect((await listMessages(database.pool, 11)).map((m) => m.id)).toEqual([101]);
  });
});

describe('conversations read model: the match that opened a conversation (docs/behaviour/matching.md)', () => {
  const database = readModelDatabase();
  const pair = [
    { agentId: 5, ownerId: 'carol', name: 'Carol Borrower', type: 'borrower' as const },
    { agentId: 6, ownerId: 'dave', name: 'Dave Lending', type: 'lender' as const },
  ];

  beforeAll(async () => {
    const client = await database.pool.connect();
    try {
      // The match recorded in the old words (meets / near): see docs/behaviour/conversations.md, "Reading old events".
      const events = recordedAsStored([
        {
          type: 'MatchFound',
          data: {
            matchId: 'm-old',
            borrowerAgentId: 5,
            lenderAgentId: 6,
            brokerAgentId: null,
            score: 82.5,
            explanation: [
              { criterion: 'Rate', verdict: 'meets', detail: 'Overlap 4%–5%' },
              { criterion: 'Term', verdict: 'near', detail: 'Close' },
            ],
          },
        },
        { type: 'ConversationStarted', data: { conversationId: 20, title: 'Matched', participants: pair, matchId: 'm-old' } },
        { type: 'ConversationStarted', data: { conversationId: 21, title: 'Unmatched', participants: pair, matchId: null } },
      ]);
      await projectMatchesFound(client, events);
      await projectConversations(client, events);
    } finally {
      client.release();
    }
  });

  it('carries the match’s score and explanation, earlier verdicts read as pass / warn / fail, and null without a match', async () => {
    expect((await findConversation(database.pool, 'carol', 20))?.match).toEqual({
      score: 82.5,
      explanation: [
        { criterion: 'Rate', verdict: 'pass', detail: 'Overlap 4%–5%' },
        { criterion: 'Term', verdict: 'warn', detail: 'Close' },
      ],
    });
    expect((await findConversation(database.pool, 'dave', 21))?.match).toBeNull();
    expect((await listConversations(database.pool, 'dave')).map((c) => [c.id, c.match?.score ?? null])).toEqual([
      [21, null],
      [20, 82.5],
    ]);
  });
});
