import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api } from '../api-client';
import { LiveConnection } from './live-connection';

/** The browser's WebSocket as the test plays it: what the console sent, and the server's side (open, close). */
class FakeSocket {
  static readonly OPEN = 1;
  static opened: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  lose() {
    this.readyState = 3;
    this.onclose?.();
  }
}

// docs/decisions/idempotency-keys.md: a write left unanswered keeps its key for the same write sent again. A
// message sent on the socket whose answer was lost, sent again over HTTP (the socket is down), is the same write:
// it carries the same key, so the server, which got the first, answers it again instead of posting it twice.
describe("a socket write sent again over HTTP keeps the socket's Idempotency-Key", () => {
  afterEach(() => {
    FakeSocket.opened = [];
    vi.unstubAllGlobals();
  });

  it('posts a message whose socket answer was lost with the key it had on the socket', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const keys: (string | null)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_path: string, init: RequestInit) => {
        keys.push(new Headers(init.headers).get('idempotency-key'));
        return new Response('{}', { status: 201 });
      }),
    );
    const live = new LiveConnection(new QueryClient(), 'ws://console.test/ws');
    live.start();
    try {
      const socket = FakeSocket.opened[0]!;
      socket.open();
      const sending = live.request({ type: 'send_message', conversationId: 7, fromAgentId: 3, content: 'Hello', isAutomated: false });
      const onSocket = socket.sent.find((message) => (message as { type: string }).type === 'send_message') as { idempotencyKey?: string };
      expect(onSocket.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
      socket.lose();
      await expect(sending).rejects.toThrow('Connection lost');

      await api.post('/api/conversations/7/messages', z.unknown(), { content: 'Hello', fromAgentId: 3 });
      expect(keys).toEqual([onSocket.idempotencyKey]);
    } finally {
      live.stop();
    }
  });
});
