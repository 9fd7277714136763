import { describe, expect, it } from 'vitest';
import type { EventMetadata } from '@pf/events';
import { CHAIN_KEY, splitChain, toEventData } from './esdb-mapping';

const metadata: EventMetadata = { actor: { kind: 'agent', agentId: 3 }, correlationId: 'c', causationId: 'x' };

// The EventStoreDB adapter cannot run here (no server or container runtime): its mapping of the chain is pure.
describe('EventStoreDB mapping of the hash chain', () => {
  it('stores the chain stamp beside the metadata and gives the event back its own metadata, time and link', () => {
    const chain = { recordedAt: '2026-01-01T09:00:00.123Z', hash: 'a'.repeat(64), previousHash: null };
    const written = toEventData({ id: '00000000-0000-4000-8000-000000000001', type: 'T', data: { n: 1 }, metadata }, chain);
    expect(written.metadata).toEqual({ ...metadata, [CHAIN_KEY]: chain });
    expect(splitChain(written.metadata as Record<string, unknown>)).toEqual({ metadata, chain });
  });

  it('reads an event stored before the chain as unchained', () => {
    expect(splitChain(metadata as unknown as Record<string, unknown>)).toEqual({ metadata, chain: null });
  });
});
