import { randomUUID } from 'node:crypto';
import type { EventStore } from '@pf/infra';
import { round, unitsPerSecond } from '../lib/stats';

export interface AppendResult {
  readonly append_events_per_s_batch10: number;
  readonly append_events_per_s_batch1: number;
}

/** `writers` writers side by side, each appending to a stream of its own with the expected version checked. */
async function appendFor(store: EventStore, writers: number, batch: number, seconds: number): Promise<number> {
  const versions = Array.from({ length: writers }, () => -1);
  const streamsOf = Array.from({ length: writers }, () => `bench-${randomUUID()}`);
  return unitsPerSecond(writers, seconds, async (writer) => {
    const events = Array.from({ length: batch }, (_, i) => ({
      id: randomUUID(),
      type: 'MessageSent',
      data: {
        conversationId: writer + 1,
        messageId: i + 1,
        fromAgentId: 1,
        toAgentId: 2,
        content: 'Could we look at a two-year fix at 4.2%?',
        isAutomated: true,
      },
      metadata: { actor: { kind: 'agent' as const, agentId: 1 }, correlationId: randomUUID(), causationId: null },
    }));
    const expected = versions[writer] === -1 ? 'no_stream' : versions[writer]!;
    const result = await store.append(streamsOf[writer]!, events, expected);
    versions[writer] = result.nextExpectedVersion;
    return batch;
  });
}

export async function measureAppend(store: EventStore, options: { writers: number; seconds: number }): Promise<AppendResult> {
  await appendFor(store, options.writers, 10, 1);
  const batched = await appendFor(store, options.writers, 10, options.seconds);
  const single = await appendFor(store, options.writers, 1, options.seconds);
  return { append_events_per_s_batch10: round(batched, 0), append_events_per_s_batch1: round(single, 0) };
}
