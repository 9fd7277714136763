import { comparePositions, type Conversation, type Position } from '@pf/events';
import type { DocumentMirrors } from './document-mirror';

/** How many conversations the projector keeps in memory. */
const PROJECTOR_MEMORY_CONVERSATIONS = 10_000;

/**
 * What the projector knows of the conversation rows it wrote, so that a batch need not read them back (the
 * conversations read model loads the ones it folds; notifications look up their parties). It holds only while
 * nobody else has written the read models since this projector's last commit: `begin` compares the
 * checkpoint found under the lock with the one it left, and forgets everything if they differ (another copy
 * of the query-service applied a batch, or a rebuild ran). What a batch changes counts once it is committed.
 */
export class ProjectorMemory {
  private committedAt: Position | null = null;
  /** The checkpoint row's updated_at as this projector's commit left it (when the caller knows it). */
  private committedStamp: string | undefined;
  /** Least recently written first. */
  private readonly conversations = new Map<number, Conversation>();
  private readonly staged = new Map<number, Conversation>();
  /**
   * Whole document tables, when this memory's owner filled them from empty and is their only writer (a live
   * rebuild's lane: document-mirror.ts). Not dropped by `forget`: its owner drops it (a running projector has none).
   */
  documents: DocumentMirrors | undefined;

  constructor(private readonly capacity = PROJECTOR_MEMORY_CONVERSATIONS) {}

  /**
   * A batch begins at `checkpoint` (found under the checkpoint's lock). `stamp`, the row's updated_at, tells a
   * write by someone else that left the position where it was: a live rebuild's switch puts new tables in
   * place at the same position (docs/decisions/live-rebuild.md).
   */
  begin(checkpoint: Position, stamp?: string): void {
    this.staged.clear();
    if (this.committedAt === null || comparePositions(checkpoint, this.committedAt) !== 0 || stamp !== this.committedStamp) this.forget();
  }

  /** The conversation as its row stands (with what this batch changed so far), if known. */
  conversation(id: number): Conversation | undefined {
    return this.staged.get(id) ?? this.conversations.get(id);
  }

  /** Conversations as this batch leaves their rows. */
  stage(conversations: Iterable<Conversation>): void {
    for (const conversation of conversations) this.staged.set(conversation.id, conversation);
  }

  /** The batch committed: its rows stand, and the read models are at `position`. */
  committed(position: Position, stamp?: string): void {
    for (const [id, conversation] of this.staged) {
      this.conversations.delete(id);
      this.conversations.set(id, conversation);
    }
    this.staged.clear();
    for (const oldest of this.conversations.keys()) {
      if (this.conversations.size <= this.capacity) break;
      this.conversations.delete(oldest);
    }
    this.committedAt = position;
    this.committedStamp = stamp;
  }

  /** Nothing known any more (a batch failed, or someone else wrote). */
  forget(): void {
    this.staged.clear();
    this.conversations.clear();
    this.committedAt = null;
    this.committedStamp = undefined;
  }
}
