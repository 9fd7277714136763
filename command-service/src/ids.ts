import type pg from 'pg';
import type { Migration } from '@pf/infra';

/** Integer ids (the console parses them from routes) come from sequences owned by the write side. */
export const idMigrations: Migration[] = [
  {
    name: 'command-service/001-id-sequences',
    sql: `
      create sequence if not exists agent_ids;
      create sequence if not exists conversation_ids;
      create sequence if not exists message_ids;
    `,
  },
];

export type IdSequence = 'agent_ids' | 'conversation_ids' | 'message_ids';

export async function nextId(pool: pg.Pool, sequence: IdSequence): Promise<number> {
  const result = await pool.query<{ id: number }>(`select nextval('${sequence}') as id`);
  return result.rows[0]!.id;
}
