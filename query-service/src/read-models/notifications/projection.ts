import { createHash } from 'node:crypto';
import type pg from 'pg';
import { DEFAULT_NOTIFICATION_PREFERENCES, firmOf, type NotificationPreferences } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../bulk-fill';
import { domainEventOf, recordedAtOf, writeRows } from '../fold-batch';
import type { ProjectorMemory } from '../../projector/memory';
import { namesOf, notificationsOf, type Candidate, type Party } from './derive';
import { isSubjectEvent, subjectIdOf, subjectNotifications, subjectOpened, type Subject } from './lifecycle';

/**
 * Derived from the event and the firm, so a rebuild gives every notification the id it had (a firm of one's id is
 * its person's, so the ids from before firms stay).
 */
export const notificationId = (eventId: string, firmId: string) =>
  createHash('sha256').update(`${eventId}|${firmId}`).digest('hex').slice(0, 24);

const NOTIFICATIONS: BulkTarget = {
  table: 'rm_notifications',
  columns: ['id', 'firm_id', 'kind', 'type', 'title', 'message', 'priority', 'link', 'created_at', 'read_at'],
  key: [0],
  whenStored: 'nothing',
};

interface Pending extends Candidate {
  id: string;
  createdAt: string;
  readAt: string | null;
}

/**
 * Folds a batch into notifications: each event's candidates (derive.ts), one per firm that may see what it concerns
 * (events/src/visibility.ts), when the preferences kept under the firm's id (its founder's: a firm of one's are its
 * person's) let that kind through at that point of the stream; and the reads (one, or all up to that point) in order.
 * A read is the firm's: a member marking a notification read marks it for every member, as a shared inbox does (the
 * colleagues share the work it announces, so one of them having dealt with it is what the others need to know).
 */
