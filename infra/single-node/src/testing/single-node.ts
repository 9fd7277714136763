import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from '../server';
import { testServerEnv } from './server-env';

export interface TestSingleNode {
  readonly server: RunningServer;
  readonly database: TestDatabase;
}

/**
 * Tests only (vitest): a single node of its own on a fresh database (testServerEnv with `overrides`), started
 * before the tests of the file or describe block that calls it, stopped and its database dropped after them.
 */
export function testSingleNode(overrides: Record<string, string> = {}): TestSingleNode {
  let database: TestDatabase | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url, overrides));
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });
  return {
    get server() {
      if (!server) throw new Error('The test single node is started by beforeAll: use it inside a test or hook');
      return server;
    },
    get database() {
      if (!database) throw new Error('The test database is created by beforeAll: use it inside a test or hook');
      return database;
    },
  };
}
