import type { ConversationView } from '@pf/events';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { conversationQueryOptions } from './conversation-query';
import { applyPush } from './live/apply-push';
import { resetPosition } from './position';
import { queryKeys } from './query-keys';

const conversation = (isManualMode: boolean, updatedAt: string): ConversationView => ({
  id: 5,
  title: 'Amelia Hart and Northgate',
  status: 'active',
  outcome: null,
  isManualMode,
  control: [],
  participants: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt,
});

/** The read side answers this conversation, stating the position the answer reflects. */
function readAnswers(view: ConversationView, position: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(view), { status: 200, headers: { 'x-position': position } })),
  );
}

afterEach(() => vi.unstubAllGlobals());

// docs/architecture.md "A read": the answer says which position it reflects, and the console keeps the newest
// view it has seen per conversation (position.ts), so a late answer never overwrites a fresher push.
describe('a conversation read against the pushes', () => {
  it('keeps a push of a later state over a read that answers after it from an earlier position, and takes a newer read', async () => {
    resetPosition();
    const client = new QueryClient();
    readAnswers(conversation(false, '2026-01-02'), '19:1');
    // The push of the takeover (20:1) reaches the cache while the read (answered at 19:1) is on its way.
    const fetching = client.fetchQuery(conversationQueryOptions(5));
    const taken = conversation(true, '2026-01-03');
    applyPush(client, { type: 'conversation_updated', conversation: taken, position: '20:1', previousPosition: null });
    await fetching;
    expect(client.getQueryData(queryKeys.conversation(5))).toEqual(taken);

    const handedBack = conversation(false, '2026-01-04');
    readAnswers(handedBack, '21:3');
    await client.refetchQueries({ queryKey: queryKeys.conversation(5) });
    expect(client.getQueryData(queryKeys.conversation(5))).toEqual(handedBack);
  });
});
