/**
 * docs/architecture.md, "Stored events": the gateway reads stored events through the contract's reader and goes on
 * past one the contract refuses, pushing nothing for it.
 */
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@pf/infra';
import { readEvent } from './read-event';

const stored = (type: string, data: unknown): StoredEvent => ({
  id: 'e1',
  type,
  data,
  stream: 'agent-7',
  streamVersion: 0,
  position: { commit: 1n, prepare: 1n },
  recordedAt: new Date('2026-01-01T09:00:00Z'),
  metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
});
const agentBeforeFirms = {
  agentId: 7,
  ownerId: 'user-1',
  name: 'Amelia Hart',
  type: 'borrower',
  description: 'First-time buyer',
  criteria: null,
};

describe("the gateway's reader of stored events", () => {
  it('upgrades an event recorded before firms, as every reader does', () => {
    const event = readEvent(stored('AgentCreated', agentBeforeFirms));
    expect(event?.type === 'AgentCreated' && event.data.firmId).toBe('user-1');
  });

  it('answers null for an event the contract refuses (a type added later, or bad data), so nothing is pushed for it', () => {
    expect(readEvent(stored('NoSuchEvent', {}))).toBeNull();
    expect(readEvent(stored('AgentCreated', { ...agentBeforeFirms, agentId: 'seven' }))).toBeNull();
  });
});