export async function projectNotifications(
  client: pg.ClientBase,
  batch: readonly RecordedEvent[],
  memory?: ProjectorMemory,
): Promise<void> {
  const events = batch.map(domainEventOf);
  const agentIds = new Set<number>();
  const conversationIds = new Set<number>();
  const users = new Set<string>();
  const subjectIds = new Set<string>();
  let relevant = false;
  for (const event of events) {
    if (isSubjectEvent(event)) {
      subjectIds.add(subjectIdOf(event));
      relevant = true;
    }
    const names = namesOf(event);
    names.agents.forEach((id) => agentIds.add(id));
    names.conversations.forEach((id) => conversationIds.add(id));
    if (names.agents.length + names.conversations.length > 0) relevant = true;
    if (event.type === 'NotificationPreferencesChanged' || event.type === 'AccountDeleted') {
      relevant = true;
      users.add(event.data.userId);
    }
    if (event.type === 'NotificationRead' || event.type === 'AllNotificationsRead') relevant = true;
  }
  if (!relevant) return;

  // The agents and conversations read models run first, so these rows include this batch.
  const agents = new Map<number, Party>();
  if (agentIds.size > 0) {
    const rows = await client.query<{ id: number; owner_id: string; firm_id: string | null; name: string }>(
      `select id, owner_id, firm_id, name from rm_agents where id = any($1::bigint[])`,
      [[...agentIds]],
    );
    for (const r of rows.rows) agents.set(r.id, { agentId: r.id, ownerId: r.owner_id, firmId: r.firm_id, name: r.name });
  }
  const conversations = new Map<number, { title: string; parties: Party[] }>();
  // Those the projector knows (the conversations read model ran first, so as this batch leaves them).
  for (const id of conversationIds) {
    const known = memory?.conversation(id);
    if (!known) continue;
    conversations.set(id, {
      title: known.title,
      parties: known.participants.map(({ agentId, ownerId, firmId, name }) => ({ agentId, ownerId, firmId, name })),
    });
    conversationIds.delete(id);
  }
  if (conversationIds.size > 0) {
    const rows = await client.query<{ id: number; title: string; agent_id: number; owner_id: string; firm_id: string; name: string }>(
      `select c.id, c.title, p.agent_id, p.owner_id, p.firm_id, p.name from rm_conversations c join rm_participants p on p.conversation_id = c.id
       where c.id = any($1::bigint[]) order by p.ordinal`,
      [[...conversationIds]],
    );
    for (const r of rows.rows) {
      const entry = conversations.get(r.id) ?? { title: r.title, parties: [] as Party[] };
      entry.parties.push({ agentId: r.agent_id, ownerId: r.owner_id, firmId: r.firm_id, name: r.name });
      conversations.set(r.id, entry);
    }
  }
  const look = { agent: (id: number) => agents.get(id) ?? null, conversation: (id: number) => conversations.get(id) ?? null };
  const subjects = new Map<string, Subject>();
  if (subjectIds.size > 0) {
    const rows = await client.query<{ id: string; title: string; owner_ids: string[]; uploader_id: string | null }>(
      `select id, title, owner_ids, uploader_id from rm_notification_subjects where id = any($1::text[])`,
      [[...subjectIds]],
    );
    for (const r of rows.rows) subjects.set(r.id, { id: r.id, title: r.title, ownerIds: r.owner_ids, uploaderId: r.uploader_id });
  }
  const openedSubjects: Subject[] = [];
  // In order: a deal opened earlier in the batch is known to a change later in it.
  const candidates = events.map((event, index) => {
    if (!isSubjectEvent(event)) return notificationsOf(event, batch[index]!.metadata, look);
    const opened = subjectOpened(event);
    if (opened && !subjects.has(opened.id)) {
      subjects.set(opened.id, opened);
      openedSubjects.push(opened);
    }
    return subjectNotifications(event, subjects.get(subjectIdOf(event)) ?? null, batch[index]!.metadata);
  });
  candidates.flat().forEach((c) => users.add(c.firmId));

  const preferences = new Map<string, NotificationPreferences>();
  if (users.size > 0) {
    const rows = await client.query<{ user_id: string; preferences: NotificationPreferences }>(
      `select user_id, preferences from rm_notification_preferences where user_id = any($1::text[])`,
      [[...users]],
    );
    for (const r of rows.rows) preferences.set(r.user_id, r.preferences);
  }
  const changedPreferences = new Set<string>();
  const pending = new Map<string, Pending>();
  const readStored: { id: string | null; firmId: string; at: string }[] = [];
  const deleted = new Set<string>();

  batch.forEach((recorded, index) => {
    const event = events[index]!;
    const at = recordedAtOf(recorded);
    if (event.type === 'NotificationPreferencesChanged') {
      preferences.set(event.data.userId, event.data.preferences);
      changedPreferences.add(event.data.userId);
      return;
    }
    if (event.type === 'AccountDeleted') {
      // Delete Account: the person leaves every read model; nothing more is created for them.
      deleted.add(event.data.userId);
      // A firm of one's notifications are its person's (its id is theirs); a firm with other members keeps its own.
      for (const [id, mine] of pending) if (mine.firmId === event.data.userId) pending.delete(id);
      preferences.delete(event.data.userId);
      changedPreferences.delete(event.data.userId);
      return;
    }
    if (event.type === 'NotificationRead') {
      const firmId = firmOf({ ownerId: event.data.userId, firmId: event.data.firmId });
      const ours = pending.get(event.data.notificationId);
      if (ours && ours.firmId === firmId) ours.readAt ??= at;
      else readStored.push({ id: event.data.notificationId, firmId, at });
      return;
    }
    if (event.type === 'AllNotificationsRead') {
      const firmId = firmOf({ ownerId: event.data.userId, firmId: event.data.firmId });
      for (const ours of pending.values()) if (ours.firmId === firmId) ours.readAt ??= at;
      readStored.push({ id: null, firmId, at });
      return;
    }
    for (const candidate of candidates[index]!) {
      if (deleted.has(candidate.firmId)) continue;
      const wanted = preferences.get(candidate.firmId) ?? DEFAULT_NOTIFICATION_PREFERENCES;
      if (!wanted[candidate.kind]) continue; // switched off: nothing is created
      const id = notificationId(recorded.id, candidate.firmId);
      pending.set(id, { ...candidate, id, createdAt: at, readAt: null });
    }
  });

  if (deleted.size > 0) {
    await client.query(`delete from rm_notifications where firm_id = any($1::text[])`, [[...deleted]]);
    await client.query(`delete from rm_notification_preferences where user_id = any($1::text[])`, [[...deleted]]);
  }
  // Reads first: they concern rows stored before this batch (those of this batch were marked above).
  for (const read of readStored) {
    await client.query(
      `update rm_notifications set read_at = $3 where firm_id = $1 and read_at is null and ($2::text is null or id = $2)`,
      [read.firmId, read.id, read.at],
    );
  }
  await writeRows(
    client,
    [...pending.values()].map((n) => [n.id, n.firmId, n.kind, n.type, n.title, n.message, n.priority, n.link, n.createdAt, n.readAt]),
    ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'timestamptz', 'timestamptz'],
    (v) => `insert into rm_notifications (${NOTIFICATIONS.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6, v7, v8, v9, v10 from ${v} order by ord on conflict do nothing`,
    NOTIFICATIONS,
  );
  await writeRows(
    client,
    openedSubjects.map((o) => [o.id, o.title, `{${o.ownerIds.map((id) => JSON.stringify(id)).join(',')}}`, o.uploaderId]),
    ['text', 'text', 'text', 'text'],
    (v) => `insert into rm_notification_subjects (id, title, owner_ids, uploader_id)
            select v1, v2, v3::text[], v4 from ${v} order by ord on conflict do nothing`,
  );
  if (deleted.size > 0) {
    // The deals and documents they shared stay the others'; the deleted person is no longer among them.
    await client.query(
      `update rm_notification_subjects set owner_ids = array(select o from unnest(owner_ids) o where o <> all($1::text[])),
         uploader_id = case when uploader_id = any($1::text[]) then null else uploader_id end
       where owner_ids && $1::text[] or uploader_id = any($1::text[])`,
      [[...deleted]],
    );
  }
  await writeRows(
    client,
    [...changedPreferences].map((userId) => [userId, JSON.stringify(preferences.get(userId))]),
    ['text', 'jsonb'],
    (v) => `insert into rm_notification_preferences (user_id, preferences) select v1, v2 from ${v} order by ord
            on conflict (user_id) do update set preferences = excluded.preferences`,
  );
}
