import { describe, expect, it } from 'vitest';
import type { FeedEnvelope } from '@pf/events';
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

const people = (deleted: string[], owners: Record<number, string> = {}): PeopleOfBatch => ({
  deleted: new Set(deleted),
  ownerOf: (agentId) => owners[agentId],
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
    // An automated message of the same agent is the engine's words, not theirs: kept.
    const automated = envelope('MessageSent', { ...(typed.data as object), isAutomated: true });
    expect(redactDeleted(automated, people(['carol'], { 4: 'carol' }))).toBe(automated);
  });

  it("keeps everything of people still here, and a deal's figures whoever left", () => {
    const party = (agentId: number, ownerId: string) => ({ agentId, ownerId, name: `Agent ${agentId}`, type: 'borrower' });
    const opened = envelope('DealOpened', {
      dealId: 'd',
      borrower: party(1, 'carol'),
      lender: party(2, 'dan'),
      broker: null,
      loanAmount: 236_000,
    });
    expect(redactDeleted(opened, people(['erin']))).toBe(opened);
    const redacted = redactDeleted(opened, people(['carol']));
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
