import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { PostgresEventStore } from '@pf/infra';
import { HARRIET_COLE } from '@pf/events/testing';
import {
  streams,
  type AgentView,
  type ApiError,
  type CreatedApiTokenView,
  type CurrentUserView,
  type FirmView,
  type InviteView,
} from '@pf/events';
import { ApiClient } from './testing/api-client';
import { readFeedPage } from './testing/event-feed';
import { testSingleNode } from './testing/single-node';

const idOf = async (client: ApiClient) => (await client.get<CurrentUserView>('/api/auth/user')).body.id;

/** A firm of its own: its admin, named, with the firm named. */
async function firm(url: string, name: string, admin: string) {
  const client = await ApiClient.signIn(url);
  const [firstName, lastName] = admin.split(' ');
  await client.put('/api/auth/profile', { firstName, lastName });
  expect((await client.put('/api/firm', { name })).status).toBe(200);
  return client;
}

const invite = async (admin: ApiClient, role: 'admin' | 'operator' | 'auditor' = 'operator') => {
  const answer = await admin.post<InviteView>('/api/firm/invites', { role });
  expect(answer.status).toBe(201);
  return answer.body.token;
};

/** Who each firm's stream says joined and left, in order (the firm's own history, not the accounts table). */
async function histories(url: string, firmIds: string[]) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const rows = await db.query<{ stream_name: string; type: string; user_id: string }>(
      `select stream_name, type, data->>'userId' as user_id from events
       where stream_name = any($1::text[]) and type in ('MemberJoined', 'MemberLeft', 'MemberRemoved') order by position`,
      [firmIds.map((id) => streams.firm(id))],
    );
    return rows.rows;
  } finally {
    await db.end();
  }
}

