import { presenceSignal, type PresenceSignal, type ViewingEntry } from '@pf/events';
import { displayName, type FollowerSpec, type Logger, type SessionStore } from '@pf/infra';
import type pg from 'pg';
import type { Connection } from './connection';
import type { Follower } from './follower';
import { PresenceBoard, sessionKey, type Person, type PresenceView } from './presence-board';
import { notifyPresence, PRESENCE_CHANNEL, viewingSignals } from './presence-signal';
import { notificationListener } from './typing-listener';
import { canSeeConversation } from './view-index';

/**
 * Whether a request for control reaches only the session holding the side (docs/decisions/per-side-control.md).
 * A switch that exists for the simulation's broken-rule test only: off, a request reaches every session of the
 * holder's firm following the conversation, and the simulation must catch it.
 */
export const controlRequestRule = { onlyTheHolder: true };

export interface PresenceOptions {
  /** How often this copy re-announces its viewers; each announcement lasts three of these. */
  readonly heartbeatMs: number;
  /** How long a person is shown typing after their last typing signal. */
  readonly typingMs: number;
}

/**
 * Who is viewing and typing in each conversation, shared by every gateway copy through NOTIFY (see
 * PresenceBoard for the expiry that makes a crashed copy's viewers disappear), and requests for control of a side
 * (control-requests.ts): each reaches only the session it is for. Only the firms of a conversation's agents
 * following it are told.
 */
