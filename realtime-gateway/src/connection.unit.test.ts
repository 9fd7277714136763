import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SessionUser } from '@pf/infra';
import { Connection } from './connection';
import type { PushBody } from './deliveries';

/** A socket that keeps what it was sent (the frames' data as the ws library would be handed it). */
function recordingSocket() {
  const sent: (string | Buffer)[] = [];
  const socket = {
    readyState: WebSocket.OPEN,
    bufferedAmount: 0,
    send: (data: string | Buffer) => sent.push(data),
    terminate: () => undefined,
  };
  return { socket: socket as unknown as WebSocket, sent };
}

const user = { id: 'u1', firmId: 'f1', sessionId: 's1' } as SessionUser;
const limits = { maxBufferedBytes: 1 << 20, burst: 10, perSecond: 10 };
const position = (prepare: number) => ({ commit: 7n, prepare: BigInt(prepare) });

describe('a connection’s pushes', () => {
  it('carry the body with the socket’s own position chain, the text shared by sockets sent the same pushes', () => {
    const [a, b, c] = [recordingSocket(), recordingSocket(), recordingSocket()];
    const [first, second, third] = [a, b, c].map(({ socket }) => new Connection(socket, user, '', 't', limits));
    for (const connection of [first!, second!, third!]) connection.endOpeningHold();
    const earlier: PushBody = { type: 'stats_changed' };
    const body: PushBody = { type: 'views_changed', views: ['deals', 'notifications'] };
    first!.push(position(1), earlier);
    second!.push(position(1), earlier);
    for (const connection of [first!, second!, third!]) connection.push(position(2), body);

    const parsed = (data: string | Buffer) => JSON.parse(data.toString()) as Record<string, unknown>;
    expect(a.sent.map(parsed)).toEqual([
      { type: 'stats_changed', position: '7:1', previousPosition: null },
      { type: 'views_changed', views: ['deals', 'notifications'], position: '7:2', previousPosition: '7:1' },
    ]);
    expect(parsed(c.sent[0]!)).toEqual({
      type: 'views_changed',
      views: ['deals', 'notifications'],
      position: '7:2',
      previousPosition: null,
    });
    // Made once for the two sockets whose chains agree; the third's differs.
    expect(b.sent[1]).toBe(a.sent[1]);
    expect(c.sent[0]).not.toBe(a.sent[1]);
  });
});
