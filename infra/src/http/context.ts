import type pg from 'pg';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { EventStore, StoredEvent } from '../event-store/port';
import type { SessionStore } from '../auth/session-store';
import type { Supervisor } from '../supervision/supervisor';

/** What a service plugin is given by its entry point (standalone or single node). */
export interface ServiceContext {
  readonly config: Config;
  readonly log: Logger;
  readonly pool: pg.Pool;
  /** The store, its reads answering the contract's events (docs/architecture.md, "Stored events"). */
  readonly store: EventStore;
  /**
   * The same store's events as stored: for what must see them as recorded (the hash chain's verifier, the Kafka
   * relay) or go on past one the contract refuses (History, the gateway).
   */
  readonly storedEvents: EventStore<StoredEvent>;
  readonly sessions: SessionStore;
  /** Runs the process's followers of the event stream; /readyz reports on them. */
  readonly supervisor: Supervisor;
}
