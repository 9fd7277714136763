import WebSocket from 'ws';
import { compareTokens, serverMessage, type ServerMessage } from '@pf/events';
import { waitFor } from './wait';

type Push = Extract<ServerMessage, { position: string }>;

/**
 * A console's live socket that reconnects as the console does: when the socket drops it opens a new one
 * and resumes after the last position it was pushed. It keeps every push, to check that nothing was
 * missed and nothing came twice across the reconnections.
 */
export class LiveSocket {
  readonly pushes: Push[] = [];
  /** Which socket (0 for the first, 1 after the first reconnection, ...) brought each push. */
  private readonly generations: number[] = [];
  reconnections = 0;
  private socket: WebSocket | null = null;
  private lastPosition: string | null = null;
  private closed = false;
  private opened: Promise<void>;

  constructor(
    private readonly wsUrl: () => string,
    private readonly headers: { cookie: string; origin: string },
  ) {
    this.opened = this.open();
  }

  /** Resolves when the first socket is open. */
  ready(): Promise<void> {
    return this.opened;
  }

  private open(): Promise<void> {
    return new Promise((resolve) => {
      const attempt = () => {
        if (this.closed) return resolve();
        const socket = new WebSocket(this.wsUrl(), { headers: this.headers });
        socket.on('open', () => {
          this.socket = socket;
          if (this.lastPosition) socket.send(JSON.stringify({ type: 'resume', afterPosition: this.lastPosition, requestId: 'resume' }));
          resolve();
        });
        socket.on('message', (data) => {
          const message = serverMessage.parse(JSON.parse((data as Buffer).toString()));
          if ('position' in message && 'previousPosition' in message) {
            this.pushes.push(message);
            this.generations.push(this.reconnections);
            this.lastPosition = message.position;
          }
        });
        socket.on('error', () => undefined);
        socket.on('close', () => {
          if (this.socket === socket) this.socket = null;
          if (this.closed) return;
          if (socket.readyState === WebSocket.CLOSED && this.socket === null) {
            this.reconnections++;
            setTimeout(attempt, 200);
          }
        });
      };
      attempt();
    });
  }

  /** Agent ids pushed as created (agent_updated with a view), as often as each was pushed. */
  agentPushes(): number[] {
    return this.pushes.flatMap((push) => (push.type === 'agent_updated' && push.agent ? [push.agentId] : []));
  }

  /**
   * Breaks in the chain of positions, described: on each socket the first push names no previous one and
   * every later push names the one before it; across the reconnections positions only move forward (a
   * resume replays strictly after the last position pushed, so nothing comes twice).
   */
  chainBreaks(): string[] {
    const breaks: string[] = [];
    this.pushes.forEach((push, index) => {
      const previous = index > 0 ? this.pushes[index - 1]! : null;
      const sameSocket = previous !== null && this.generations[index - 1] === this.generations[index];
      const expected = sameSocket ? previous.position : null;
      if (push.previousPosition !== expected)
        breaks.push(`push ${index} (${push.position}) names ${push.previousPosition}, expected ${expected}`);
      if (previous && compareTokens(push.position, previous.position) < 0)
        breaks.push(`push ${index} went back: ${previous.position} -> ${push.position}`);
      if (previous && !sameSocket && compareTokens(push.position, previous.position) === 0)
        breaks.push(`push ${index} repeated ${push.position} after reconnecting`);
    });
    return breaks;
  }

  /** Waits until each of `ids` has been pushed as created (at least once: expectPushedOnce checks the once). */
  async untilPushed(ids: Iterable<number>, timeoutMs = 30_000): Promise<void> {
    const wanted = [...ids];
    await waitFor(
      `pushes of ${wanted.length} agents`,
      () => {
        const pushed = new Set(this.agentPushes());
        return wanted.every((id) => pushed.has(id));
      },
      timeoutMs,
    ).catch((error: Error) => {
      const pushed = new Set(this.agentPushes());
      throw new Error(`${error.message}; never pushed: ${JSON.stringify(wanted.filter((id) => !pushed.has(id)))}`);
    });
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }
}
