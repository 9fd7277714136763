import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Test databases: each test file gets a database of its own on the server named by
 * TEST_DATABASE_URL (set by the vitest global setup: the machine's PostgreSQL, or an embedded one).
 */
export function testServerUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set; run the tests through vitest (see vitest.config.ts)');
  return url;
}

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = 'pf_test'): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
