import { createHash } from 'node:crypto';
import type pg from 'pg';
import { DEFAULT_NOTIFICATION_PREFERENCES, firmOf, type NotificationPreferences } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { recordedAtOf, writeRows } from '../../projection-kit/fold-batch';
import type { ProjectorMemory } from '../../projection-kit/memory';
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
  columns: ['id', 'firm_id', 'kind', 'type', 'title', 'message', 'priority', 'link', 'created_at'],
  key: [0],
  whenStored: 'nothing',
};
const READS: BulkTarget = {
  table: 'rm_notification_reads',
  columns: ['notification_id', 'user_id', 'read_at'],
  key: [0, 1],
  whenStored: 'nothing',
};

interface Pending extends Candidate {
  id: string;
  createdAt: string;
  /** Who of the firm has read it (their user id), and when: reading is each person's. */
  readBy: Map<string, string>;
}

/**
 * Folds a batch into notifications: each event's candidates (derive.ts), one per firm that may see what it concerns
 * (events/src/visibility.ts), when the preferences kept under the firm's id (its founder's: a firm of one's are its
 * person's) let that kind through at that point of the stream; and the reads (one, or all up to that point) in order.
 * A notification is the firm's, its reading each person's (docs/decisions/firms-and-visibility.md): a member who
 * marks one read (or all) marks it for themselves only, so an auditor's Mark All Read leaves an admin's unread.
 */
export async function projectNotifications(
  client: pg.ClientBase,
  batch: readonly RecordedEvent[],
  memory?: ProjectorMemory,
): Promise<void> {
  const agentIds = new Set<number>();
  const conversationIds = new Set<number>();
  const users = new Set<string>();
  const subjectIds = new Set<string>();
  let relevant = false;
  for (const event of batch) {
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
  const candidates = batch.map((event) => {
    if (!isSubjectEvent(event)) return notificationsOf(event, event.metadata, look);
    const opened = subjectOpened(event);
    if (opened && !subjects.has(opened.id)) {
      subjects.set(opened.id, opened);
      openedSubjects.push(opened);
    }
    return subjectNotifications(event, subjects.get(subjectIdOf(event)) ?? null, event.metadata);
  });
  candidates.flat().forEach((c) => users.add(c.firmId));
  // A firm of one whose person deleted their account gets nothing more, whether the deletion came in this batch or
  // an earlier one (the event feed's read model, which ran before this, keeps who has gone): so live batches and a
  // rebuild's leave the same rows.
  const gone = new Set<string>();
  if (users.size > 0) {
    const rows = await client.query<{ user_id: string }>(`select user_id from rm_feed_deleted_people where user_id = any($1::text[])`, [
      [...users],
    ]);
    for (const r of rows.rows) gone.add(r.user_id);
  }

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
  const readStored: { id: string | null; firmId: string; userId: string; at: string }[] = [];
  const deleted = new Set<string>();

  batch.forEach((event, index) => {
    const at = recordedAtOf(event);
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
      const { userId } = event.data;
      const firmId = firmOf({ ownerId: userId, firmId: event.data.firmId });
      const ours = pending.get(event.data.notificationId);
      if (ours && ours.firmId === firmId) readOnce(ours.readBy, userId, at);
      else readStored.push({ id: event.data.notificationId, firmId, userId, at });
      return;
    }
    if (event.type === 'AllNotificationsRead') {
      const { userId } = event.data;
      const firmId = firmOf({ ownerId: userId, firmId: event.data.firmId });
      for (const ours of pending.values()) if (ours.firmId === firmId) readOnce(ours.readBy, userId, at);
      readStored.push({ id: null, firmId, userId, at });
      return;
    }
    for (const candidate of candidates[index]!) {
      if (deleted.has(candidate.firmId) || gone.has(candidate.firmId)) continue;
      const wanted = preferences.get(candidate.firmId) ?? DEFAULT_NOTIFICATION_PREFERENCES;
      if (!wanted[candidate.kind]) continue; // switched off: nothing is created
      const id = notificationId(event.id, candidate.firmId);
      pending.set(id, { ...candidate, id, createdAt: at, readBy: new Map() });
    }
  });

  if (deleted.size > 0) {
    await client.query(
      `delete from rm_notification_reads where user_id = any($1::text[])
          or notification_id in (select id from rm_notifications where firm_id = any($1::text[]))`,
      [[...deleted]],
    );
    await client.query(`delete from rm_notifications where firm_id = any($1::text[])`, [[...deleted]]);
    await client.query(`delete from rm_notification_preferences where user_id = any($1::text[])`, [[...deleted]]);
  }
  // Reads first: they concern rows stored before this batch (those of this batch were marked above). A person's
  // first read of a row stands (a later Mark All Read does not move it).
  for (const read of readStored) {
    await client.query(
      `insert into rm_notification_reads (notification_id, user_id, read_at)
       select id, $2, $3 from rm_notifications where firm_id = $1 and ($4::text is null or id = $4)
       on conflict do nothing`,
      [read.firmId, read.userId, read.at, read.id],
    );
  }
  const fresh = [...pending.values()];
  await writeRows(
    client,
    fresh.map((n) => [n.id, n.firmId, n.kind, n.type, n.title, n.message, n.priority, n.link, n.createdAt]),
    ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'timestamptz'],
    (v) => `insert into rm_notifications (${NOTIFICATIONS.columns.join(', ')})
            select v1, v2, v3, v4, v5, v6, v7, v8, v9 from ${v} order by ord on conflict do nothing`,
    NOTIFICATIONS,
  );
  await writeRows(
    client,
    fresh.flatMap((n) => [...n.readBy].map(([userId, at]) => [n.id, userId, at])),
    ['text', 'text', 'timestamptz'],
    (v) => `insert into rm_notification_reads (notification_id, user_id, read_at)
            select v1, v2, v3 from ${v} order by ord on conflict do nothing`,
    READS,
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

function readOnce(readBy: Map<string, string>, userId: string, at: string): void {
  if (!readBy.has(userId)) readBy.set(userId, at);
}
