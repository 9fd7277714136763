import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { dealOpened, matchFound, SAMPLE_DEAL_ID } from '@pf/events/testing';
import { evolveMatchDoc, type MatchDoc } from './evolve';
import { toMatchView } from './queries';

const dealId = SAMPLE_DEAL_ID;
const found = matchFound({
  explanation: [
    { criterion: 'Property value', verdict: 'pass', detail: 'Both accept £250,000 to £400,000' },
    { criterion: 'Interest rate', verdict: 'warn', detail: 'Close: 3% to 4% against 4.2% to 6%' },
  ],
});
const started: DomainEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 7,
    title: 'Alice ↔ Northern Bank',
    matchId: 'm1',
    participants: [
      { agentId: 1, ownerId: 'alice', name: 'Alice', type: 'borrower' },
      { agentId: 2, ownerId: 'bob', name: 'Northern Bank', type: 'lender' },
    ],
  },
};
const fold = (events: DomainEvent[]) =>
  events.reduce<MatchDoc | null>((doc, event) => evolveMatchDoc(doc, event, '2025-01-01T10:00:00.000Z'), null)!;

describe('a match followed through its conversation and deal', () => {
  it('is negotiating while its conversation is open, with the matcher’s reasons', () => {
    const view = toMatchView(fold([found, started]));
    expect(view).toMatchObject({
      borrower: 'Alice',
      lender: 'Northern Bank',
      matchScore: 86,
      stage: 'negotiation',
      status: 'active',
      conversationId: 7,
    });
    expect(view.explanation.map((c) => c.verdict)).toEqual(['pass', 'warn']);
  });

  it('answers a match recorded in the old words (meets / near / fails) in pass / warn / fail', () => {
    const doc = fold([found, started]);
    const earlier = doc.explanation.map((c, i) => ({ ...c, verdict: ['meets', 'near'][i] })) as unknown as MatchDoc['explanation'];
    expect(toMatchView({ ...doc, explanation: earlier }).explanation.map((c) => c.verdict)).toEqual(['pass', 'warn']);
  });

  it('is closed when the negotiation ends without terms', () => {
    const ended = fold([
      found,
      started,
      { type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'no_agreement', reason: 'deadline' } },
    ]);
    expect(toMatchView(ended)).toMatchObject({ stage: 'negotiation', status: 'closed' });
  });

  it('moves to documentation with its deal, and completes with it', () => {
    const opened = dealOpened();
    const agreed: DomainEvent[] = [
      found,
      started,
      { type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'agreed', reason: 'Terms agreed' } },
      opened,
    ];
    expect(toMatchView(fold(agreed))).toMatchObject({ stage: 'documentation', status: 'progressing', loanAmount: 240000, dealId });
    const completed = fold([...agreed, { type: 'DealStageChanged', data: { dealId, from: 'underwriting', stage: 'completed' } }]);
    expect(toMatchView(completed)).toMatchObject({ stage: 'completed', status: 'completed' });
    const cancelled = fold([...agreed, { type: 'DealStatusChanged', data: { dealId, from: 'active', status: 'cancelled' } }]);
    expect(toMatchView(cancelled)).toMatchObject({ stage: 'documentation', status: 'closed' });
    const edited = fold([
      ...agreed,
      { type: 'DealEdited', data: { dealId, propertyAddress: '3 Mill Lane, Leeds', targetCompletion: '2025-06-30' } },
    ]);
    expect(toMatchView(edited)).toMatchObject({ estimatedCompletion: '2025-06-30', loanAmount: 240000 });
  });
});
