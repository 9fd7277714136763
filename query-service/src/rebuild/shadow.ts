import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The tables of a live rebuild, built beside the live ones (docs/decisions/live-rebuild.md): a schema of their
 * own holding a copy of each live table's shape, which the read models' own projection code fills through a
 * `search_path` that names that schema first. Nothing here knows a read model's columns: the shape is taken
 * from the live table as the migrations left it, so a migration that changes a read model changes its rebuild too.
 */
export const REBUILD_SCHEMA = 'rm_rebuild';
/** Where the live tables go at the switch, to be dropped after its commit. */
export const RETIRED_SCHEMA = 'rm_rebuild_retired';

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (schema: string, table: string) => `${ident(schema)}.${ident(table)}`;

/** Makes `schema`'s tables resolve first for the rest of the caller's transaction (events, checkpoints stay public). */
export async function useSchema(client: pg.ClientBase, schema: string): Promise<void> {
  await client.query(`set local search_path = ${ident(schema)}, public`);
}

/** Constraints (primary keys, unique, exclusion) and the other indexes of a live table, with their names. */
async function definitions(
  client: pg.ClientBase,
  table: string,
): Promise<{ constraints: [string, string][]; indexes: [string, string][] }> {
  // Definitions are printed with the schema named (search_path limited to pg_catalog while they are read).
  await client.query('set local search_path = pg_catalog');
  const constraints = await client.query<{ name: string; def: string }>(
    `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
     where conrelid = to_regclass($1) and contype in ('p', 'u', 'x') order by conname`,
    [qualified('public', table)],
  );
  const indexes = await client.query<{ name: string; def: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indexrelid
     where i.indrelid = to_regclass($1) and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
     order by c.relname`,
    [qualified('public', table)],
  );
  await client.query('set local search_path = public');
  return { constraints: constraints.rows.map((r) => [r.name, r.def]), indexes: indexes.rows.map((r) => [r.name, r.def]) };
}

/** A fingerprint of the live tables' shape (columns, constraints, indexes): a rebuild resumes only onto the same shape. */
export async function shapeOf(client: pg.ClientBase, tables: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const table of tables) {
    const columns = await client.query(
      `select attname, format_type(atttypid, atttypmod) as type, attnotnull, pg_get_expr(d.adbin, d.adrelid) as def
       from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where a.attrelid = to_regclass($1) and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [qualified('public', table)],
    );
    if (columns.rows.length === 0) throw new Error(`The read model table ${table} does not exist (have the migrations run?)`);
    hash.update(JSON.stringify([table, columns.rows, await definitions(client, table)]));
  }
  return hash.digest('hex');
}

/**
 * An empty copy of each live table in `schema`: the same columns, defaults and checks (LIKE), then the same
 * constraints and indexes under the same names (names are per schema, so the switch keeps them).
 */
export async function createShadowTables(
  client: pg.ClientBase,
  schema: string,
  tables: readonly string[],
  /**
   * `deferIndexes`: leave out the indexes (not the constraints) but those named in `keep`, to be built after the rows.
   * `withoutAutovacuum`: autovacuum leaves the copies alone while they are filled (restoreAutovacuum).
   */
  options: { deferIndexes?: boolean; keep?: ReadonlySet<string>; withoutAutovacuum?: boolean } = {},
): Promise<void> {
  for (const table of tables) {
    const { constraints, indexes } = await definitions(client, table);
    await client.query(
      `create table ${qualified(schema, table)} (like ${qualified('public', table)}
         including defaults including constraints including generated including storage including compression including comments)
       ${options.withoutAutovacuum ? `with (${AUTOVACUUM_OFF.map((option) => `${option} = false`).join(', ')})` : ''}`,
    );
    for (const [name, def] of constraints)
      await client.query(`alter table ${qualified(schema, table)} add constraint ${ident(name)} ${def}`);
    for (const [name, def] of indexes) {
      if (options.deferIndexes && !options.keep?.has(name)) continue;
      const on = ` ON public.${table} `;
      if (!def.includes(on)) throw new Error(`Cannot copy index ${name} of ${table}: ${def}`);
      await client.query(withoutPendingList(def.replace(on, ` ON ${qualified(schema, table)} `)));
    }
  }
}

/**
 * A GIN index filled row by row keeps new entries in a pending list that every search reads through (up to
 * gin_pending_list_limit, 4 MB): a fold that looks rows up through one at every batch spent most of its time
 * there. The copies are filled with the list off, and given the live index's setting back before the switch
 * (restorePendingLists), so the live definition is what the migrations made.
 */
