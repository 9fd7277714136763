import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { comparePositions, formatPosition, type Position, type ServerMessage } from '@pf/events';
import type { SessionUser } from '@pf/infra';
import type { Delivery, PushBody } from './deliveries';
import { TokenBucket } from './rate-limit';

export interface ConnectionLimits {
  /** Unsent bytes beyond which a slow client is cut off rather than allowed to grow the server's memory. */
  readonly maxBufferedBytes: number;
  readonly burst: number;
  readonly perSecond: number;
}

/** One browser socket: who it is, what it follows, and the chain of positions it was sent. */
export class Connection {
  /** Scopes the Idempotency-Key of this socket's commands: requestIds are only unique per socket. */
  readonly id = randomUUID();
  readonly subscriptions = new Set<number>();
  readonly limiter: TokenBucket;
  alive = true;
  private previous: string | null = null;
  /** Pushes at or below this position were already replayed (resume); live copies are dropped. */
  private floor: Position | null = null;
  /**
   * Live pushes wait here while a resume replays, and from the moment the socket opens until its
   * resume (or the opening window passes): a reconnecting console sends resume straight away, and a
   * live push sent before it would overtake what the replay still has to send.
   */
  private held: { position: Position; body: PushBody }[] | null = [];
  private resuming = false;
  /** Incoming messages are handled one at a time, in order (a subscribe before a resume counts). */
  queue: Promise<void> = Promise.resolve();

  constructor(
    readonly socket: WebSocket,
    readonly user: SessionUser,
    /** The browser's Cookie header, forwarded with each command. */
    readonly cookie: string,
    readonly sessionToken: string,
    private readonly limits: ConnectionLimits,
  ) {
    this.limiter = new TokenBucket(limits.burst, limits.perSecond, Date.now());
  }

  wants(delivery: Delivery): boolean {
    if (!delivery.everyone && !delivery.firms.includes(this.user.firmId) && !delivery.users?.includes(this.user.id)) return false;
    return delivery.onlyFollowersOf === undefined || this.subscriptions.has(delivery.onlyFollowersOf);
  }

  /** A live push. */
  push(position: Position, body: PushBody): void {
    if (this.held) this.held.push({ position, body });
    else this.deliver(position, body);
  }

  beginResume(): void {
    this.resuming = true;
    this.held ??= [];
  }

  /** A push read back from the store during a resume. */
  replay(position: Position, body: PushBody): void {
    this.deliver(position, body);
  }

  /** Ends a resume: everything up to `floor` has been replayed; the held live pushes follow. */
  endResume(floor: Position): void {
    this.resuming = false;
    this.release(floor);
  }

  /** The opening window passed without a resume: live pushes flow from here on. */
  endOpeningHold(): void {
    if (!this.resuming) this.release(null);
  }

  private release(floor: Position | null): void {
    if (floor && (!this.floor || comparePositions(floor, this.floor) > 0)) this.floor = floor;
    const held = this.held ?? [];
    this.held = null;
    for (const { position, body } of held) this.deliver(position, body);
  }

  private deliver(position: Position, body: PushBody): void {
    if (this.floor && comparePositions(position, this.floor) <= 0) return;
    const token = formatPosition(position);
    this.sendFrame(pushText(body, token, this.previous));
    this.previous = token;
  }

  send(message: ServerMessage): void {
    this.sendFrame(JSON.stringify(message));
  }

  private sendFrame(data: string | Buffer): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(data, { binary: false });
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes) this.socket.terminate();
  }

  /** Resolves once the unsent buffer is below a quarter of the limit (a replay waits between batches). */
  async drained(): Promise<void> {
    while (this.socket.readyState === WebSocket.OPEN && this.socket.bufferedAmount > this.limits.maxBufferedBytes / 4) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }
}

/** Each push body's text, by the position it is sent at and the one sent before it (see pushText). */
const pushTexts = new WeakMap<PushBody, Map<string, Buffer>>();

/**
 * A push as its socket sends it: the body with its position and the previous one the socket was sent, as UTF-8
 * text. A body goes to every socket of a firm that follows it, and sockets that were sent the same pushes
 * share the previous position, so the text is made once for all of them rather than once a socket (a thousand
 * sockets following one conversation: bench/README.md, `ws_push_ms`).
 */
function pushText(body: PushBody, position: string, previous: string | null): Buffer {
  let texts = pushTexts.get(body);
  if (!texts) pushTexts.set(body, (texts = new Map<string, Buffer>()));
  const key = `${position} ${previous ?? ''}`;
  let text = texts.get(key);
  if (!text) texts.set(key, (text = Buffer.from(JSON.stringify({ ...body, position, previousPosition: previous }))));
  return text;
}