/** Membership on the real single node (real PostgreSQL, real HTTP; docs/decisions/departures.md). */
describe('firm membership that cannot break', () => {
  const node = testSingleNode({ AUTOMATION: 'off' });

  it('takes one of two invitations accepted at the same moment and refuses the other, every time', async () => {
    const url = node.server.url;
    const harbour = await firm(url, 'Harbour Mortgages', 'Ada Admin');
    const northgate = await firm(url, 'Northgate Lending', 'Bob Boss');
    const firmIds = [await idOf(harbour), await idOf(northgate)];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const carol = await ApiClient.signIn(url);
      const carolId = await idOf(carol);
      const [a, b] = await Promise.all([invite(harbour), invite(northgate)]);
      const answers = await Promise.all([
        carol.post<FirmView | ApiError>('/api/firm/join', { token: a }),
        carol.post<FirmView | ApiError>('/api/firm/join', { token: b }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.status === 409)!.body as ApiError;
      expect(refused.message).toBe('You are already a member of another firm: ask its admin to remove you before you join a new one');
      const joinedFirm = (answers.find((answer) => answer.status === 200)!.body as FirmView).id;
      // One firm's history has her, the other's never did; the accounts table and her session agree.
      const hers = (await histories(node.database.url, firmIds)).filter((row) => row.user_id === carolId);
      expect(hers).toEqual([{ stream_name: streams.firm(joinedFirm), type: 'MemberJoined', user_id: carolId }]);
      expect((await carol.get<CurrentUserView>('/api/auth/user')).body.firmId).toBe(joinedFirm);
      const other = firmIds.find((id) => id !== joinedFirm)!;
      const otherAdmin = other === firmIds[0] ? harbour : northgate;
      expect((await otherAdmin.get<FirmView>('/api/auth/firm')).body.members.map((m) => m.userId)).not.toContain(carolId);
    }
  });

  it('lets the last admin leave by no route until they name a successor, and a removal elsewhere leaves the person’s real firm alone', async () => {
    const url = node.server.url;
    const ada = await firm(url, 'Ada & Partners', 'Ada Able');
    const adaId = await idOf(ada);
    const carol = await ApiClient.signIn(url);
    expect((await carol.post('/api/firm/join', { token: await invite(ada) })).status).toBe(200);
    const carolId = await idOf(carol);

    // Demoting themselves, deleting their account, joining another firm: each refused while Carol is there.
    const demote = await ada.put<ApiError>(`/api/firm/members/${adaId}`, { role: 'operator' });
    expect(demote.status).toBe(409);
    expect(demote.body.message).toBe('A firm needs at least one admin: you are its only one, so make another member admin first');
    const deletion = await ada.request<ApiError>('DELETE', '/api/auth/account', { confirm: 'DELETE' });
    expect(deletion.status).toBe(409);
    expect(deletion.body.message).toContain('or name them as your successor');
    expect((await ada.get<CurrentUserView>('/api/auth/user')).status).toBe(200);
    const elsewhere = await firm(url, 'Elsewhere Ltd', 'Eve Else');
    const leave = await ada.post<ApiError>('/api/firm/join', { token: await invite(elsewhere) });
    expect(leave.status).toBe(409);
    expect(leave.body.message).toBe('You belong to a firm with other members: ask its admin to remove you first');
    expect((await ada.get<CurrentUserView>('/api/auth/user')).body.firmId).toBe(adaId);
    // A member who is not theirs to name is refused, and nothing is deleted.
    expect((await ada.request('DELETE', '/api/auth/account', { confirm: 'DELETE', successor: randomUUID() })).status).toBe(404);
    expect((await ada.get<CurrentUserView>('/api/auth/user')).status).toBe(200);

    // As if the old race had left Carol in a second firm's history: Eve "removes" her there.
    const eveId = await idOf(elsewhere);
    const sql = new pg.Pool({ connectionString: node.database.url, max: 1 });
    const store = new PostgresEventStore(sql, node.database.url);
    await store.append(
      streams.firm(eveId),
      [
        {
          id: randomUUID(),
          type: 'MemberJoined',
          data: { firmId: eveId, userId: carolId, role: 'operator', inviteId: null },
          metadata: { actor: { kind: 'system', name: 'the old join race' }, correlationId: randomUUID(), causationId: null },
        },
      ],
      'any',
    );
    await store.close();
    await sql.end();
    expect((await elsewhere.delete(`/api/firm/members/${carolId}`)).status).toBe(200);
    const still = await carol.get<CurrentUserView>('/api/auth/user');
    expect(still.status).toBe(200);
    expect(still.body).toMatchObject({ firmId: adaId, role: 'operator' });

    // Naming Carol as successor: she is made admin, then Ada goes.
    expect((await ada.request('DELETE', '/api/auth/account', { confirm: 'DELETE', successor: carolId })).status).toBe(200);
    const firmNow = (await carol.get<FirmView>('/api/auth/firm')).body;
    expect(firmNow).toMatchObject({ id: adaId, role: 'admin' });
    expect(firmNow.members.map((m) => [m.userId, m.role])).toEqual([[carolId, 'admin']]);
    const history = await histories(node.database.url, [adaId]);
    expect(history.at(-1)).toEqual({ stream_name: streams.firm(adaId), type: 'MemberLeft', user_id: adaId });
  });

  it('pauses the agents and revokes the tokens of a firm its only member leaves; a removed member’s tokens stop, their agents stay the firm’s', async () => {
    const url = node.server.url;
    const dan = await firm(url, 'Dan Direct', 'Dan Doe');
    const danId = await idOf(dan);
    const harriet = await dan.post<AgentView>('/api/agents', HARRIET_COLE);
    expect(harriet.status).toBe(201);
    const danToken = (await dan.post<CreatedApiTokenView>('/api/auth/tokens', { name: 'Old job', scopes: ['events:read'] })).body.token;
    expect((await readFeedPage(url, danToken)).status).toBe(200);

    const harbour = await firm(url, 'Harbour Two', 'Hal Harbour');
    expect((await dan.post('/api/firm/join', { token: await invite(harbour, 'admin') })).status).toBe(200);
    // The old token reads nothing more; the agent left behind in the empty firm is paused.
    expect((await readFeedPage(url, danToken)).status).toBe(401);
    await expect
      .poll(() => agentRow(node.database.url, harriet.body.id), { timeout: 10_000 })
      .toEqual({ firm_id: danId, is_active: false });

    // In Harbour Two, Dan creates an agent and a token; then Hal removes him.
    const agent = await dan.post<AgentView>('/api/agents', { ...HARRIET_COLE, name: 'Harbour Borrower' });
    const token = (await dan.post<CreatedApiTokenView>('/api/auth/tokens', { name: 'Dan job', scopes: ['events:read'] })).body.token;
    expect((await readFeedPage(url, token)).status).toBe(200);
    expect((await harbour.delete(`/api/firm/members/${danId}`)).status).toBe(200);
    expect((await readFeedPage(url, token)).status).toBe(401);
    const kept = (await harbour.get<AgentView[]>('/api/agents')).body.find((a) => a.id === agent.body.id);
    expect(kept).toMatchObject({ name: 'Harbour Borrower', isActive: true });
    // Dan's sessions ended; he is home again, as its admin, where his paused agent waits for him.
    expect((await dan.get('/api/auth/user')).status).toBe(401);
    expect(await accountFirm(node.database.url, danId)).toEqual({ firm_id: danId, firm_role: 'admin' });
    const history = await histories(node.database.url, [danId]);
    expect(history.map((row) => row.type)).toEqual(['MemberJoined', 'MemberLeft', 'MemberJoined']);
  });
});

async function query<Row extends pg.QueryResultRow>(url: string, text: string, values: unknown[]): Promise<Row | undefined> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query<Row>(text, values)).rows[0];
  } finally {
    await db.end();
  }
}
const agentRow = (url: string, agentId: number) => query(url, 'select firm_id, is_active from rm_agents where id = $1', [agentId]);
const accountFirm = (url: string, userId: string) => query(url, 'select firm_id, firm_role from users where id = $1', [userId]);
