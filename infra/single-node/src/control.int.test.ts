import { describe, expect, it } from 'vitest';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import type { AgentView, ApiError, ConversationView, CurrentUserView, FirmView, InviteView, MessageView, OfferMadeView } from '@pf/events';

describe('control per side: two users whose agents are matched', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '150' });

  it("lets each take over only their own side; the other side's agent keeps negotiating", async () => {
    const alice = await ApiClient.signIn(node.server.url);
    const bob = await ApiClient.signIn(node.server.url);
    await alice.put('/api/auth/profile', { firstName: 'Alice', lastName: 'Borrowes' });
    await bob.put('/api/auth/profile', { firstName: 'Bob', lastName: 'Lendell' });
    const borrower = (
      await alice.post<AgentView>('/api/agents', {
        ...HARRIET_COLE,
      })
    ).body;
    const lender = (
      await bob.post<AgentView>('/api/agents', {
        ...WESSEX_BUILDING_SOCIETY,
      })
    ).body;
    await expect
      .poll(async () => (await bob.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 10_000, interval: 50 })
      .toBe(1);
    const conversation = (await alice.get<ConversationView[]>('/api/conversations')).body[0]!;
    expect((await bob.get<ConversationView>(`/api/conversations/${conversation.id}`)).body.title).toBe(conversation.title);

    // Alice cannot switch Bob's side: 403 naming the rule; she can take over her own.
    const refused = await alice.patch<ApiError>(`/api/conversations/${conversation.id}`, { isManualMode: true, agentId: lender.id });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      "Wessex Building Society belongs to another firm: you can take over or hand back only your own firm's agents",
    );
    const taken = await alice.patch<ConversationView>(`/api/conversations/${conversation.id}`, { isManualMode: true });
    expect(taken.status).toBe(200);
    expect(taken.body.isManualMode).toBe(true);
    expect(taken.body.control.find((c) => c.isMine)).toMatchObject({
      agentIds: [borrower.id],
      isManual: true,
      controllerName: 'Alice Borrowes',
    });

    bob.lastPosition = alice.lastPosition; // Bob reads after Alice's switch (his console would be pushed it)
    const asBob = (await bob.get<ConversationView>(`/api/conversations/${conversation.id}`)).body;
    expect(asBob.isManualMode).toBe(false);
    expect(asBob.control).toEqual([
      {
        agentId: borrower.id,
        agentIds: [borrower.id],
        side: 'borrower',
        isMine: false,
        isManual: true,
        controllerId: null,
        controllerName: 'Alice Borrowes',
        sessionId: null,
        since: expect.any(String) as unknown,
      },
      {
        agentId: lender.id,
        agentIds: [lender.id],
        side: 'lender',
        isMine: true,
        isManual: false,
        controllerId: null,
        controllerName: null,
        sessionId: null,
        since: null,
      },
    ]);
    // The command's answer (folded without reading back its own event) and the read side agree on the time.
    expect(asBob.control[0]!.since).toBe(taken.body.control.find((c) => c.isMine)!.since);

    // Alice states terms as her side; Bob's agent (still automatic) answers; Alice's agent says nothing.
    const messages = async () => (await bob.get<MessageView[]>(`/api/conversations/${conversation.id}/messages`)).body;
    const before = (await messages()).length;
    const aliceSays = await alice.post<MessageView>(`/api/conversations/${conversation.id}/messages`, {
      content: 'We could accept 4.6% over 25 years.',
    });
    expect(aliceSays.status).toBe(201);
    await expect
      .poll(async () => (await messages()).slice(before + 1).some((m) => m.isAutomated && m.fromAgentId === lender.id), {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(true);
    expect((await messages()).slice(before).filter((m) => m.isAutomated && !m.isReading && m.fromAgentId === borrower.id)).toEqual([]);
    // Bob cannot speak before taking over his side; once both sides are manual, two people talk through their agents.
    expect((await bob.post(`/api/conversations/${conversation.id}/messages`, { content: 'Hello' })).status).toBe(400);
    expect((await bob.patch(`/api/conversations/${conversation.id}`, { isManualMode: true })).status).toBe(200);
    const bobSays = await bob.post<MessageView>(`/api/conversations/${conversation.id}/messages`, {
      content: 'Hello Alice, 4.8% is our best.',
    });
    expect(bobSays.body).toMatchObject({ fromAgentId: lender.id, isAutomated: false });

    // Alice deletes her account: Bob keeps the conversation and its history, his own words included; her name and
    // what she typed are gone from it (docs/decisions/hash-chain.md "Erasure"), her message standing as removed.
    const said = await messages();
    expect((await alice.request('DELETE', '/api/auth/account', { confirm: 'DELETE' })).status).toBe(200);
    bob.lastPosition = alice.lastPosition;
    const kept = (await bob.get<ConversationView>(`/api/conversations/${conversation.id}`)).body;
    expect(kept.control[0]).toMatchObject({ isManual: true, controllerName: null });
    const history = await messages();
    expect(history.map((m) => m.id).slice(0, said.length)).toEqual(said.map((m) => m.id));
    expect(history.find((m) => m.id === aliceSays.body.id)?.content).toBe('Removed: a party to this conversation deleted their account');
    expect(history.some((m) => m.content.includes('4.6% over 25 years'))).toBe(false);
    expect(history.find((m) => m.id === bobSays.body.id)?.content).toBe('Hello Alice, 4.8% is our best.');
  });

  it('lets exactly one of two sessions of one account take a side at once; the other is told who has it', async () => {
    const { client: first, device } = await signIn(node.server.url);
    await first.post('/api/seed-demo');
    // With automation on, the matcher opens the demo conversations after the seed returns.
    await expect
      .poll(async () => (await first.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 10_000, interval: 50 })
      .toBeGreaterThan(0);
    const conversation = (await first.get<ConversationView[]>('/api/conversations')).body[0]!;
    // A second session of the same account: the same browser signing in again with its device identity.
    const { client: second } = await signIn(node.server.url, device);
    expect((await second.get<CurrentUserView>('/api/auth/user')).body.id).toBe(
      (await first.get<CurrentUserView>('/api/auth/user')).body.id,
    );
    const answers = await Promise.all(
      [first, second].map((c) => c.patch<ApiError>(`/api/conversations/${conversation.id}`, { isManualMode: true })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const loser = answers.find((a) => a.status === 409)!;
    expect(loser.body.message).toMatch(/changed by someone else|another session/);
    const again = await [first, second][answers.indexOf(loser)]!.patch<ApiError>(`/api/conversations/${conversation.id}`, {
      isManualMode: true,
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You already have control of your side in another session; hand it back there, or ask for control');
  });
});

describe('control per side within one firm (docs/decisions/per-side-control.md)', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '150' });

  it('gives a side only to the colleague it is handed to; a colleague cannot take or hand back a side held; another firm gets nothing', async () => {
    const ada = await ApiClient.signIn(node.server.url);
    const ben = await ApiClient.signIn(node.server.url);
    const auditor = await ApiClient.signIn(node.server.url);
    const cy = await ApiClient.signIn(node.server.url);
    await ada.put('/api/auth/profile', { firstName: 'Ada', lastName: 'Archer' });
    await ben.put('/api/auth/profile', { firstName: 'Ben', lastName: 'Brooks' });
    for (const [client, role] of [
      [ben, 'operator'],
      [auditor, 'auditor'],
    ] as const) {
      const invite = await ada.post<InviteView>('/api/firm/invites', { role });
      expect((await client.post<FirmView>('/api/firm/join', { token: invite.body.token })).status).toBe(200);
    }
    // Ben's borrower and Ada's lender: both sides are the firm's.
    const borrower = (await ben.post<AgentView>('/api/agents', { ...HARRIET_COLE })).body;
    const lender = (await ada.post<AgentView>('/api/agents', { ...WESSEX_BUILDING_SOCIETY })).body;
    await expect
      .poll(async () => (await ada.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 10_000, interval: 50 })
      .toBe(1);
    const id = (await ada.get<ConversationView[]>('/api/conversations')).body[0]!.id;
    const path = `/api/conversations/${id}`;
    const sessionOf = async (client: ApiClient) => (await client.get<CurrentUserView>('/api/auth/user')).body.sessionId!;

    // Ben takes the borrower side only: the lender's agent is not silenced.
    const taken = await ben.patch<ConversationView>(path, { isManualMode: true, agentIds: [borrower.id] });
    expect(taken.status).toBe(200);
    expect(taken.body.control.map((side) => [side.side, side.isManual, side.controllerName])).toEqual([
      ['borrower', true, 'Ben Brooks'],
      ['lender', false, null],
    ]);
    // Ada may neither take it nor hand it back: 409 in words; her switch off holding nothing is refused, not "done".
    const words = 'The borrower side (Harriet Cole) is held by another person of your firm: request control, and they can hand it over';
    for (const body of [
      { isManualMode: true, agentId: borrower.id },
      { isManualMode: false, agentId: borrower.id },
      { isManualMode: false },
    ]) {
      const refused = await ada.patch<ApiError>(path, body);
      expect([refused.status, refused.body.message]).toEqual([409, words]);
    }
    // Only the holder hands over, and only to a person of the firm who may write.
    const adaSession = await sessionOf(ada);
    expect((await ada.post<ApiError>(`${path}/hand-over`, { agentId: borrower.id, toSessionId: adaSession })).body.message).toBe(
      'Only the person holding the borrower side (Harriet Cole) can hand it over',
    );
    expect((await ben.post<ApiError>(`${path}/hand-over`, { agentId: borrower.id, toSessionId: await sessionOf(cy) })).body.message).toBe(
      'The borrower side (Harriet Cole) can be handed over only to a person of its own firm',
    );
    expect(
      (await ben.post<ApiError>(`${path}/hand-over`, { agentId: borrower.id, toSessionId: await sessionOf(auditor) })).body.message,
    ).toBe('The borrower side (Harriet Cole) can be handed over only to an Admin or an Operator');
    expect((await cy.post<ApiError>(`${path}/hand-over`, { agentId: borrower.id, toSessionId: await sessionOf(cy) })).status).toBe(404);
    const bad = await ben.post<ApiError>(`${path}/hand-over`, { agentId: borrower.id });
    expect([bad.status, bad.body.message]).toEqual([400, 'toSessionId: toSessionId must be the asking session']);

    // Handed over: Ada holds exactly the borrower side, Ben nothing; she speaks for it, he cannot.
    const handed = await ben.post<ConversationView>(`${path}/hand-over`, { agentId: borrower.id, toSessionId: adaSession });
    expect(handed.status).toBe(200);
    ada.lastPosition = ben.lastPosition;
    const asAda = (await ada.get<ConversationView>(path)).body;
    const adaId = (await ada.get<CurrentUserView>('/api/auth/user')).body.id;
    expect(asAda.control.map((side) => [side.side, side.isManual, side.controllerId, side.controllerName, side.sessionId])).toEqual([
      ['borrower', true, adaId, 'Ada Archer', adaSession],
      ['lender', false, null, null, null],
    ]);
    expect((await ben.post<ApiError>(`${path}/messages`, { content: 'Still me?', fromAgentId: borrower.id })).status).toBe(409);
    const said = await ada.post<MessageView>(`${path}/messages`, { content: 'Ada here for Harriet.' });
    expect(said.body).toMatchObject({ fromAgentId: borrower.id, isAutomated: false });
    expect((await ada.patch<ConversationView>(path, { isManualMode: false })).body.control.every((side) => !side.isManual)).toBe(true);
    expect(lender.id).toBeGreaterThan(0);
  });
});

