import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import {
  formatPosition,
  streams,
  type AgentView,
  type ConversationView,
  type DealView,
  type FirmView,
  type NotificationsView,
} from '@pf/events';
import { dealAgreed, HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import { PostgresEventStore } from '@pf/infra';
import { ApiClient } from '../testing/api-client';
import { PDF_BYTES, uploadDocument } from '../testing/documents';
import type { RunningServer } from '../server';

/**
 * One firm's scripted business on a single node with the automation off, so that everything it does is its own
 * doing and comes out the same every time it runs. Nothing here can bring the two firms' agents together: the
 * matcher is off, demo data meets only the same firm's demo data, and every conversation, deal and document is
 * made between the firm's own agents. What another firm could legitimately read of this one (a conversation
 * between their agents) is excluded by construction, so any difference in what the other firm reads is a leak.
 */
export async function openFirm(url: string, first: string, last: string, firm: string): Promise<ApiClient> {
  const person = await ApiClient.signIn(url);
  expect((await person.put('/api/auth/profile', { firstName: first, lastName: last })).status).toBe(200);
  expect((await person.put('/api/firm', { name: firm })).status).toBe(200);
  return person;
}

/** Demo data and agents of its own, one edited, one paused and resumed, one deleted. */
export async function createAgents(person: ApiClient): Promise<void> {
  expect((await person.post('/api/seed-demo')).status).toBe(201);
  const borrower = await person.post<AgentView>('/api/agents', HARRIET_COLE);
  expect(borrower.status).toBe(201);
  expect((await person.post<AgentView>('/api/agents', WESSEX_BUILDING_SOCIETY)).status).toBe(201);
  expect((await person.put(`/api/agents/${borrower.body.id}`, { description: 'First-time buyer, Bristol' })).status).toBe(200);
  expect((await person.put(`/api/agents/${borrower.body.id}`, { isActive: false })).status).toBe(200);
  expect((await person.put(`/api/agents/${borrower.body.id}`, { isActive: true })).status).toBe(200);
  const spare = await person.post<AgentView>('/api/agents', { ...HARRIET_COLE, name: 'Spare Borrower' });
  expect((await person.delete(`/api/agents/${spare.body.id}`)).status).toBe(200);
}

/** Takes the firm's first scripted demo conversation over on both sides, speaks and offers in it, hands it back. */
export async function negotiateByHand(person: ApiClient, words: string): Promise<void> {
  const conversation = (await person.get<ConversationView[]>('/api/conversations')).body.at(-1)!;
  expect((await person.patch(`/api/conversations/${conversation.id}`, { isManualMode: true })).status).toBe(200);
  expect((await person.post(`/api/conversations/${conversation.id}/messages`, { content: words })).status).toBe(201);
  const offer = { loanAmount: 240_000, interestRate: 4.4, termYears: 25, arrangementFee: 999 };
  expect((await person.post(`/api/conversations/${conversation.id}/offers`, offer)).status).toBeLessThan(300);
  expect((await person.patch(`/api/conversations/${conversation.id}`, { isManualMode: false })).status).toBe(200);
}

/** A deal entered with New Deal between two of the firm's agents, a document on it, and the deal taken to completion. */
export async function dealByHand(person: ApiClient, address: string, borrowerIndex: number): Promise<void> {
  const agents = (await person.get<AgentView[]>('/api/agents')).body;
  const deal = await person.post<DealView>('/api/deals', {
    propertyAddress: address,
    // A borrower of its own per deal: a second deal for a borrower who has one is refused.
    borrowerAgentId: agents.filter((a) => a.type === 'borrower')[borrowerIndex]!.id,
    lenderAgentId: agents.find((a) => a.type === 'lender')!.id,
    propertyValue: 320_000,
    loanAmount: 240_000,
    interestRate: 4.6,
    termYears: 25,
    arrangementFee: 999,
  });
  expect(deal.status).toBe(201);
  expect(
    (await uploadDocument(person, { dealId: deal.body.id, type: 'valuation' }, { name: 'valuation.pdf', bytes: PDF_BYTES })).status,
  ).toBe(201);
  for (const stage of ['valuation', 'underwriting', 'completed']) {
    expect((await person.patch(`/api/deals/${deal.body.id}`, { stage })).status).toBe(200);
  }
}

/** Reads the firm's notifications and marks the first one read. */
/**
 * Marks the person's newest notification read; with `about`, once the newest is about it (a deal's completion is
 * told by a follower of its own, so it may be listed a moment after the read that names the completing write).
 */
export async function readNotifications(person: ApiClient, about?: string): Promise<void> {
  const newest = async () => (await person.get<NotificationsView>('/api/notifications')).body.notifications[0];
  if (about) await expect.poll(async () => (await newest())?.message ?? '', { timeout: 30_000 }).toContain(about);
  const first = await newest();
  if (first) expect((await person.post(`/api/notifications/${first.id}/read`)).status).toBe(200);
}

/**
 * A negotiation agreed between two of the firm's demo agents, written to the store as the automation would write
 * it (the automation is off in these runs): the deal opener opens its deal, and the notifications and the
 * analytics count it, as they do every agreement.
 */
export async function agreeInStore(server: RunningServer, person: ApiClient): Promise<void> {
  const agents = (await person.get<AgentView[]>('/api/agents')).body;
  const borrower = agents.filter((a) => a.type === 'borrower')[1]!;
  const lender = agents.find((a) => a.type === 'lender')!;
  const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  const store = new PostgresEventStore(pool, server.databaseUrl);
  try {
    const { rows } = await pool.query<{ id: string }>(`select nextval('conversation_ids')::text as id`);
    const conversationId = Number(rows[0]!.id);
    const firm = (await person.get<FirmView>('/api/auth/firm')).body;
    const ownerId = firm.members.find((m) => m.isYou)!.userId;
    const party = (agent: AgentView) => ({ agentId: agent.id, ownerId, firmId: firm.id, name: agent.name, type: agent.type });
    const metadata = { actor: { kind: 'system' as const, name: 'firm-differential' }, correlationId: randomUUID(), causationId: null };
    const agreed = dealAgreed({
      dealId: randomUUID(),
      conversationId,
      borrowerAgentId: borrower.id,
      lenderAgentId: lender.id,
      brokerAgentId: null,
    });
    await store.append(
      streams.conversation(conversationId),
      [
        {
          type: 'ConversationStarted',
          data: {
            conversationId,
            title: `${borrower.name} ↔ ${lender.name}`,
            participants: [party(borrower), party(lender)],
            matchId: null,
          },
        },
        agreed,
        { type: 'ConversationCompleted', data: { conversationId, outcome: 'agreed', reason: 'Terms agreed' } },
      ].map((event) => ({ id: randomUUID(), ...event, metadata })),
      'no_stream',
    );
    // The deal opener has opened it before the reading begins.
    await expect
      .poll(async () => (await person.get<DealView[]>('/api/deals')).body.some((d) => d.conversationId === conversationId), {
        timeout: 15_000,
      })
      .toBe(true);
  } finally {
    await store.close();
    await pool.end();
  }
}

/** A socket of the firm's person, keeping every message it is sent. */
export async function openSocket(url: string, person: ApiClient): Promise<{ received: unknown[]; close(): Promise<void> }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { cookie: person.cookie, origin: url } });
  const received: unknown[] = [];
  ws.on('message', (data) => received.push(JSON.parse((data as Buffer).toString())));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    received,
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}

/** The position of the last event committed, so a read can wait until every follower has passed it. */
export async function headPosition(server: RunningServer): Promise<string> {
  return formatPosition(await server.probe.headPosition());
}
