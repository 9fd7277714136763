import WebSocket from 'ws';
import { closeSocket } from './close-socket';
import type { ConversationView } from '@pf/events';
import type { ApiClient } from '../testing/api-client';
import type { Violation } from './invariants';

/** What a person reads of a conversation in a list or its header: compared between the pushes and the read model. */
const visible = (view: ConversationView) => ({
  id: view.id,
  title: view.title,
  status: view.status,
  outcome: view.outcome,
  isManualMode: view.isManualMode,
  participants: view.participants,
  control: view.control.map(({ agentIds, isMine, isManual, controllerName, sessionId }) => ({
    agentIds,
    isMine,
    isManual,
    controllerName,
    sessionId,
  })),
});

/**
 * One person's live socket on /ws, keeping the last conversation each push described. `settle` sends a request
 * and waits for its answer: every push sent before it has then arrived (one socket keeps its order).
 */
export class PushRecorder {
  readonly conversations = new Map<number, ConversationView>();
  private waiting = new Map<string, () => void>();
  private counter = 0;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const push = JSON.parse((data as Buffer).toString()) as { type: string; requestId?: string | null; conversation?: ConversationView };
      if (push.type === 'conversation_updated' && push.conversation) this.conversations.set(push.conversation.id, push.conversation);
      if ((push.type === 'ack' || push.type === 'error') && push.requestId) this.waiting.get(push.requestId)?.();
    });
  }

  static open(baseUrl: string, client: ApiClient): Promise<PushRecorder> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie: client.cookie, origin: baseUrl } });
      ws.once('open', () => resolve(new PushRecorder(ws)));
      ws.once('error', reject);
    });
  }

  settle(timeoutMs = 10_000): Promise<void> {
    const requestId = `settle-${++this.counter}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the gateway did not answer within 10 s')), timeoutMs);
      this.waiting.set(requestId, () => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve();
      });
      this.ws.send(JSON.stringify({ type: 'unsubscribe', requestId, conversationId: 1 }));
    });
  }

  close(): Promise<void> {
    return closeSocket(this.ws);
  }
}

/** The gateway's pushes equal the read models: each conversation's last push, as the person's read of it. */
export async function pushesEqualReadModels(name: string, client: ApiClient, recorder: PushRecorder): Promise<Violation[]> {
  await recorder.settle();
  const found: Violation[] = [];
  for (const [id, pushed] of recorder.conversations) {
    const read = await client.get(`/api/conversations/${id}`);
    if (read.status !== 200) {
      found.push({
        invariant: 'gateway pushes equal the read models',
        detail: `${name} was pushed conversation ${id}, which the read model answers ${read.status}`,
      });
      continue;
    }
    const a = JSON.stringify(visible(pushed));
    const b = JSON.stringify(visible(read.body as ConversationView));
    if (a !== b)
      found.push({ invariant: 'gateway pushes equal the read models', detail: `${name}'s conversation ${id}: pushed ${a}, read ${b}` });
  }
  return found;
}
