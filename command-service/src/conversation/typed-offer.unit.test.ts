import { describe, it } from 'vitest';
import type { ConversationCommand, ConversationEvent } from '@pf/events';
import { deciderSpec } from '../testing/decider-spec';
import { conversationDecider } from './conversation';

// docs/decisions/one-commitment-per-need.md, "Operators' offers": a person's message is read as their side's offer
// in the same decision as the message, and the thread's note says how it was read.
const spec = deciderSpec(conversationDecider);
const started: ConversationEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 7,
    title: 'Amelia ↔ Northgate',
    matchId: null,
    participants: [
      { agentId: 1, ownerId: 'alice', name: 'Amelia', type: 'borrower' },
      { agentId: 9, ownerId: 'bea', name: 'Bea Brokers', type: 'broker' },
      { agentId: 2, ownerId: 'bob', name: 'Northgate', type: 'lender' },
    ],
  },
};
const held = (agentId: number, userId: string): ConversationEvent => ({
  type: 'ManualModeChanged',
  data: { conversationId: 7, isManualMode: true, agentId, agentIds: [agentId], byUserId: userId },
});
const list = { interestRate: 5.34, termYears: 30, loanAmount: 236_000, arrangementFee: 999 };
const reading = { noteMessageId: 11, offerId: 'typed-1', need: { committed: null }, listTerms: list };
const says = (content: string, userId = 'bob', changes: Partial<Extract<ConversationCommand, { type: 'SendMessage' }>> = {}) =>
  ({
    type: 'SendMessage',
    conversationId: 7,
    messageId: 10,
    speaker: { kind: 'user', userId, firmId: userId },
    content,
    reading,
    ...changes,
  }) as const;
const message = (content: string, fromAgentId = 2, toAgentId = 1): ConversationEvent => ({
  type: 'MessageSent',
  data: { conversationId: 7, messageId: 10, fromAgentId, toAgentId, content, isAutomated: false },
});
const note = (content: string, fromAgentId = 2, toAgentId = 1): ConversationEvent => ({
  type: 'MessageSent',
  data: { conversationId: 7, messageId: 11, fromAgentId, toAgentId, content, isAutomated: true, reading: true },
});
const borrowerOffered: ConversationEvent = {
  type: 'OfferMade',
  data: {
    conversationId: 7,
    offerId: 'o1',
    round: 0,
    fromAgentId: 1,
    toAgentId: 2,
    terms: { ...list, interestRate: 4.2, arrangementFee: 0 },
  },
};

describe('a person’s message read as their side’s offer', () => {
  it('before any offer, completes the figures not typed from the case at list price, and records them exactly', () => {
    const text = 'We can do 4.9% with a fee of £500';
    const terms = { ...list, interestRate: 4.9, arrangementFee: 500 };
    spec
      .given([started, held(2, 'bob')])
      .when(says(text))
      .then([
        message(text),
        note('Read as an offer: £236,000 at 4.90% over 30 years, £500 fee'),
        {
          type: 'OfferMade',
          data: { conversationId: 7, offerId: 'typed-1', round: 0, fromAgentId: 2, toAgentId: 1, terms, byPerson: true },
        },
      ]);
  });

  it('completes from the other side’s offer when its own side has none, turning that offer down; from its own last offer first', () => {
    const text = 'We can do 4.9%';
    spec
      .given([started, held(2, 'bob'), borrowerOffered])
      .when(says(text))
      .then([
        message(text),
        note('Read as an offer: £236,000 at 4.90% over 30 years, £0 fee'),
        { type: 'OfferRejected', data: { conversationId: 7, offerId: 'o1', byAgentId: 2 } },
        {
          type: 'OfferMade',
          data: {
            conversationId: 7,
            offerId: 'typed-1',
            round: 1,
            fromAgentId: 2,
            toAgentId: 1,
            terms: { ...list, interestRate: 4.9, arrangementFee: 0 },
            byPerson: true,
          },
        },
      ]);
    const lenderOffered: ConversationEvent = {
      type: 'OfferMade',
      data: { conversationId: 7, offerId: 'o2', round: 1, fromAgentId: 2, toAgentId: 1, terms: { ...list, arrangementFee: 750 } },
    };
    const borrowerAgain: ConversationEvent = {
      type: 'OfferMade',
      data: { ...borrowerOffered.data, offerId: 'o3', round: 2 },
    };
    spec
      .given([started, held(2, 'bob'), borrowerOffered, lenderOffered, borrowerAgain])
      .when(says(text))
      .then([
        message(text),
        note('Read as an offer: £236,000 at 4.90% over 30 years, £750 fee'),
        { type: 'OfferRejected', data: { conversationId: 7, offerId: 'o3', byAgentId: 2 } },
        {
          type: 'OfferMade',
          data: {
            conversationId: 7,
            offerId: 'typed-1',
            round: 3,
            fromAgentId: 2,
            toAgentId: 1,
            terms: { ...list, interestRate: 4.9, arrangementFee: 750 },
            byPerson: true,
          },
        },
      ]);
  });

  it('says when it read chat, or could not read the figures without guessing, and records no offer', () => {
    spec
      .given([started, held(2, 'bob')])
      .when(says('Hello, how are you?'))
      .then([message('Hello, how are you?'), note('Read as chat: no offer recorded')]);
    spec
      .given([started, held(2, 'bob')])
      .when(says('Lend £180k or £200k'))
      .then([
        message('Lend £180k or £200k'),
        note('Not read as an offer: it names £180,000 and £200,000 as the loan. Say it again, or use Make offer'),
      ]);
    // Nothing to price and no offer yet: figures left out cannot be completed.
    spec
      .given([started, held(2, 'bob')])
      .when(says('We can do 4.9%', 'bob', { reading: { ...reading, listTerms: null } }))
      .then([
        message('We can do 4.9%'),
        note('Not read as an offer: it does not state the loan, the rate, the term and the fee. Say it again, or use Make offer'),
      ]);
  });

  it('records the refusal’s reason when the offer cannot stand: the need committed elsewhere, terms that cannot be an offer', () => {
    const elsewhere = { committed: { conversationId: 3, dealId: 'deal-a', lenderAgentId: 5, lenderName: 'Eastbank' } };
    spec
      .given([started, held(1, 'alice')])
      .when(says('How about 4.1%?', 'alice', { reading: { ...reading, need: elsewhere } }))
      .then([
        message('How about 4.1%?', 1, 2),
        note(
          'Not recorded as an offer: Amelia has agreed terms in another negotiation: this need is committed, so it negotiates nowhere else until its operator edits the need, asks for another lender, or the deal is cancelled',
          1,
          2,
        ),
      ]);
    spec
      .given([started, held(2, 'bob')])
      .when(says('We can do 0% over 25 years'))
      .then([message('We can do 0% over 25 years'), note('Not recorded as an offer: terms.interestRate: must be between 0% and 100%')]);
  });

  it('reads no broker’s message, and none without what the reading needs', () => {
    spec
      .given([started, held(9, 'bea')])
      .when(says('4.5% would work for both', 'bea'))
      .then([message('4.5% would work for both', 9, 1)]);
    spec
      .given([started, held(2, 'bob')])
      .when(says('We can do 4.9%', 'bob', { reading: undefined }))
      .then([message('We can do 4.9%')]);
  });
});