export class Presence {
  private readonly board = new PresenceBoard();
  /** Each socket's person as last read from its session (names follow a profile edit at the next subscribe). */
  private readonly people = new WeakMap<Connection, Person>();
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly sessions: SessionStore,
    private readonly follower: Follower,
    private readonly log: Logger,
    private readonly options: PresenceOptions,
    /** This copy, so that its sockets' keys differ from another copy's. */
    private readonly copyId: string,
  ) {}

  listener(): FollowerSpec {
    return notificationListener(this.pool, this.log, 'presence listener', PRESENCE_CHANNEL, (payload) => {
      const parsed = presenceSignal.safeParse(JSON.parse(payload));
      if (parsed.success) this.onSignal(parsed.data, Date.now());
    });
  }

  start(): void {
    const heartbeat = setInterval(() => void this.announceAll(), this.options.heartbeatMs);
    // Typers run out after seconds: sweeping a few times a second keeps the shown list close to that.
    const sweep = setInterval(
      () => {
        for (const conversationId of this.board.sweep(Date.now())) this.pushTo(conversationId);
      },
      Math.min(250, this.options.heartbeatMs),
    );
    heartbeat.unref();
    sweep.unref();
    this.timers = [heartbeat, sweep];
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** A socket follows a conversation: it is shown who else is there, and announced to them. */
  async viewing(connection: Connection, conversationId: number): Promise<void> {
    const fresh = await this.sessions.findUser(connection.sessionToken, { touch: false }).catch(() => null);
    const user = fresh ?? connection.user;
    this.people.set(connection, {
      userId: connection.user.id,
      sessionId: connection.user.sessionId,
      name: displayName(user.firstName, user.lastName),
    });
    this.sendTo(connection, conversationId);
    await this.notify(viewingSignals([this.entryOf(connection, conversationId)], this.ttlMs)[0]!);
  }

  async left(connection: Connection, conversationId: number): Promise<void> {
    await this.notify({ kind: 'left', socket: this.socketKey(connection), conversationId });
  }

  /** The socket closed: it leaves everything it followed (a crash of this copy is covered by the expiry). */
  closed(connection: Connection): void {
    for (const conversationId of connection.subscriptions) void this.left(connection, conversationId);
  }

  async typing(connection: Connection, conversationId: number, typing: boolean): Promise<void> {
    await this.notify({ kind: typing ? 'typing' : 'stopped_typing', conversationId, ...this.personOf(connection) });
  }

  /** Asks the holder of a side for it (see onSignal: only the holding session, of the asker's firm, is told). */
  async requestControl(
    connection: Connection,
    conversationId: number,
    agentId: number,
    to: { userId: string; sessionId: string | null },
  ): Promise<void> {
    const { firmId } = connection.user;
    await this.notify({
      kind: 'control_request',
      conversationId,
      agentId,
      ...this.personOf(connection),
      firmId,
      to,
      at: new Date().toISOString(),
    });
  }

  /** The holder declines a request: the asking session is told, by the holder's name. */
  async declineControl(connection: Connection, conversationId: number, agentId: number, toSessionId: string): Promise<void> {
    const { name } = this.personOf(connection);
    const { firmId } = connection.user;
    await this.notify({ kind: 'control_declined', conversationId, agentId, name, firmId, toSessionId, at: new Date().toISOString() });
  }

  private get ttlMs(): number {
    return this.options.heartbeatMs * 3;
  }

  private onSignal(signal: PresenceSignal, now: number): void {
    switch (signal.kind) {
      case 'viewing': {
        const changed = new Set<number>();
        for (const { socket, conversationId, ...person } of signal.entries) {
          if (this.board.view(conversationId, socket, person, now + signal.ttlMs)) changed.add(conversationId);
        }
        for (const conversationId of changed) this.pushTo(conversationId);
        return;
      }
      case 'left':
        if (this.board.leave(signal.conversationId, signal.socket)) this.pushTo(signal.conversationId);
        return;
      case 'typing': {
        const { kind: _, conversationId, ...person } = signal;
        if (this.board.typing(conversationId, person, now + this.options.typingMs)) this.pushTo(conversationId);
        return;
      }
      case 'stopped_typing':
        if (this.board.stoppedTyping(signal.conversationId, signal)) this.pushTo(signal.conversationId);
        return;
      case 'control_request': {
        // To the holder's session following it (every session of the holder when none was recorded), and only if
        // it is of the asker's firm: a request never reaches anyone else (docs/decisions/per-side-control.md).
        const { conversationId, agentId, to } = signal;
        for (const connection of this.follower.connections) {
          if (connection.user.firmId !== signal.firmId) continue;
          if (controlRequestRule.onlyTheHolder && connection.user.id !== to.userId) continue;
          if (controlRequestRule.onlyTheHolder && to.sessionId !== null && connection.user.sessionId !== to.sessionId) continue;
          if (!this.entitled(connection, conversationId)) continue;
          connection.send({
            type: 'control_requested',
            conversationId,
            agentId,
            byName: signal.name,
            bySessionId: signal.sessionId,
            isYou: signal.userId === connection.user.id,
            at: signal.at,
          });
        }
        return;
      }
      case 'control_declined': {
        const { conversationId, agentId } = signal;
        for (const connection of this.follower.connections) {
          if (connection.user.sessionId !== signal.toSessionId || connection.user.firmId !== signal.firmId) continue;
          if (!this.entitled(connection, conversationId)) continue;
          connection.send({ type: 'control_declined', conversationId, agentId, byName: signal.name, at: signal.at });
        }
        return;
      }
    }
  }

  private entitled(connection: Connection, conversationId: number): boolean {
    return connection.subscriptions.has(conversationId) && canSeeConversation(this.follower.index, conversationId, connection.user.firmId);
  }

  private pushTo(conversationId: number): void {
    // One view per session: its sockets (tabs of one console) are all shown the same.
    const views = new Map<string, PresenceView>();
    for (const connection of this.follower.connections) {
      if (this.entitled(connection, conversationId)) this.sendTo(connection, conversationId, views);
    }
  }

  /** `views`: the views already made for this conversation, by session (pushTo), taken up and added to. */
  private sendTo(connection: Connection, conversationId: number, views = new Map<string, PresenceView>()): void {
    const viewer = { userId: connection.user.id, sessionId: connection.user.sessionId };
    const key = sessionKey(viewer);
    let seen = views.get(key);
    if (!seen) views.set(key, (seen = this.board.seenBy(conversationId, viewer)));
    connection.send({ type: 'presence', conversationId, ...seen });
  }

  private async announceAll(): Promise<void> {
    const entries: ViewingEntry[] = [];
    for (const connection of this.follower.connections) {
      for (const conversationId of connection.subscriptions) entries.push(this.entryOf(connection, conversationId));
    }
    for (const signal of viewingSignals(entries, this.ttlMs)) await this.notify(signal);
  }

  private personOf(connection: Connection): Person {
    const user = connection.user;
    return this.people.get(connection) ?? { userId: user.id, sessionId: user.sessionId, name: displayName(user.firstName, user.lastName) };
  }

  private entryOf(connection: Connection, conversationId: number): ViewingEntry {
    return { socket: this.socketKey(connection), conversationId, ...this.personOf(connection) };
  }

  private socketKey(connection: Connection): string {
    return `${this.copyId}/${connection.id}`;
  }

  private async notify(signal: PresenceSignal): Promise<void> {
    // Presence is a courtesy: a lost signal (the database down a moment) is made good by the next heartbeat.
    await notifyPresence(this.pool, signal).catch((error: unknown) => this.log.debug({ err: error }, 'a presence signal was not sent'));
  }
}
