import type pg from 'pg';
import type { DomainEvent } from '@pf/events';
import type { Migration, RecordedEvent } from '@pf/infra';
import { DocumentIndex } from './document-index';
import type { MirroredTable } from './document-mirror';
import type { DocumentProjection, LookupRoute, Route } from './document-projection';
import { recordedAtOf, textArrayLiteral, writeRows } from './fold-batch';
import type { ReadModel } from './read-model';

const lookupIndex = (projection: { readonly table: string }, field: string) => `${projection.table}_${field.toLowerCase()}`;

function documentTableMigration<Doc>(projection: DocumentProjection<Doc>, name: string): Migration {
  const lookups = projection.lookupFields
    .map((field) => `create index ${lookupIndex(projection, field)} on ${projection.table} ((doc->>'${field}'));`)
    .join('\n');
  const keyed = (projection.keyFields ?? [])
    .map((field) => `create index ${lookupIndex(projection, field)} on ${projection.table} using gin ((doc->'${field}'));`)
    .join('\n');
  return {
    name,
    sql: `
      create table ${projection.table} (id text primary key, owners text[] not null, doc jsonb not null);
      create index ${projection.table}_owners on ${projection.table} using gin (owners);
      ${lookups}
      ${keyed}
    `,
  };
}

/**
 * Applies a batch: routes every event, loads every row it needs in at most two queries, folds in memory in
 * batch order, then writes each changed row once. The same rows as applying the events one at a time.
 */
async function projectDocuments<Doc>(
  client: pg.ClientBase,
  projection: DocumentProjection<Doc>,
  batch: readonly RecordedEvent[],
  mirror?: MirroredTable<Doc>,
): Promise<void> {
  const routed: { event: DomainEvent; at: string; routes: Route[] }[] = [];
  const ids = new Set<string>();
  const wheres = new Map<string, Set<string>>();
  const hasKeys = new Map<string, Set<string>>();
  const owners = new Set<string>();
  const add = (map: Map<string, Set<string>>, field: string, value: string) =>
    (map.get(field) ?? map.set(field, new Set()).get(field)!).add(value);
  for (const event of batch) {
    const routes = projection.route(event);
    if (routes.length === 0) continue;
    routed.push({ event, at: recordedAtOf(event), routes });
    for (const route of routes) {
      if ('ids' in route) route.ids.forEach((id) => ids.add(id));
      else if ('where' in route) add(wheres, route.where.field, route.where.value);
      else if ('owner' in route) owners.add(route.owner);
      else add(hasKeys, route.hasKey.field, route.hasKey.key);
    }
  }
  if (routed.length === 0) return;

  const { docs, index } = mirror ?? (await loadDocuments(client, projection, ids, wheres, hasKeys, owners));
  const changed = new Set<string>();
  for (const { event, at, routes } of routed) {
    for (const route of routes) {
      const targets =
        'ids' in route
          ? route.ids
          : index.covers(route)
            ? index.find(route)
            : [...docs].filter(([, doc]) => doc && matches(doc, route, projection)).map(([id]) => id);
      for (const id of targets) {
        const doc = projection.evolve(docs.get(id) ?? null, event, at, id);
        docs.set(id, doc);
        index.changed(id);
        changed.add(id);
      }
    }
  }

  const kept = [...changed].filter((id) => docs.get(id));
  const gone = [...changed].filter((id) => !docs.get(id));
  await writeRows(
    client,
    // Each row's owners as an array literal of its own, made a text[] by the statement (docs/decisions/live-rebuild.md).
    kept.map((id) => [id, textArrayLiteral(projection.owners(docs.get(id)!)), JSON.stringify(docs.get(id))]),
    ['text', 'text', 'jsonb'],
    (v) => `insert into ${projection.table} (id, owners, doc) select v1, v2::text[], v3 from ${v} order by ord
            on conflict (id) do update set owners = excluded.owners, doc = excluded.doc`,
    { table: projection.table, columns: ['id', 'owners', 'doc'], key: [0], whenStored: 'statement' },
  );
  if (gone.length > 0) await client.query(`delete from ${projection.table} where id = any($1::text[])`, [gone]);
  if (mirror) for (const id of gone) mirror.docs.delete(id);
}

/** The rows the batch's routes name (by id, by lookup field, by key, by owner), in one query. */
async function loadDocuments<Doc>(
  client: pg.ClientBase,
  projection: DocumentProjection<Doc>,
  ids: ReadonlySet<string>,
  wheres: ReadonlyMap<string, ReadonlySet<string>>,
  hasKeys: ReadonlyMap<string, ReadonlySet<string>>,
  owners: ReadonlySet<string>,
): Promise<{ docs: Map<string, Doc | null>; index: DocumentIndex<Doc> }> {
  const docs = new Map<string, Doc | null>();
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (ids.size > 0) {
    params.push([...ids]);
    clauses.push(`id = any($${params.length}::text[])`);
  }
  for (const [field, values] of wheres) {
    params.push(field, [...values]);
    clauses.push(`doc->>($${params.length - 1}::text) = any($${params.length}::text[])`);
  }
  for (const [field, keys] of hasKeys) {
    params.push(field, [...keys]);
    clauses.push(`(doc->($${params.length - 1}::text)) ?| $${params.length}::text[]`);
  }
  if (owners.size > 0) {
    params.push([...owners]);
    clauses.push(`owners && $${params.length}::text[]`);
  }
  const loaded = await client.query<{ id: string; doc: Doc }>(
    `select id, doc from ${projection.table} where ${clauses.join(' or ')}`,
    params,
  );
  for (const row of loaded.rows) docs.set(row.id, row.doc);
  return { docs, index: new DocumentIndex(projection, docs) };
}

function matches<Doc>(doc: Doc, route: LookupRoute, projection: DocumentProjection<Doc>): boolean {
  if ('owner' in route) return projection.owners(doc).includes(route.owner);
  const fields = doc as Record<string, unknown>;
  if ('where' in route) return String(fields[route.where.field]) === route.where.value;
  const object = fields[route.hasKey.field];
  return typeof object === 'object' && object !== null && route.hasKey.key in object;
}

export function documentReadModel<Doc>(projection: DocumentProjection<Doc>, migrationName: string): ReadModel {
  return {
    name: projection.name,
    tables: [projection.table],
    migrations: [documentTableMigration(projection, migrationName)],
    foldIndexes: [...projection.lookupFields, ...(projection.keyFields ?? [])].map((field) => lookupIndex(projection, field)),
    project: (client, batch, memory) => projectDocuments(client, projection, batch, memory?.documents?.of(projection)),
  };
}

/**
 * Delete Account for a row several people share: the person is no longer among its owners (so it is no longer
 * theirs to read); a row nobody else may see goes. The others keep theirs, with its history.
 */
export function withoutOwner<Doc extends { owners: string[] }>(doc: Doc | null, userId: string): Doc | null {
  if (!doc || !doc.owners.includes(userId)) return doc;
  const owners = doc.owners.filter((id) => id !== userId);
  return owners.length === 0 ? null : { ...doc, owners };
}
