import { httpCommandOf, serverMessage, type ClientMessage, type ServerPush } from '@pf/events';
import type { QueryClient } from '@tanstack/react-query';
import { createActor, type ActorRefFrom } from 'xstate';
import { notePosition } from '../position';
import { answered, isTransientStatus, keyFor, leftUnanswered, requestIdentity } from '../write-keys';
import { applyPush } from './apply-push';
import { admitPush, initialSequence, onNewSocket, type SequenceState } from './push-sequence';
import { socketMachine } from './socket-machine';
import { forgetPresence, noteControlDeclined, noteControlRequest, notePresence } from './presence';
import { clearTyping, noteTyping } from './typing';

type Command = Extract<ClientMessage, { type: 'send_message' | 'manual_override' | 'request_control' | 'hand_over' | 'decline_control' }>;
type WithoutRequestId<T> = T extends unknown ? Omit<T, 'requestId'> : never;
type Write = WithoutRequestId<Extract<Command, { type: 'send_message' | 'manual_override' | 'hand_over' }>>;

/** The commands that change something (the others are signals between people): each carries its key. */
const isWrite = (command: WithoutRequestId<Command>): command is Write =>
  command.type === 'send_message' || command.type === 'manual_override' || command.type === 'hand_over';

const ACK_TIMEOUT_MS = 10_000;
/** A composer says "typing" at most this often; the gateway shows it for a few seconds after each. */
const TYPING_EVERY_MS = 2000;

/** What a push is about, so that two pushes of one event (same position) are told apart. */
function pushKey(push: ServerPush): string {
  switch (push.type) {
    case 'message_created':
      return `${push.type}:${push.message.id}`;
    case 'conversation_updated':
      return `${push.type}:${push.conversation.id}`;
    case 'agent_updated':
      return `${push.type}:${push.agentId}`;
    case 'stats_changed':
      return push.type;
    case 'views_changed':
      return `${push.type}:${push.views.join(',')}`;
  }
}

