import type { Migration } from '../db/migrate';

/**
 * The 'seen' check of 003 and 004: before its expected version, each member's ids looked up one at a time,
 * by equality (a cached, generic plan of "event_id in (a set)" can scan all of events; the unique index's
 * equality plan never does). It was about a third of the statement's time in the Emmett comparison
 * (bench/scenarios/emmett.ts), for a case the unique index already refuses.
 */
const seenCheck = `
        seen := false;
        for e in select value from jsonb_array_elements(m->'events') loop
          seen := exists (select 1 from events where event_id = (e->>'id')::uuid);
          exit when seen;
        end loop;
        if seen then
          outcomes := outcomes || 'seen'::text;
          versions := versions || null::bigint;
          member_last := member_last || null::int;
          continue;
        end if;
`;

/**
 * `event_store_append_group(streams, members)`: a whole group of appends (group-commit.ts) in one statement,
 * so one round trip and one commit. In order:
 * 1. the advisory lock of every stream, in the order given (sorted by the caller, so two groups never wait
 *    on each other in a cycle), before anything that assigns a transaction id: a group waiting for a
 *    stream's lock gets its id only after the holder committed, so global (transaction id) order agrees
 *    with stream order, exactly as a lone append's lock does;
 * 2. each member, in order, on its own: 'conflict' (with the version found) if its expected version does
 *    not hold against its stream's head as the members before it left it, else its events are given their
 *    versions and linked each to the one before it (hash-chain.ts `linkHash`: the content digests come from
 *    the caller, the link under the lock); up to 004, first 'seen' if any of its ids was already stored;
 * 3. every written member's events in one insert, in the members' order (so positions follow versions within
 *    each stream), and every written stream's new head (version and hash) in one upsert.
 * An id already stored (a retried append) fails the insert on the unique index, and with it the whole
 * statement: the caller then appends each member on its own (postgres-event-store.ts). The caller never puts
 * one event id in two members of a group (group-transaction.ts).
 * `members`: [{ stream, expected: 'any' | 'no_stream' | '<version>', events: [{ id, type, data, metadata,
 * digest }] }]; `recorded`: the time every event was hashed with, stored as recorded_at.
 */
const appendGroupFunction = (seenCheck: string) => `
    create or replace function event_store_append_group(lock_streams text[], members jsonb, recorded timestamptz)
    returns table (member int, outcome text, version bigint, tx text, pos bigint)
    language plpgsql as $fn$
    declare
      s text;
      m jsonb;
      e jsonb;
      heads jsonb := '{}';
      cur bigint;
      head text;
      link text;
      expected text;
      seen boolean;
      i int := 0;
      outcomes text[] := '{}';
      versions bigint[] := '{}';
      ids uuid[] := '{}';
      stream_names text[] := '{}';
      stream_versions bigint[] := '{}';
      types text[] := '{}';
      datas jsonb[] := '{}';
      metadatas jsonb[] := '{}';
      links text[] := '{}';
      previous text[] := '{}';
      member_last int[] := '{}';
      last_positions bigint[];
      written_tx text;
    begin
      foreach s in array lock_streams loop
        perform pg_advisory_xact_lock(hashtextextended(s, 0));
      end loop;
      for m in select value from jsonb_array_elements(members) loop
        i := i + 1;
        s := m->>'stream';
${seenCheck}        if heads ? s then
          cur := (heads->s->>'version')::bigint;
          head := heads->s->>'hash';
        else
          select st.version, st.hash into cur, head from streams st where st.stream_name = s;
          if not found then
            cur := -1;
            head := null;
          end if;
        end if;
        expected := m->>'expected';
        -- A case, not or: only a case is sure to leave 'any' and 'no_stream' unconverted to a number.
        if not (case expected when 'any' then true when 'no_stream' then cur = -1 else cur = expected::bigint end) then
          outcomes := outcomes || 'conflict'::text;
          versions := versions || cur;
          member_last := member_last || null::int;
          continue;
        end if;
        for e in select value from jsonb_array_elements(m->'events') loop
          cur := cur + 1;
          link := encode(sha256(convert_to(coalesce(head, '') || E'\\n' || cur || E'\\n' || (e->>'digest'), 'UTF8')), 'hex');
          ids := ids || (e->>'id')::uuid;
          stream_names := stream_names || s;
          stream_versions := stream_versions || cur;
          types := types || (e->>'type');
          datas := datas || (e->'data');
          metadatas := metadatas || (e->'metadata');
          links := links || link;
          previous := previous || head;
          head := link;
        end loop;
        heads := heads || jsonb_build_object(s, jsonb_build_object('version', cur, 'hash', head));
        outcomes := outcomes || 'written'::text;
        member_last := member_last || cardinality(ids);
        versions := versions || cur;
      end loop;
      if cardinality(ids) > 0 then
        -- Rows go in in the arrays' order, so each takes its position (bigserial) in that order.
        with written as (
          insert into events (event_id, stream_name, stream_version, type, data, metadata, recorded_at, hash, previous_hash)
          select v.id, v.stream, v.version, v.type, v.data, v.metadata, recorded, v.link, v.previous
          from unnest(ids, stream_names, stream_versions, types, datas, metadatas, links, previous) as v(id, stream, version, type, data, metadata, link, previous)
          returning events.position
        )
        select array_agg(position order by position), pg_current_xact_id()::text into last_positions, written_tx from written;
        insert into streams (stream_name, version, hash)
        select key, (value->>'version')::bigint, value->>'hash' from jsonb_each(heads)
        on conflict (stream_name) do update set version = excluded.version, hash = excluded.hash;
      end if;
      for n in 1 .. i loop
        member := n;
        outcome := outcomes[n];
        version := versions[n];
        tx := null;
        pos := null;
        if outcome = 'written' then
          tx := written_tx;
          -- Its last event's row: rows took their positions in the arrays' order.
          pos := last_positions[member_last[n]];
        end if;
        return next;
      end loop;
    end
    $fn$;
  `;

/** The group append as first made: replaced by the next migration's one insert per group (same results). */
export const appendFunctionMigration: Migration = { name: 'event-store/003-append-group-function', sql: appendGroupFunction(seenCheck) };

/** Every written event of a group in one insert, where each event was its own (the same rows and answers). */
export const appendFunctionOneInsertMigration: Migration = {
  name: 'event-store/004-append-group-one-insert',
  sql: appendGroupFunction(seenCheck),
};

/**
 * No 'seen' check: the unique index on event_id refuses a stored id, which fails the whole statement, so the
 * store appends each member on its own (single-append.ts), and that answers a retried append as the first
 * one was answered; a member told of a conflict is looked up as a retry first (postgres-event-store.ts).
 */
export const appendFunctionNoSeenCheckMigration: Migration = {
  name: 'event-store/005-append-group-ids-by-unique-index',
  sql: appendGroupFunction(''),
};
