export * from './config';
export * from './errors';
export * from './logger';
export * from './db/pool';
export * from './db/migrate';
export * from './event-store/port';
export * from './event-store/postgres-event-store';
export * from './event-store/postgres-schema';
