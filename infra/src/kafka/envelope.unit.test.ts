import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../event-store/port';
import { parseMessage, toMessage } from './envelope';

const event: StoredEvent = {
  id: '6f1c2a9e-3b7d-4f0a-9c2e-1d5b8a7e4c3f',
  type: 'DealAgreed',
  stream: 'conversation-12',
  streamVersion: 9,
  position: { commit: 18446744073709551615n, prepare: 42n },
  recordedAt: new Date('2025-03-04T05:06:07.890Z'),
  data: { amount: 250_000 },
  metadata: { actor: { kind: 'agent', agentId: 3 }, correlationId: 'c', causationId: 'e' },
};

describe('Kafka event messages', () => {
  it('round-trips an event through the JSON envelope, 64-bit positions included', () => {
    const message = toMessage(event);
    expect(message.key).toBe('conversation-12');
    expect(JSON.parse(message.value)).toMatchObject({ position: '18446744073709551615:42', recordedAt: '2025-03-04T05:06:07.890Z' });
    expect(parseMessage(Buffer.from(message.value))).toEqual(event);
  });

  it('rejects a message that is not an event envelope, saying why', () => {
    expect(() => parseMessage(null)).toThrow('no value');
    expect(() => parseMessage('{"id":"x"}')).toThrow('Not an event envelope');
    expect(() => parseMessage(JSON.stringify({ ...JSON.parse(toMessage(event).value), position: 'late' }))).toThrow(
      'Not an event envelope',
    );
  });
});
