/**
 * docs/architecture.md, "Stored events": every event read back from the store is upgraded from the shape it was
 * recorded in, then validated against the contract, in one reader; an event it cannot read is named, never cast.
 */
import { describe, expect, it } from 'vitest';
import { InvalidStoredEventError, readStoredEvent, readStoredEventOrNull } from './stored-events';

const agentBeforeFirms = {
  type: 'AgentCreated',
  data: { agentId: 7, ownerId: 'user-1', name: 'Amelia Hart', type: 'borrower', description: 'First-time buyer', criteria: null },
};

describe('the reader of stored events', () => {
  it('upgrades a shape recorded before firms to today’s: the agent belongs to its owner’s firm of one', () => {
    const event = readStoredEvent(agentBeforeFirms);
    expect(event.type).toBe('AgentCreated');
    expect(event.type === 'AgentCreated' && event.data.firmId).toBe('user-1');
  });

  it('keeps an event already in today’s shape as it was recorded', () => {
    const today = { ...agentBeforeFirms, data: { ...agentBeforeFirms.data, firmId: 'firm-9' } };
    const event = readStoredEvent(today);
    expect(event.type === 'AgentCreated' && event.data.firmId).toBe('firm-9');
  });

  it('refuses an event that is not the contract’s, naming the event and the field', () => {
    const broken = { type: 'AgentCreated', data: { ...agentBeforeFirms.data, agentId: 'seven' } };
    expect(() => readStoredEvent(broken)).toThrow(InvalidStoredEventError);
    expect(() => readStoredEvent(broken)).toThrow(/A stored AgentCreated event does not match the contract: data\.agentId/);
    expect(() => readStoredEvent({ type: 'NoSuchEvent', data: {} })).toThrow(/A stored NoSuchEvent event/);
  });

  it('answers null instead, for a reader that must go on past what it cannot read', () => {
    expect(readStoredEventOrNull({ type: 'NoSuchEvent', data: {} })).toBeNull();
    expect(readStoredEventOrNull(agentBeforeFirms)?.type).toBe('AgentCreated');
  });
});
