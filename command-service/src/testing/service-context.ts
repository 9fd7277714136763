import { afterAll, beforeAll } from 'vitest';
import { createLogger, openServiceContext, parseConfig, type OpenedContext } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '../index';

/**
 * Tests only (vitest): the command-service's context (pool, store, sessions) on a fresh database with its
 * migrations, opened before the file's tests and dropped after them. Read `context` inside a test or hook.
 */
export function commandContextForTests(): { readonly context: OpenedContext } {
  let database: TestDatabase | undefined;
  const handle: { context: OpenedContext | undefined } = { context: undefined };
  beforeAll(async () => {
    database = await createTestDatabase();
    handle.context = await openServiceContext(
      parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }),
      createLogger('silent'),
      database.url,
      commandMigrations,
    );
  });
  afterAll(async () => {
    await handle.context?.close();
    await database?.drop();
  });
  return {
    get context() {
      if (!handle.context) throw new Error('The command context opens before the tests (beforeAll)');
      return handle.context;
    },
  };
}
