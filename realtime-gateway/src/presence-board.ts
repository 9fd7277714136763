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

export interface PresenceView {
  readonly viewers: PresentPerson[];
  readonly typers: PresentPerson[];
}

export class PresenceBoard {
  /** conversation → socket (copy and connection id) → the person viewing through it. */
  private readonly viewers = new Map<number, Map<string, Held>>();
  /** conversation → person's session → typing until. */
  private readonly typers = new Map<number, Map<string, Held>>();

  /** A socket follows the conversation (announced again each heartbeat). True when who is shown changed. */
  view(conversationId: number, socketKey: string, person: Person, until: number): boolean {
    return this.hold(this.viewers, conversationId, socketKey, person, until);
  }

  /** A socket stopped following it (unsubscribed or closed). */
  leave(conversationId: number, socketKey: string): boolean {
    return this.drop(this.viewers, conversationId, socketKey);
  }

  typing(conversationId: number, person: Person, until: number): boolean {
    return this.hold(this.typers, conversationId, `${person.userId}/${person.sessionId}`, person, until);
  }

  /** The person sent their message: they are no longer typing. */
  stoppedTyping(conversationId: number, person: Pick<Person, 'userId' | 'sessionId'>): boolean {
    return this.drop(this.typers, conversationId, `${person.userId}/${person.sessionId}`);
  }

  /** Drops what ran out by `now`; returns the conversations whose shown people changed. */
  sweep(now: number): number[] {
    const changed = new Set<number>();
    for (const table of [this.viewers, this.typers]) {
      for (const [conversationId, entries] of table) {
        for (const [key, held] of entries) {
          if (held.until <= now && this.drop(table, conversationId, key)) changed.add(conversationId);
        }
      }
    }
    return [...changed];
  }

  /**
   * The conversation as one session sees it: everyone else, one entry per person and session (two tabs of one
   * session are one viewer), sorted by name; never the session itself.
   */
  seenBy(conversationId: number, viewer: Pick<Person, 'userId' | 'sessionId'>): PresenceView {
    const shown = (entries: Map<string, Held> | undefined): PresentPerson[] => {
      const bySession = new Map<string, PresentPerson>();
      for (const held of entries?.values() ?? []) {
        if (held.userId === viewer.userId && held.sessionId === viewer.sessionId) continue;
        bySession.set(`${held.userId}/${held.sessionId}`, { name: held.name, isYou: held.userId === viewer.userId });
      }
      return [...bySession.values()].sort((a, b) => a.name.localeCompare(b.name) || Number(a.isYou) - Number(b.isYou));
    };
    return { viewers: shown(this.viewers.get(conversationId)), typers: shown(this.typers.get(conversationId)) };
  }

  private hold(table: Map<number, Map<string, Held>>, conversationId: number, key: string, person: Person, until: number): boolean {
    let entries = table.get(conversationId);
    if (!entries) table.set(conversationId, (entries = new Map<string, Held>()));
    const before = entries.get(key);
    entries.set(key, { userId: person.userId, sessionId: person.sessionId, name: person.name, until: Math.max(until, before?.until ?? 0) });
    return !before || before.name !== person.name;
  }

  private drop(table: Map<number, Map<string, Held>>, conversationId: number, key: string): boolean {
    const entries = table.get(conversationId);
    if (!entries?.delete(key)) return false;
    if (entries.size === 0) table.delete(conversationId);
    return true;
  }
}
