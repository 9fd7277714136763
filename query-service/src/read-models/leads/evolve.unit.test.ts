import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { agentCreated, matchFound } from '@pf/events/testing';
import { evolveLead, type LeadDoc } from './evolve';
import { toLeadView } from './queries';

const created = agentCreated({ criteria: { propertyValueMin: '£250k', propertyValueMax: '£400k', interestRateMax: '5%' } });
const fold = (events: DomainEvent[], at = '2025-01-01T10:00:00.000Z') =>
  events.reduce<LeadDoc | null>((doc, event) => evolveLead(doc, event, at), null);
const match = matchFound({ score: 88 });
const started: DomainEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 7,
    title: 't',
    matchId: 'm1',
    participants: [
      { agentId: 1, ownerId: 'alice', name: 'Alice Borrower', type: 'borrower' },
      { agentId: 2, ownerId: 'bob', name: 'Bank', type: 'lender' },
    ],
  },
};

describe('a lead: one of the user’s agents, looking', () => {
  it('states its need from its criteria as written, and is urgent before any match', () => {
    const view = toLeadView(fold([created])!);
    expect(view).toMatchObject({
      status: 'active',
      urgency: 'high',
      matchScore: null,
      requirement: 'Needs: Property £250k to £400k · Rate up to 5%',
    });
  });

  it('is matched and medium while it negotiates, low once terms are agreed, urgent again when talks fail', () => {
    expect(toLeadView(fold([created, match, started])!)).toMatchObject({
      status: 'matched',
      urgency: 'medium',
      matchScore: 88,
      matchCount: 1,
    });
    const agreed = fold([
      created,
      match,
      started,
      { type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'agreed', reason: '' } },
    ])!;
    expect(toLeadView(agreed).urgency).toBe('low');
    const failed = fold([
      created,
      match,
      started,
      { type: 'ConversationCompleted', data: { conversationId: 7, outcome: 'no_agreement', reason: '' } },
    ])!;
    expect(toLeadView(failed).urgency).toBe('high');
  });

  it('is cancelled while paused, and gone when deleted', () => {
    expect(toLeadView(fold([created, { type: 'AgentPaused', data: { agentId: 1 } }])!)).toMatchObject({
      status: 'cancelled',
      urgency: 'low',
    });
    expect(fold([created, { type: 'AgentDeleted', data: { agentId: 1 } }])).toBeNull();
  });

  it('is the agent as the agents view folds it: edits move updatedAt, a second creation changes nothing', () => {
    const doc = fold([created]);
    const renamed = evolveLead(
      doc,
      { type: 'AgentUpdated', data: { agentId: 1, name: 'Alice B', description: 'Second home', criteria: null } },
      '2025-01-02T10:00:00.000Z',
    )!;
    expect(renamed).toMatchObject({
      name: 'Alice B',
      criteria: null,
      createdAt: '2025-01-01T10:00:00.000Z',
      updatedAt: '2025-01-02T10:00:00.000Z',
    });
    expect(toLeadView(renamed)).toMatchObject({ name: 'Alice B', createdDate: '2025-01-01T10:00:00.000Z' });
    expect(evolveLead(doc, { ...created, data: { ...created.data, name: 'Other' } }, '2025-01-03T10:00:00.000Z')).toBe(doc);
  });

  it('records a Match request and the matcher’s answer to it', () => {
    const requestId = '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
    const asked = fold([created, { type: 'MatchRequested', data: { requestId, agentId: 1, ownerId: 'alice' } }])!;
    expect(toLeadView(asked).lastMatchRun).toMatchObject({ finishedAt: null, newMatches: null });
    const answered = evolveLead(
      asked,
      { type: 'MatchRunCompleted', data: { requestId, agentId: 1, matchIds: ['m1', 'm2'], note: null } },
      '2025-01-01T10:00:01.000Z',
    )!;
    expect(toLeadView(answered).lastMatchRun).toEqual({
      requestedAt: '2025-01-01T10:00:00.000Z',
      finishedAt: '2025-01-01T10:00:01.000Z',
      newMatches: 2,
    });
  });
});