// A node of its own: the lender of the tests above lends on the same case, and its conversation (automated again once
// handed back) could claim the borrower before this test's offer.
describe('a structured offer from a member who joined the firm (docs/decisions/firms-and-visibility.md)', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '150' });

  // docs/decisions/firms-and-visibility.md: a side is spoken for by any operator of its firm. Make offer decided the
  // speaker's firm from their user id, so a member who joined a firm (their id is not the firm's) was told the
  // conversation did not exist; the command now carries the session's firm, as every other one does.
  it('takes a structured offer from a member who joined the firm, for the side they hold', async () => {
    const founder = await ApiClient.signIn(node.server.url);
    const member = await ApiClient.signIn(node.server.url);
    const other = await ApiClient.signIn(node.server.url);
    const invite = await founder.post<InviteView>('/api/firm/invites', { role: 'operator' });
    expect((await member.post<FirmView>('/api/firm/join', { token: invite.body.token })).status).toBe(200);
    const borrower = (await member.post<AgentView>('/api/agents', { ...HARRIET_COLE })).body;
    await other.post<AgentView>('/api/agents', { ...WESSEX_BUILDING_SOCIETY });
    await expect
      .poll(async () => (await member.get<ConversationView[]>('/api/conversations')).body.length, { timeout: 10_000, interval: 50 })
      .toBe(1);
    const id = (await member.get<ConversationView[]>('/api/conversations')).body[0]!.id;
    expect((await member.patch(`/api/conversations/${id}`, { isManualMode: true, agentIds: [borrower.id] })).status).toBe(200);
    const offered = await member.post<OfferMadeView>(`/api/conversations/${id}/offers`, {
      loanAmount: 300_000,
      interestRate: 4.25,
      termYears: 25,
      arrangementFee: 999,
    });
    expect({ status: offered.status, body: offered.body }).toMatchObject({
      status: 201,
      body: { fromAgentId: borrower.id, terms: { interestRate: 4.25 } },
    });
  });
});

/** Signs in like a browser, keeping the session and the device identity cookies. */
async function signIn(baseUrl: string, device?: string): Promise<{ client: ApiClient; device: string }> {
  const response = await fetch(`${baseUrl}/api/login`, { redirect: 'manual', headers: device ? { cookie: device } : {} });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
  const client = Object.assign(new ApiClient(baseUrl), { cookie: cookies.find((c) => c.startsWith('pf_session='))! });
  return { client, device: cookies.find((c) => c.startsWith('pf_device='))! };
}
