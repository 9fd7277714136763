import type pg from 'pg';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { EventStore } from '../event-store/port';
import type { SessionStore } from '../auth/session-store';
import type { Supervisor } from '../supervision/supervisor';

/** What a service plugin is given by its entry point (standalone or single node). */
export interface ServiceContext {
  readonly config: Config;
  readonly log: Logger;
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly sessions: SessionStore;
  /** Runs the process's followers of the event stream; /readyz reports on them. */
  readonly supervisor: Supervisor;
}
