import { describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import type {
  AgentView,
  ApiError,
  ConversationVerification,
  ConversationView,
  CurrentUserView,
  DealView,
  FirmView,
  HistoryPage,
  InviteView,
  NotificationsView,
  ServerMessage,
  UnreadCountView,
} from '@pf/events';

/** A socket of a signed-in client, with every message it was sent, and a bounded wait for one. */
async function openSocket(url: string, client: ApiClient) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { cookie: client.cookie, origin: url } });
  const received: ServerMessage[] = [];
  ws.on('message', (data) => received.push(JSON.parse((data as Buffer).toString()) as ServerMessage));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const waitFor = async (match: (message: ServerMessage) => boolean) => {
    await expect.poll(() => received.some(match), { timeout: 10_000, interval: 25 }).toBe(true);
    return received.find(match);
  };
  const close = () =>
    new Promise<void>((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve();
      ws.once('close', () => resolve());
      ws.close();
    });
  return { ws, received, waitFor, close };
}

const ids = (rows: { id: number }[]) => rows.map((row) => row.id).sort((a, b) => a - b);

/** Firms and roles on the real single node: real PostgreSQL, real HTTP and a real socket (no automation: scripted demo conversations). */
describe('a firm: invitations, roles on the API and the socket, removal', () => {
  const node = testSingleNode({ AUTOMATION: 'off' });

  it('lets A invite C, who sees the firm’s agents and conversations live and takes one over; an auditor reads History and verifies but may write nothing', async () => {
    const url = node.server.url;
    const ada = await ApiClient.signIn(url);
    await ada.put('/api/auth/profile', { firstName: 'Ada', lastName: 'Admin' });
    expect((await ada.put('/api/firm', { name: 'Harbour Mortgages' })).status).toBe(200);
    expect((await ada.post('/api/seed-demo')).status).toBe(201);
    const adaAgents = (await ada.get<AgentView[]>('/api/agents')).body;
    const adaConversations = (await ada.get<ConversationView[]>('/api/conversations')).body;
    expect(adaConversations.length).toBeGreaterThan(0);

    // Someone outside the firm sees none of it.
    const stranger = await ApiClient.signIn(url);
    expect((await stranger.get<AgentView[]>('/api/agents')).body).toEqual([]);
    expect((await stranger.get(`/api/conversations/${adaConversations[0]!.id}`)).status).toBe(404);

    // Only an admin invites; the link works once.
    const invite = await ada.post<InviteView>('/api/firm/invites', { role: 'operator' });
    expect(invite.status).toBe(201);
    expect(invite.body.link).toBe(`/join/${invite.body.token}`);
    const carol = await ApiClient.signIn(url);
    await carol.put('/api/auth/profile', { firstName: 'Carol', lastName: 'Colleague' });
    const joined = await carol.post<FirmView>('/api/firm/join', { token: invite.body.token });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ name: 'Harbour Mortgages', role: 'operator' });
    expect(joined.body.members.map((m) => [m.name, m.role])).toEqual([
      ['Ada Admin', 'admin'],
      ['Carol Colleague', 'operator'],
    ]);
    expect((await stranger.post<ApiError>('/api/firm/join', { token: invite.body.token })).body.message).toBe(
      'This invitation link has already been used; ask for a new one',
    );
    expect((await carol.get<CurrentUserView>('/api/auth/user')).body).toMatchObject({ firmName: 'Harbour Mortgages', role: 'operator' });

    // Carol sees the firm's agents and conversations as her own, and live.
    expect(ids((await carol.get<AgentView[]>('/api/agents')).body)).toEqual(ids(adaAgents));
    expect(ids((await carol.get<ConversationView[]>('/api/conversations')).body)).toEqual(ids(adaConversations));
    const carolSocket = await openSocket(url, carol);
    try {
      const created = await ada.post<AgentView>('/api/agents', { name: 'Priya Shah', type: 'borrower' });
      expect(created.status).toBe(201);
      await carolSocket.waitFor((m) => m.type === 'agent_updated' && m.agentId === created.body.id);

      // Carol, an operator, takes over the firm's side of a conversation; Ada's console sees their side taken by Carol.
      const conversationId = adaConversations[0]!.id;
      const taken = await carol.patch<ConversationView>(`/api/conversations/${conversationId}`, { isManualMode: true });
      expect(taken.status).toBe(200);
      expect(taken.body.control.find((c) => c.isMine)).toMatchObject({
        isManual: true,
        controllerName: 'Carol Colleague',
      });
      await carolSocket.waitFor(
        (m) => m.type === 'conversation_updated' && m.conversation.id === conversationId && m.conversation.isManualMode,
      );
      ada.lastPosition = carol.lastPosition;
      expect((await ada.get<ConversationView>(`/api/conversations/${conversationId}`)).body.isManualMode).toBe(true);
      expect(
        (await carol.post(`/api/conversations/${conversationId}/messages`, { content: 'Carol here for Harbour Mortgages.' })).status,
      ).toBe(201);
      expect((await carol.patch(`/api/conversations/${conversationId}`, { isManualMode: false })).status).toBe(200);
    } finally {
      await carolSocket.close();
    }

    // An auditor member: reads everything of the firm, History, verify and export included.
    const audit = await ada.post<InviteView>('/api/firm/invites', { role: 'auditor' });
    const eve = await ApiClient.signIn(url);
    expect((await eve.post<FirmView>('/api/firm/join', { token: audit.body.token })).body.role).toBe('auditor');
    const conversationId = adaConversations[0]!.id;
    const history = await eve.get<HistoryPage>(`/api/conversations/${conversationId}/history`);
    expect(history.status).toBe(200);
    expect(history.body.events.length).toBeGreaterThan(0);
    const verdict = await eve.get<ConversationVerification>(`/api/conversations/${conversationId}/verify`);
    expect(verdict.status).toBe(200);
    expect(verdict.body.intact).toBe(true);
    expect((await eve.get(`/api/conversations/${conversationId}/history/export?format=json`)).status).toBe(200);
    expect(ids((await eve.get<ConversationView[]>('/api/conversations')).body)).toEqual(ids(adaConversations));

    // ...and gets 403 naming the role on every write.
    const deal = (await eve.get<DealView[]>('/api/deals')).body[0];
    const agentId = adaAgents[0]!.id;
    const writes: [string, string, unknown][] = [
      ['POST', '/api/agents', { name: 'Not allowed', type: 'lender' }],
      ['PUT', `/api/agents/${agentId}`, { isActive: false }],
      ['DELETE', `/api/agents/${agentId}`, undefined],
      ['PATCH', `/api/conversations/${conversationId}`, { isManualMode: true }],
      ['POST', `/api/conversations/${conversationId}/messages`, { content: 'An auditor speaks' }],
      ['POST', '/api/seed-demo', undefined],
      ['POST', `/api/leads/${agentId}/match`, undefined],
      [
        'POST',
        '/api/deals',
        {
          borrowerAgentId: agentId,
          lenderAgentId: agentId,
          propertyValue: 300000,
          loanAmount: 200000,
          interestRate: 4.5,
          termYears: 25,
          arrangementFee: 999,
          propertyAddress: '1 High Street',
        },
      ],
      ...(deal ? ([['PATCH', `/api/deals/${deal.id}`, { stage: 'valuation' }]] as [string, string, unknown][]) : []),
    ];
    for (const [method, path, body] of writes) {
      const answer = await eve.request<ApiError>(method, path, body);
      expect([method, path, answer.status]).toEqual([method, path, 403]);
      expect(answer.body.message).toBe(
        'Your role is Auditor: auditors read everything of the firm but cannot create, change, take over or send',
      );
    }
    // Share is a write refused in its own words; View and Download stay open to her (a document nobody holds is
    // 404, not 403: the role let the request through).
    const noDocument = '00000000-0000-4000-8000-000000000000';
    const share = await eve.post<ApiError>(`/api/documents/${noDocument}/share`);
    expect([share.status, share.body.message]).toEqual([
      403,
      'Your role is Auditor: auditors read everything of the firm but cannot share a document outside the firm',
    ]);
    for (const kind of ['preview', 'downloads']) {
      expect([kind, (await eve.post(`/api/documents/${noDocument}/${kind}`)).status]).toEqual([kind, 404]);
    }
    const membersOnly = await eve.post<ApiError>('/api/firm/invites', { role: 'operator' });
    expect(membersOnly.status).toBe(403);
    expect(membersOnly.body.message).toBe('Your role is Auditor: auditors read everything of the firm but cannot invite members');

    // The socket refuses an auditor's takeover and message with the same 403.
    const eveSocket = await openSocket(url, eve);
    try {
      eveSocket.ws.send(JSON.stringify({ type: 'manual_override', requestId: 'take', conversationId, enabled: true }));
      eveSocket.ws.send(JSON.stringify({ type: 'send_message', requestId: 'say', conversationId, content: 'Hello' }));
      for (const requestId of ['take', 'say']) {
        expect(await eveSocket.waitFor((m) => 'requestId' in m && m.requestId === requestId)).toEqual({
          type: 'error',
          requestId,
          status: 403,
          message: 'Your role is Auditor: auditors read everything of the firm but cannot create, change, take over or send',
        });
      }
    } finally {
      await eveSocket.close();
    }
    const pool = new pg.Pool({ connectionString: node.database.url, max: 1 });
    try {
      // Nothing stored for the auditor but their joining the firm: their own membership, their firm of one's
      // founding and their leaving it (docs/decisions/departures.md), and this firm's MemberJoined.
      const written = await pool.query<{ type: string }>(
        `select type from events where metadata->'actor'->>'userId' = (select id::text from users where firm_role = 'auditor') order by position`,
      );
      expect(written.rows.map((row) => row.type)).toEqual([
        'MembershipChanged',
        'FirmCreated',
        'MemberJoined',
        'MemberLeft',
        'MemberJoined',
      ]);
    } finally {
      await pool.end();
    }

    // An admin changes roles: the auditor, made operator, may take over.
    const eveId = (await eve.get<CurrentUserView>('/api/auth/user')).body.id;
    expect((await ada.put(`/api/firm/members/${eveId}`, { role: 'operator' })).status).toBe(200);
    expect((await eve.patch(`/api/conversations/${conversationId}`, { isManualMode: true })).status).toBe(200);

    // Removing a member ends their sessions at once; they are back in a firm of their own, seeing nothing of this one.
    const carolId = (await carol.get<CurrentUserView>('/api/auth/user')).body.id;
    const removed = await ada.delete<FirmView>(`/api/firm/members/${carolId}`);
    expect(removed.status).toBe(200);
    expect(removed.body.members.map((m) => m.name)).not.toContain('Carol Colleague');
    expect((await carol.get('/api/agents')).status).toBe(401);
    const carolAgain = await ApiClient.signIn(url);
    expect((await carolAgain.get<ConversationView[]>('/api/conversations')).body).toEqual([]);
  });

  it("shows a colleague the firm's notifications as their own; another firm sees none and cannot mark them; reading is each person's", async () => {
    const url = node.server.url;
    const ada = await ApiClient.signIn(url);
    expect((await ada.post('/api/seed-demo')).status).toBe(201);
    const carol = await ApiClient.signIn(url);
    // Carol is the firm's auditor: she reads everything of the firm, and marks notifications read for herself.
    const invite = await ada.post<InviteView>('/api/firm/invites', { role: 'auditor' });
    expect((await carol.post('/api/firm/join', { token: invite.body.token })).status).toBe(200);
    const stranger = await ApiClient.signIn(url);

    // Ada's demo agents' matches and deals are the firm's news: Carol lists the same notifications, unread.
    carol.lastPosition = ada.lastPosition;
    const adas = (await ada.get<NotificationsView>('/api/notifications')).body;
    expect(adas.notifications.length).toBeGreaterThan(1);
    const carols = (await carol.get<NotificationsView>('/api/notifications')).body;
    expect(carols).toEqual(adas);
    expect((await carol.get<UnreadCountView>('/api/notifications/unread-count')).body.unread).toBe(adas.summary.unread);

    // Another firm sees none of them, and cannot mark one read: 404, as for an id that does not exist.
    expect((await stranger.get<NotificationsView>('/api/notifications')).body.notifications).toEqual([]);
    const first = adas.notifications[0]!.id;
    const refused = await stranger.post<ApiError>(`/api/notifications/${first}/read`);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(`Notification ${first} not found`);

    // Carol marks one read: read for her only; Ada's list and bell are as they were, and only Carol's console is told.
    const adaSocket = await openSocket(url, ada);
    const carolSocket = await openSocket(url, carol);
    try {
      adaSocket.received.length = 0; // only what the reads below cause from here
      expect((await carol.post(`/api/notifications/${first}/read`)).status).toBe(200);
      await carolSocket.waitFor((m) => m.type === 'views_changed' && m.views.includes('notifications'));
      const carolsAfter = (await carol.get<NotificationsView>('/api/notifications')).body;
      expect(carolsAfter.notifications.find((n) => n.id === first)!.read).toBe(true);
      expect(carolsAfter.summary.unread).toBe(adas.summary.unread - 1);
      ada.lastPosition = carol.lastPosition;
      const adasAfter = (await ada.get<NotificationsView>('/api/notifications')).body;
      expect(adasAfter.notifications.find((n) => n.id === first)!.read).toBe(false);
      expect(adasAfter.summary.unread).toBe(adas.summary.unread);

      // Mark All Read by Carol (the auditor): none unread for her, every one of Ada's (the admin's) still unread.
      expect((await carol.post('/api/notifications/read-all')).status).toBe(200);
      expect((await carol.get<UnreadCountView>('/api/notifications/unread-count')).body.unread).toBe(0);
      ada.lastPosition = carol.lastPosition;
      expect((await ada.get<UnreadCountView>('/api/notifications/unread-count')).body.unread).toBe(adas.summary.unread);

      // Ada's own read is pushed to her: the first push about notifications her socket got since Carol's reads
      // (the gateway pushes in the log's order, so a push for Carol's reads would have come before it).
      expect((await ada.post(`/api/notifications/${first}/read`)).status).toBe(200);
      await adaSocket.waitFor((m) => m.type === 'views_changed' && m.views.includes('notifications'));
      const pushed = adaSocket.received.filter((m) => m.type === 'views_changed' && m.views.includes('notifications'));
      expect(pushed).toHaveLength(1);
      expect((await ada.get<UnreadCountView>('/api/notifications/unread-count')).body.unread).toBe(adas.summary.unread - 1);
    } finally {
      await adaSocket.close();
      await carolSocket.close();
    }
  });
});
