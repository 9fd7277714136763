import type pg from 'pg';
import type { ReadCache } from './read-cache';

/** What a read model's GET routes get: the pool and the position-keyed answer cache. */
export interface ReadModelRouteOptions {
  readonly pool: pg.Pool;
  readonly cache: ReadCache;
}
