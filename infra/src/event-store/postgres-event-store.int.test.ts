import { createPool } from '../db/pool';
import { migrate } from '../db/migrate';
import { createTestDatabase } from '../testing/database';
import { eventStoreContract } from './event-store.contract';
import { PostgresEventStore } from './postgres-event-store';
import { eventStoreMigrations } from './postgres-schema';

eventStoreContract('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const pool = createPool(database.url, 20);
  await migrate(pool, eventStoreMigrations);
  const store = new PostgresEventStore(pool, database.url);
  return {
    store,
    async cleanup() {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
});
