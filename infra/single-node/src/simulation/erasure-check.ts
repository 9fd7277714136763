import type { ApiClient } from '../testing/api-client';
import type { PushRecorder } from './gateway-check';
import type { Violation } from './invariants';

/** One person reading the product: their client for reads and their socket's pushes. */
export interface Reader {
  readonly name: string;
  readonly client: ApiClient;
  readonly recorder: PushRecorder;
}

/** What a person reads that can name another firm's agent: the conversations list, notifications and deals. */
const READS = ['/api/conversations', '/api/notifications', '/api/deals'];

/**
 * A deleted person's personal data is gone from every answer and every push (docs/decisions/hash-chain.md
 * "Erasure"): with the node idle after the step, no reader's conversations, notifications or deals, and no
 * conversation last pushed to them, holds the name of an agent whose owner's deletion was answered. Each name is
 * unique to its owner (membership-steps.ts names every newcomer's agent after them).
 */
export async function deletedDataGone(erased: readonly string[], readers: readonly Reader[]): Promise<Violation[]> {
  if (erased.length === 0) return [];
  const found: Violation[] = [];
  const look = (where: string, text: string) => {
    for (const name of erased.filter((n) => text.includes(n)))
      found.push({ invariant: "a deleted person's data is gone", detail: `${where} still holds "${name}"` });
  };
  for (const reader of readers) {
    for (const path of READS) {
      const answer = await reader.client.get(path);
      look(`${reader.name}'s GET ${path} (${answer.status})`, JSON.stringify(answer.body));
    }
    await reader.recorder.settle();
    for (const [id, pushed] of reader.recorder.conversations)
      look(`${reader.name}'s last push of conversation ${id}`, JSON.stringify(pushed));
  }
  return found;
}
