import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { BulkFill, fillingWith, type BulkTarget } from './bulk-fill';
import { writeRows } from './fold-batch';
import { readModelDatabase } from '../read-models/testing';

/**
 * Rows copied in while a table is filled from empty (bulk-fill.ts) against the same rows written by the
 * statement, on real PostgreSQL: the same values whatever the text holds, a stored key left to the statement's
 * conflict clause, and the statement alone once the fill has given up a table.
 */
describe('rows copied in by a bulk fill', () => {
  const database = readModelDatabase();
  const types = ['bigint', 'text', 'jsonb', 'text', 'boolean', 'timestamptz', 'numeric', 'text'];
  const columns = ['id', 'label', 'doc', 'tags', 'flag', 'at', 'score', 'note'];
  const upsert: BulkTarget = { table: 'fill_probe', columns, key: [0], whenStored: 'statement' };
  const statement = (v: string) =>
    `insert into fill_probe (${columns.join(', ')}) select v1, v2, v3, v4::text[], v5, v6, v7, v8 from ${v} order by ord
     on conflict (id) do update set label = excluded.label, note = excluded.note`;
  const keep = (v: string) =>
    `insert into fill_probe (${columns.join(', ')}) select v1, v2, v3, v4::text[], v5, v6, v7, v8 from ${v} order by ord on conflict do nothing`;

  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
  const awkward = [
    'plain',
    '',
    '\\N',
    'back\\slash and \\t written out',
    'line\nbreak\ttab\rreturn',
    'say "hello", {braces}',
    '£999 arrangement fee 🏠',
  ];
  const rowsOf = (offset: number): unknown[][] =>
    awkward.map((text, index) => [
      offset + index,
      text,
      JSON.stringify({ text, list: [1, 'two'], nested: { back: 'a\\b' } }),
      `{${JSON.stringify(text)},"second"}`,
      index % 2 === 0,
      index % 3 === 0 ? at : at.toISOString(),
      index === 1 ? null : 82.5 + index,
      index === 2 ? null : `note ${text}`,
    ]);

  async function table(pool: pg.Pool, write: (client: pg.PoolClient) => Promise<void>): Promise<unknown[]> {
    const client = await pool.connect();
    try {
      await client.query('drop table if exists fill_probe');
      await client.query(
        'create table fill_probe (id bigint primary key, label text, doc jsonb, tags text[], flag boolean, at timestamptz, score numeric, note text)',
      );
      await write(client);
      return (await client.query<Record<string, unknown>>('select * from fill_probe order by id')).rows;
    } finally {
      client.release();
    }
  }

  it('writes the same rows as the statement, whatever their text holds', async () => {
    const rows = rowsOf(1);
    const byStatement = await table(database.pool, (client) => writeRows(client, rows, types, statement, upsert));
    let copied = 0;
    const byCopy = await table(database.pool, async (client) => {
      await fillingWith(client, new BulkFill(), () => writeRows(client, rows, types, statement, upsert));
      copied = Number((await client.query<{ n: string }>('select count(*) as n from fill_probe')).rows[0]!.n);
    });
    expect(copied).toBe(rows.length);
    expect(byCopy).toEqual(byStatement);
    expect(byCopy).toHaveLength(awkward.length);
  });

  it('leaves a key it has written to the statement: its update, or nothing for `do nothing`', async () => {
    const first = rowsOf(1);
    const again = first.map((row) => [row[0], 'changed', row[2], row[3], row[4], row[5], row[6], 'changed note']);
    const expected = await table(database.pool, async (client) => {
      await writeRows(client, first, types, statement, upsert);
      await writeRows(client, [...again, ...rowsOf(100)], types, statement, upsert);
    });
    const fill = new BulkFill();
    const filled = await table(database.pool, (client) =>
      fillingWith(client, fill, async () => {
        await writeRows(client, first, types, statement, upsert);
        await writeRows(client, [...again, ...rowsOf(100)], types, statement, upsert);
      }),
    );
    expect(filled).toEqual(expected);
    expect(filled.filter((row) => (row as { label: string }).label === 'changed')).toHaveLength(first.length);

    const kept: BulkTarget = { ...upsert, whenStored: 'nothing' };
    const keptByStatement = await table(database.pool, async (client) => {
      await writeRows(client, first, types, keep, kept);
      await writeRows(client, [...again, ...again], types, keep, kept);
    });
    const keptByCopy = await table(database.pool, (client) =>
      fillingWith(client, new BulkFill(), async () => {
        await writeRows(client, [...first, ...again], types, keep, kept);
        await writeRows(client, again, types, keep, kept);
      }),
    );
    expect(keptByCopy).toEqual(keptByStatement);
    expect(keptByCopy.filter((row) => (row as { label: string }).label === 'changed')).toEqual([]);
  });

  it('sends every row of a table through its statement once the keys it would remember pass the limit', async () => {
    const fill = new BulkFill(3);
    const rows = rowsOf(1);
    const filled = await table(database.pool, (client) =>
      fillingWith(client, fill, async () => {
        await writeRows(client, rows.slice(0, 4), types, statement, upsert);
        // Past the limit: a row it copied before is now written by the statement, whose update applies.
        await writeRows(client, [[1, 'after the limit', ...rows[0]!.slice(2)], ...rows.slice(4)], types, statement, upsert);
      }),
    );
    expect(filled).toHaveLength(rows.length);
    expect(filled[0]).toMatchObject({ id: 1, label: 'after the limit' });
  });
});
