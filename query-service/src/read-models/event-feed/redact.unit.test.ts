import { describe, expect, it } from 'vitest';
import type { FeedEnvelope } from '@pf/events';
import { dealOpened } from '@pf/events/testing';
import { redactDeleted, type PeopleOfBatch } from './redact';

const envelope = (type: string, data: unknown, actor: FeedEnvelope['metadata']['actor'] = { kind: 'agent', agentId: 1 }): FeedEnvelope => ({
  id: '00000000-0000-4000-8000-000000000001',
  type,
  stream: 'conversation-7',
  streamVersion: 3,
  position: '10:1',
  recordedAt: '2026-11-25T10:00:00.000Z',
  data,
  metadata: { actor, correlationId: 'c', causationId: null },
});

/** conversation-7's parties: agent 4 (carol's) and agent 5 (dan's); deal d's: carol and dan too. */
const people = (deleted: string[], owners: Record<number, string> = {}): PeopleOfBatch => ({
  deleted: new Set(deleted),
  ownerOf: (agentId) => owners[agentId],
  peopleOf: (stream) => (stream === 'conversation-7' || stream === 'deal-d' ? ['carol', 'dan'] : []),
});

describe('redactDeleted: a deleted person leaves the feed, their figures stay', () => {
  it('empties what a deleted person typed as their agent, and names the field', () => {
    const typed = envelope('MessageSent', {
      conversationId: 7,
      messageId: 9,
      fromAgentId: 4,
      toAgentId: 5,
      content: 'Call me on 07700 900123',
      isAutomated: false,
    });
    const redacted = redactDeleted(typed, people(['carol'], { 4: 'carol' }));
    expect(redacted.data).toMatchObject({ content: '', fromAgentId: 4, isAutomated: false });
    expect(redacted.redacted).toEqual(['data.content']);
    // The engine's words in a conversation of theirs can name them (either side's agent speaking): they go too.
    const automated = envelope('MessageSent', {
      ...(typed.data as object),
      fromAgentId: 5,
      content: 'Carol Clark, we offer 4.5%',
      isAutomated: true,
    });
    expect(redactDeleted(automated, people(['carol'], { 4: 'carol', 5: 'dan' })).data).toMatchObject({ content: '' });
    // What someone still here typed is theirs: kept.
    const dans = envelope('MessageSent', { ...(typed.data as object), fromAgentId: 5 });
    expect(redactDeleted(dans, people(['carol'], { 4: 'carol', 5: 'dan' }))).toBe(dans);
    // Nobody gone from this conversation: nothing changes.
    expect(redactDeleted(typed, people(['erin'], { 4: 'carol' }))).toBe(typed);
  });

  it('empties titles, reasons and a deal’s address in a conversation or deal of theirs, keeping outcomes and figures', () => {
    const gone = people(['carol']);
    const started = envelope('ConversationStarted', {
      conversationId: 7,
      title: 'Carol Clark ↔ Dan Bank',
      matchId: null,
      participants: [
        { agentId: 4, ownerId: 'carol', name: 'Carol Clark', type: 'borrower' },
        { agentId: 5, ownerId: 'dan', name: 'Dan Bank', type: 'lender' },
      ],
    });
    const redacted = redactDeleted(started, gone);
    expect(redacted.data).toMatchObject({ title: '', participants: [{ name: '' }, { name: 'Dan Bank' }] });
    expect(redacted.redacted).toEqual(['data.title', 'data.participants']);
    const completed = envelope('ConversationCompleted', { conversationId: 7, outcome: 'agreed', reason: 'Carol Clark agreed' });
    expect(redactDeleted(completed, gone).data).toEqual({ conversationId: 7, outcome: 'agreed', reason: '' });
    const edited = {
      ...envelope('DealEdited', {
        dealId: '44444444-4444-4444-8444-444444444444',
        propertyAddress: '12 Acacia Avenue',
        targetCompletion: null,
      }),
      stream: 'deal-d',
    };
    expect(redactDeleted(edited, gone).data).toEqual({
      dealId: '44444444-4444-4444-8444-444444444444',
      propertyAddress: '',
      targetCompletion: null,
    });
  });

  it("keeps everything of people still here, and a deal's figures whoever left", () => {
    const party = (agentId: number, ownerId: string, type: 'borrower' | 'lender') => ({ agentId, ownerId, name: `Agent ${agentId}`, type });
    const opened = envelope(
      'DealOpened',
      dealOpened({ borrower: party(1, 'carol', 'borrower'), lender: party(2, 'dan', 'lender'), loanAmount: 236_000 }).data,
    );
    const inDeal = { ...opened, stream: 'deal-d' };
    expect(redactDeleted(inDeal, people(['erin']))).toBe(inDeal);
    const redacted = redactDeleted(inDeal, people(['carol']));
    expect(redacted.data).toMatchObject({ borrower: { agentId: 1, name: '' }, lender: { name: 'Agent 2' }, loanAmount: 236_000 });
    expect(redacted.redacted).toEqual(['data.borrower']);
  });

  it('drops the session a deleted person acted in, keeping who acted', () => {
    const paused = envelope('AgentPaused', { agentId: 4 }, { kind: 'user', userId: 'carol', sessionId: 's-1' });
    const redacted = redactDeleted(paused, people(['carol']));
    expect(redacted.metadata.actor).toEqual({ kind: 'user', userId: 'carol' });
    expect(redacted.redacted).toEqual(['metadata.actor.sessionId']);
  });
});