/** /ws on the same host, wss when the page is https. */
export function socketUrl(location: Location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

/**
 * The console's live link: one socket for the signed-in shell. It follows the conversations on screen, writes
 * every push into the query cache, drops duplicates, refetches on a gap, and resumes after a reconnect.
 */
export class LiveConnection {
  readonly actor: ActorRefFrom<typeof socketMachine>;
  private sequence: SequenceState = initialSequence;
  private readonly following = new Map<number, number>();
  private readonly pending = new Map<string, { resolve: (position: string | null) => void; reject: (e: Error, status?: number) => void }>();
  private nextRequest = 1;
  private readonly typingSent = new Map<number, number>();

  constructor(
    private readonly queryClient: QueryClient,
    url: string,
  ) {
    const machine = socketMachine.provide({
      actions: {
        connected: (_, { reconnect }) => this.onConnected(reconnect),
        received: (_, { data }) => this.onReceived(data),
        disconnected: () => this.failPending('Connection lost'),
      },
    });
    this.actor = createActor(machine, { input: { url } });
  }

  start(): void {
    this.actor.start();
  }

  stop(): void {
    this.failPending('Connection closed');
    this.actor.stop();
  }

  isOpen(): boolean {
    return this.actor.getSnapshot().matches({ live: 'open' });
  }

  /** Follows a conversation while the returned function has not been called (counted, for two views of one id). */
  follow(conversationId: number): () => void {
    const count = this.following.get(conversationId) ?? 0;
    this.following.set(conversationId, count + 1);
    if (count === 0) this.send({ type: 'subscribe', conversationId });
    return () => {
      const left = (this.following.get(conversationId) ?? 1) - 1;
      if (left > 0) return void this.following.set(conversationId, left);
      this.following.delete(conversationId);
      this.send({ type: 'unsubscribe', conversationId });
    };
  }

  /** The person is typing in a conversation's composer: told to the others following it, throttled. */
  typing(conversationId: number, now = Date.now()): void {
    if (!this.isOpen() || now - (this.typingSent.get(conversationId) ?? -Infinity) < TYPING_EVERY_MS) return;
    this.typingSent.set(conversationId, now);
    this.send({ type: 'typing', conversationId });
  }

  /**
   * Sends a command and settles with the gateway's ack (its position) or error message. A write carries its
   * Idempotency-Key (docs/decisions/idempotency-keys.md, write-keys.ts): one left without an answer (no ack in time,
   * the socket lost) keeps its key, so the same command sent again, on this socket or the next, is carried out once.
   * It is keyed as the HTTP command it stands for (httpCommandOf), so sent again over HTTP it keeps its key too.
   */
  request(command: WithoutRequestId<Command>): Promise<string | null> {
    if (!this.isOpen()) return Promise.reject(new Error('The live connection is not open'));
    const requestId = `r${this.nextRequest++}`;
    const http = isWrite(command) ? httpCommandOf(command) : null;
    const identity = http === null ? null : requestIdentity(http.method, http.url, http.body);
    const key = identity === null ? null : keyFor(identity);
    return new Promise((resolve, reject) => {
      const unanswered = (error: Error) => {
        if (identity !== null && key !== null) leftUnanswered(identity, key);
        reject(error);
      };
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        unanswered(new Error('No answer from the live connection'));
      }, ACK_TIMEOUT_MS);
      this.pending.set(requestId, {
        resolve: (position) => {
          clearTimeout(timer);
          if (identity !== null) answered(identity);
          resolve(position);
        },
        reject: (error, status) => {
          clearTimeout(timer);
          // A refusal is an answer; no status (the socket closed, the command-service unreachable) or a status a
          // retry can get past is not.
          if (identity !== null && status !== undefined && !isTransientStatus(status)) {
            answered(identity);
            reject(error);
          } else unanswered(error);
        },
      });
      this.send(isWrite(command) && key !== null ? { ...command, requestId, idempotencyKey: key } : { ...command, requestId });
    });
  }

  private send(message: ClientMessage): void {
    if (this.actor.getSnapshot().status !== 'active') return;
    this.actor.send({ type: 'SEND', message });
  }

  private onConnected(reconnect: boolean): void {
    this.sequence = onNewSocket(this.sequence);
    forgetPresence();
    this.typingSent.clear();
    for (const conversationId of this.following.keys()) this.send({ type: 'subscribe', conversationId });
    if (this.sequence.lastSeen) this.send({ type: 'resume', afterPosition: this.sequence.lastSeen });
    // Without a position to resume from, what happened while we were away can only be read again.
    else if (reconnect) void this.queryClient.invalidateQueries();
  }

  private onReceived(data: string): void {
    let parsed;
    try {
      parsed = serverMessage.safeParse(JSON.parse(data));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'ack' || message.type === 'error') return this.settle(message);
    if (message.type === 'typing') return noteTyping(message.conversationId, message.agentName);
    if (message.type === 'presence') return notePresence(message.conversationId, { viewers: message.viewers, typers: message.typers });
    if (message.type === 'control_requested') return noteControlRequest(message.conversationId, message);
    if (message.type === 'control_declined') return noteControlDeclined(message.conversationId, message);
    const { verdict, state } = admitPush(this.sequence, { ...message, key: pushKey(message) });
    this.sequence = state;
    if (verdict === 'duplicate') return;
    notePosition(message.position);
    if (message.type === 'message_created') clearTyping(message.conversationId);
    applyPush(this.queryClient, message);
    if (verdict === 'gap') void this.queryClient.invalidateQueries();
  }

  private settle(message: {
    type: 'ack' | 'error';
    requestId: string | null;
    position?: string | null;
    message?: string;
    status?: number;
  }) {
    if (!message.requestId) return;
    const waiting = this.pending.get(message.requestId);
    if (!waiting) return;
    this.pending.delete(message.requestId);
    if (message.type === 'ack') {
      notePosition(message.position);
      waiting.resolve(message.position ?? null);
    } else waiting.reject(new Error(message.message ?? 'Refused'), message.status);
  }

  private failPending(reason: string): void {
    for (const waiting of this.pending.values()) waiting.reject(new Error(reason));
    this.pending.clear();
  }
}