function withoutPendingList(def: string): string {
  return / USING gin /.test(def) && !/ WITH \(/.test(def) ? `${def} WITH (fastupdate = off)` : def;
}

/** The GIN indexes of `schema`'s copies filled without a pending list get the default back (a catalogue change). */
export async function restorePendingLists(client: pg.ClientBase, schema: string): Promise<void> {
  const off = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind = 'i' and c.reloptions @> array['fastupdate=off']
       and not exists (select 1 from pg_class l where l.oid = to_regclass(format('public.%I', c.relname)) and l.reloptions @> array['fastupdate=off'])`,
    [schema],
  );
  for (const { name } of off.rows) await client.query(`alter index ${qualified(schema, name)} reset (fastupdate)`);
}

/** The settings that keep autovacuum off a copy filled in bulk (restoreAutovacuum). */
const AUTOVACUUM_OFF = ['autovacuum_enabled', 'toast.autovacuum_enabled'];

/**
 * Autovacuum would vacuum and analyse a copy while it is being filled, each time enough rows have gone in: work
 * thrown away, since the rows keep coming and the switch analyses them (analyzeIndexedColumns), competing with the
 * rebuild for the machine. A copy filled in bulk (no one following the log) is created with autovacuum off, and
 * given the default back before the switch (a catalogue change): autovacuum takes the new tables up from there,
 * and the live tables' settings stay the migrations'. A rebuild followed by a running product (long, its batches
 * short) leaves autovacuum on, so that the rows its upserts replace are cleaned up as it goes.
 */
export async function restoreAutovacuum(client: pg.ClientBase, schema: string): Promise<void> {
  const off = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relkind = 'r' and c.reloptions @> array['autovacuum_enabled=false']`,
    [schema],
  );
  for (const { name } of off.rows) await client.query(`alter table ${qualified(schema, name)} reset (${AUTOVACUUM_OFF.join(', ')})`);
}

/**
 * The live tables' other indexes that `schema`'s copies lack (left out while they were filled in bulk: an index
 * built once over the rows costs less than one kept up to date row by row), created under their own names.
 */
export async function createMissingIndexes(client: pg.ClientBase, schema: string, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await client.query('begin');
    const { indexes } = await definitions(client, table);
    await client.query('commit');
    const present = new Set(
      (
        await client.query<{ name: string }>(`select indexname as name from pg_indexes where schemaname = $1 and tablename = $2`, [
          schema,
          table,
        ])
      ).rows.map((r) => r.name),
    );
    for (const [name, def] of indexes) {
      if (present.has(name)) continue;
      const on = ` ON public.${table} `;
      if (!def.includes(on)) throw new Error(`Cannot copy index ${name} of ${table}: ${def}`);
      await client.query(`set statement_timeout = 0`);
      await client.query(def.replace(on, ` ON ${qualified(schema, table)} `));
      await client.query(`reset statement_timeout`);
    }
  }
}

/**
 * Planner statistics for a filled copy before the switch, for the columns its indexes are built on: what the
 * planner needs to choose between them. The other columns (documents, texts) are left to autovacuum, which
 * analyses the whole table soon after the switch: an analyze of named columns leaves the table's count of
 * changed rows as it was, so the table stays due (docs/decisions/live-rebuild.md). A table with no indexed
 * column is analysed whole.
 */
export async function analyzeIndexedColumns(client: pg.ClientBase, schema: string, table: string): Promise<void> {
  const columns = await client.query<{ name: string }>(
    `select distinct a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey::int2[])
     where i.indrelid = to_regclass($1) order by 1`,
    [qualified(schema, table)],
  );
  const list = columns.rows.map((r) => ident(r.name)).join(', ');
  await client.query(`analyze ${qualified(schema, table)}${list ? ` (${list})` : ''}`);
}

/** Which of `tables` exist in `schema`. */
export async function tablesIn(client: pg.ClientBase | pg.Pool, schema: string): Promise<string[]> {
  const result = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
    [schema],
  );
  return result.rows.map((r) => r.name);
}

/**
 * Inside the switch's transaction: each live table moves to RETIRED_SCHEMA and its rebuilt copy takes its place
 * (ALTER TABLE … SET SCHEMA: a catalogue change, whatever the table's size). Readers in flight finish on the
 * old table first; readers after the commit see the new one.
 */
export async function swapTables(client: pg.ClientBase, schema: string, tables: readonly string[]): Promise<void> {
  // One round trip for all of them: the switch holds the followers for as long as it takes.
  await client.query(
    tables
      .map(
        (table) =>
          `alter table ${qualified('public', table)} set schema ${ident(RETIRED_SCHEMA)}; alter table ${qualified(schema, table)} set schema public;`,
      )
      .join('\n'),
  );
}

export async function dropSchema(client: pg.ClientBase | pg.Pool, schema: string): Promise<void> {
  await client.query(`drop schema if exists ${ident(schema)} cascade`);
}
