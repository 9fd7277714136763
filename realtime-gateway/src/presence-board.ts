import type { PresentPerson } from '@pf/events';

/**
 * Who has a conversation open and who is typing in it, across every gateway copy. Each copy keeps its own
 * board, fed by the signals all copies NOTIFY (presence-signal.ts), its own included. Nothing here is stored:
 * a viewer is kept while its copy re-announces it (each heartbeat), so the viewers of a copy that crashed
 * disappear when their last announcement runs out; a typer is kept for a few seconds after each keystroke
 * signal. Pure: time is passed in.
 */
export interface Person {
  readonly userId: string;
  readonly sessionId: string;
  readonly name: string;
}

interface Held extends Person {
  until: number;
}

/** One session shown in a conversation: the newest name one of its sockets brought, and through how many sockets. */
interface Shown {
  readonly userId: string;
  name: string;
  sockets: number;
}

/**
 * The entries of one conversation (sockets, or typing sessions) and the sessions they show. Kept apart so that a
 * session's second tab, or a thousand sockets of one session, changes nothing shown and costs nothing to show.
 */
interface Entries {
  readonly held: Map<string, Held>;
  readonly shown: Map<string, Shown>;
}

/** A person's session, as the board and its pushes name it. */
export const sessionKey = (person: Pick<Person, 'userId' | 'sessionId'>) => `${person.userId}/${person.sessionId}`;

export interface PresenceView {
  readonly viewers: PresentPerson[];
  readonly typers: PresentPerson[];
}

export class PresenceBoard {
  /** conversation → socket (copy and connection id) → the person viewing through it. */
  private readonly viewers = new Map<number, Entries>();
  /** conversation → person's session → typing until. */
  private readonly typers = new Map<number, Entries>();

  /** A socket follows the conversation (announced again each heartbeat). True when who is shown changed. */
  view(conversationId: number, socketKey: string, person: Person, until: number): boolean {
    return this.hold(this.viewers, conversationId, socketKey, person, until);
  }

  /** A socket stopped following it (unsubscribed or closed). */
  leave(conversationId: number, socketKey: string): boolean {
    return this.drop(this.viewers, conversationId, socketKey);
  }

  typing(conversationId: number, person: Person, until: number): boolean {
    return this.hold(this.typers, conversationId, sessionKey(person), person, until);
  }

  /** The person sent their message: they are no longer typing. */
  stoppedTyping(conversationId: number, person: Pick<Person, 'userId' | 'sessionId'>): boolean {
    return this.drop(this.typers, conversationId, sessionKey(person));
  }

  /** Drops what ran out by `now`; returns the conversations whose shown people changed. */
  sweep(now: number): number[] {
    const changed = new Set<number>();
    for (const table of [this.viewers, this.typers]) {
      for (const [conversationId, entries] of table) {
        for (const [key, held] of entries.held) {
          if (held.until <= now && this.drop(table, conversationId, key)) changed.add(conversationId);
        }
      }
    }
    return [...changed];
  }

  /**
   * The conversation as one session sees it: everyone else, one entry per person and session (two tabs of one
   * session are one viewer, under the newest name one of its sockets brought), sorted by name; never the session
   * itself.
   */
  seenBy(conversationId: number, viewer: Pick<Person, 'userId' | 'sessionId'>): PresenceView {
    const own = sessionKey(viewer);
    const shown = (entries: Entries | undefined): PresentPerson[] => {
      const people: PresentPerson[] = [];
      for (const [key, session] of entries?.shown ?? []) {
        if (key !== own) people.push({ name: session.name, isYou: session.userId === viewer.userId });
      }
      return people.sort((a, b) => a.name.localeCompare(b.name) || Number(a.isYou) - Number(b.isYou));
    };
    return { viewers: shown(this.viewers.get(conversationId)), typers: shown(this.typers.get(conversationId)) };
  }

  /** Holds an entry; true when what is shown changed (a session not shown before, or a new name). */
  private hold(table: Map<number, Entries>, conversationId: number, key: string, person: Person, until: number): boolean {
    const earlier = table.get(conversationId)?.held.get(key);
    // A key belongs to one session (a socket's, or the session itself); should it come with another, it moves.
    if (earlier && sessionKey(earlier) !== sessionKey(person)) this.drop(table, conversationId, key);
    let entries = table.get(conversationId);
    if (!entries) table.set(conversationId, (entries = { held: new Map(), shown: new Map() }));
    const before = entries.held.get(key);
    entries.held.set(key, {
      userId: person.userId,
      sessionId: person.sessionId,
      name: person.name,
      until: Math.max(until, before?.until ?? 0),
    });
    const session = entries.shown.get(sessionKey(person));
    if (!session) {
      entries.shown.set(sessionKey(person), { userId: person.userId, name: person.name, sockets: 1 });
      return true;
    }
    if (!before) session.sockets += 1;
    // Only a socket that brings a name it had not announced renames its session: a heartbeat re-announcing a tab
    // opened before a profile edit (its old name) does not flip the name shown back.
    const renamed = !before || before.name !== person.name;
    if (!renamed || session.name === person.name) return false;
    session.name = person.name;
    return true;
  }

  /** Drops an entry; true when what is shown changed (the last entry of its session went). */
  private drop(table: Map<number, Entries>, conversationId: number, key: string): boolean {
    const entries = table.get(conversationId);
    const held = entries?.held.get(key);
    if (!entries || !held) return false;
    entries.held.delete(key);
    if (entries.held.size === 0) table.delete(conversationId);
    const session = entries.shown.get(sessionKey(held))!;
    session.sockets -= 1;
    if (session.sockets > 0) return false;
    entries.shown.delete(sessionKey(held));
    return true;
  }
}
