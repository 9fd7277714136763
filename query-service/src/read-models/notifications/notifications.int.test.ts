import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES, type DomainEvent } from '@pf/events';
import { dealOpened } from '@pf/events/testing';
import { projectReadModels } from '..';
import { readModelDatabase, recorded } from '../testing';
import { listNotifications, notificationPreferencesOf, unreadCount } from './queries';
import { notificationId } from './projection';

const participant = (agentId: number, ownerId: string, type: 'borrower' | 'lender') => ({
  agentId,
  ownerId,
  name: `${ownerId}'s ${type}`,
  type,
});
const agent = (agentId: number, ownerId: string, type: 'borrower' | 'lender'): DomainEvent => ({
  type: 'AgentCreated',
  data: { ...participant(agentId, ownerId, type), description: '', criteria: null },
});
/** A PDF uploaded to a deal (the events here are read as stored ones: whole, as the contract describes them). */
const uploaded = (data: {
  documentId: string;
  dealId: string;
  name: string;
  uploadedBy: { userId: string };
  ownerIds: string[];
}): DomainEvent => ({
  type: 'DocumentUploaded',
  data: { ...data, documentType: 'valuation', contentType: 'application/pdf', size: 1024, sha256: 'a'.repeat(64) },
});
/** The terms the deals here are agreed on: £300,000 on a £400,000 property at 4.3% over 25 years. */
const AGREED_TERMS = { propertyValue: 400_000, loanAmount: 300_000, ltv: 75, interestRate: 4.3, termYears: 25, arrangementFee: 999 };
/** A deal opened by hand for 12 Elm Street between alice's borrower agent and bob's lender agent. */
const manualDeal = (dealId: string) =>
  dealOpened({
    dealId,
    source: 'manual',
    agreedInConversationId: null,
    borrower: { agentId: 1, ownerId: 'alice', name: 'Harriet Cole', type: 'borrower' },
    lender: { agentId: 2, ownerId: 'bob', name: 'Wessex BS', type: 'lender' },
    propertyAddress: '12 Elm Street',
    ...AGREED_TERMS,
  });
const terms = { interestRate: 4.1, termYears: 25, loanAmount: 250_000, arrangementFee: 999 };
const offer = (conversationId: number, offerId: string, fromAgentId: number, toAgentId: number): DomainEvent => ({
  type: 'OfferMade',
  data: { conversationId, offerId, round: 0, fromAgentId, toAgentId, terms },
});

describe('notifications read model', () => {
  const db = readModelDatabase();

  let calls = 0;
  async function project(events: DomainEvent[], actor: (index: number) => string | null = () => null, batches: 'one' | 'each' = 'one') {
    calls += 1;
    // Each call's events get ids of their own, as the store gives every event a UUID.
    const batch = recorded(events).map((r, index) => {
      const userId = actor(index);
      const withId = { ...r, id: `call-${calls}-${r.id}` };
      return userId ? { ...withId, metadata: { ...r.metadata, actor: { kind: 'user' as const, userId } } } : withId;
    });
    const client = await db.pool.connect();
    try {
      if (batches === 'one') await projectReadModels(client, batch);
      else for (const event of batch) await projectReadModels(client, [event]);
    } finally {
      client.release();
    }
    return batch;
  }

  const started: DomainEvent = {
    type: 'ConversationStarted',
    data: {
      conversationId: 10,
      title: 'Loan for 12 Elm Street',
      participants: [participant(1, 'alice', 'borrower'), participant(2, 'bob', 'lender')],
      matchId: 'm1',
    },
  };

  for (const batches of ['one', 'each'] as const) {
    it(`tells each person what matters to them, with priorities from the event (${batches === 'one' ? 'one batch' : 'an event per batch'})`, async () => {
      await db.reset();
      const events: DomainEvent[] = [
        agent(1, 'alice', 'borrower'),
        agent(2, 'bob', 'lender'),
        agent(3, 'alice', 'lender'),
        {
          type: 'MatchFound',
          data: { matchId: 'm1', borrowerAgentId: 1, lenderAgentId: 2, brokerAgentId: null, score: 92, explanation: [] },
        },
        started,
        offer(10, 'o1', 2, 1), // bob's agent offers to alice's: news to alice only
        offer(10, 'o2', 1, 2), // alice's agent answers: news to bob only
        offer(10, 'o3', 3, 1), // alice's own agents: news to no one
        { type: 'ManualModeChanged', data: { conversationId: 10, isManualMode: true } }, // alice takes over: news to bob
        { type: 'ConversationCompleted', data: { conversationId: 10, outcome: 'no_agreement', reason: 'No agreement within 10 rounds.' } },
      ];
      await project(events, (index) => (index === 8 ? 'alice' : null), batches);

      const alice = await listNotifications(db.pool, 'alice');
      const bob = await listNotifications(db.pool, 'bob');
      const summary = (list: typeof alice) => list.notifications.map((n) => [n.title, n.priority, n.type]).sort();
      expect(summary(alice)).toEqual(
        [
          ['New match found', 'medium', 'agent'],
          ['Offer received', 'medium', 'message'],
          ['Deal failed', 'high', 'deal'],
        ].sort(),
      );
      expect(summary(bob)).toEqual(
        [
          ['New match found', 'medium', 'agent'],
          ['Offer received', 'medium', 'message'],
          ['Conversation taken over', 'medium', 'message'],
          ['Deal failed', 'high', 'deal'],
        ].sort(),
      );
      expect(alice.notifications.find((n) => n.title === 'Offer received')).toMatchObject({
        message: "bob's lender offered alice's borrower £250,000 at 4.10% over 25 years (fee £999).",
        link: '/conversations/10',
        read: false,
      });
      expect(bob.notifications.find((n) => n.title === 'Conversation taken over')?.message).toBe(
        "The operator of alice's borrower took manual control of Loan for 12 Elm Street.",
      );
      expect(alice.summary).toMatchObject({ unread: 3, highPriority: 1 });
      expect(await unreadCount(db.pool, 'bob')).toBe(4);
    });
  }

  it('tells the owners of a deal when it fails or completes, and of a document uploaded by someone else or rejected', async () => {
    await db.reset();
    const dealId = '11111111-1111-4111-8111-111111111111';
    await project(
      [
        manualDeal(dealId),
        uploaded({
          documentId: '0d0c0000-0000-4000-8000-000000000001',
          dealId,
          name: 'Valuation report.pdf',
          uploadedBy: { userId: 'alice' },
          ownerIds: ['alice', 'bob'],
        }),
        {
          type: 'DocumentStatusChanged',
          data: { documentId: '0d0c0000-0000-4000-8000-000000000001', status: 'rejected', from: 'pending' },
        },
      ],
      (index) => (index === 1 ? 'alice' : index === 2 ? 'bob' : null),
      'each',
    );
    await project([{ type: 'DealStatusChanged', data: { dealId, status: 'cancelled', from: 'active' } }]);
    const titles = async (user: string) =>
      (await listNotifications(db.pool, user)).notifications.map((n) => [n.title, n.priority, n.message]).sort();
    expect(await titles('alice')).toEqual([
      ['Deal failed', 'high', 'The deal for 12 Elm Street was cancelled.'],
      ['Document rejected', 'high', 'Valuation report.pdf was rejected; upload a corrected copy.'],
    ]);
    expect(await titles('bob')).toEqual([
      ['Deal failed', 'high', 'The deal for 12 Elm Street was cancelled.'],
      ['Document rejected', 'high', 'Valuation report.pdf was rejected.'],
      ['Document uploaded', 'low', 'Valuation report.pdf was uploaded to one of your deals.'],
    ]);
  });

  it('marks one or all as read in stream order, and creates nothing of a kind switched off', async () => {
    await db.reset();
    const setup = await project([
      agent(1, 'alice', 'borrower'),
      agent(2, 'bob', 'lender'),
      started,
      offer(10, 'o1', 2, 1),
      offer(10, 'o2', 2, 1),
    ]);
    const first = notificationId(setup[3]!.id, 'alice');
    await project([
      { type: 'NotificationRead', data: { userId: 'alice', notificationId: first } },
      { type: 'NotificationRead', data: { userId: 'mallory', notificationId: notificationId(setup[4]!.id, 'alice') } }, // not hers: changes nothing
    ]);
    expect((await listNotifications(db.pool, 'alice')).notifications.map((n) => [n.id === first, n.read]).sort()).toEqual([
      [false, false],
      [true, true],
    ]);

    // Mark All Read, then an offer in the same batch: that one stays unread.
    const rest = await project([{ type: 'AllNotificationsRead', data: { userId: 'alice' } }, offer(10, 'o3', 2, 1)]);
    const after = await listNotifications(db.pool, 'alice');
    expect(after.summary.unread).toBe(1);
    expect(after.notifications.find((n) => !n.read)?.id).toBe(notificationId(rest[1]!.id, 'alice'));

    // Alice switches offers (message alerts) off: the next offer creates nothing; back on, the one after does.
    const off = { ...DEFAULT_NOTIFICATION_PREFERENCES, messageAlerts: false };
    await project([{ type: 'NotificationPreferencesChanged', data: { userId: 'alice', preferences: off } }, offer(10, 'o4', 2, 1)]);
    expect(await notificationPreferencesOf(db.pool, 'alice')).toEqual(off);
    expect((await listNotifications(db.pool, 'alice')).notifications).toHaveLength(3);
    await project([
      { type: 'NotificationPreferencesChanged', data: { userId: 'alice', preferences: DEFAULT_NOTIFICATION_PREFERENCES } },
      offer(10, 'o5', 2, 1),
    ]);
    expect((await listNotifications(db.pool, 'alice')).notifications).toHaveLength(4);
    expect(await unreadCount(db.pool, 'alice')).toBe(2);

    // Delete Account: her notifications and preferences leave the read model.
    await project([{ type: 'AccountDeleted', data: { userId: 'alice' } }]);
    expect((await listNotifications(db.pool, 'alice')).notifications).toEqual([]);
    expect(
      (await db.pool.query<{ n: number }>(`select count(*)::int as n from rm_notification_preferences where user_id = 'alice'`)).rows[0]!.n,
    ).toBe(0);
  });

  for (const batches of ['one', 'each'] as const) {
    it(`creates nothing for a deleted person's firm of one, whatever the batches (${batches === 'one' ? 'one batch' : 'an event per batch'})`, async () => {
      await db.reset();
      // Alice deletes her account; her negotiation is stopped after it (as the departure's agent pause does).
      await project(
        [
          agent(1, 'alice', 'borrower'),
          agent(2, 'bob', 'lender'),
          started,
          { type: 'AccountDeleted', data: { userId: 'alice' } },
          { type: 'ConversationCompleted', data: { conversationId: 10, outcome: 'stopped', reason: "alice's borrower was paused" } },
        ],
        () => null,
        batches,
      );
      const rows = await db.pool.query<{ firm_id: string; title: string }>(`select firm_id, title from rm_notifications order by firm_id`);
      expect(rows.rows.filter((row) => row.firm_id === 'alice')).toEqual([]);
      expect(rows.rows.filter((row) => row.firm_id === 'bob').length).toBeGreaterThan(0);
    });
  }

  it('tells both sides when a negotiation stalls (a system alert), unless system alerts are off', async () => {
    await db.reset();
    const quiet = { ...DEFAULT_NOTIFICATION_PREFERENCES, systemAlerts: false };
    await project([
      agent(1, 'alice', 'borrower'),
      agent(2, 'bob', 'lender'),
      started,
      { type: 'NotificationPreferencesChanged', data: { userId: 'bob', preferences: quiet } },
      { type: 'ConversationStalled', data: { conversationId: 10, agentId: 2, reason: 'the database did not answer' } },
    ]);
    const alerts = async (user: string) =>
      (await listNotifications(db.pool, user)).notifications
        .filter((n) => n.type === 'system')
        .map((n) => [n.title, n.priority, n.message]);
    expect(await alerts('alice')).toEqual([
      [
        'Negotiation stalled',
        'high',
        "bob's lender could not make its move in Loan for 12 Elm Street: the database did not answer. It keeps trying; you can take over your side.",
      ],
    ]);
    expect(await alerts('bob')).toEqual([]);
  });

  it('forgets a deleted account in the deals and documents it shared: not an owner, not the uploader', async () => {
    await db.reset();
    const dealId = '22222222-2222-4222-8222-222222222222';
    await project([
      manualDeal(dealId),
      uploaded({
        documentId: '0d0c0000-0000-4000-8000-000000000002',
        dealId,
        name: 'Payslips.pdf',
        uploadedBy: { userId: 'alice' },
        ownerIds: ['alice', 'bob'],
      }),
      { type: 'AccountDeleted', data: { userId: 'alice' } },
    ]);
    const subjects = await db.pool.query(`select id, owner_ids, uploader_id from rm_notification_subjects order by id`);
    expect(subjects.rows).toEqual([
      { id: `deal:${dealId}`, owner_ids: ['bob'], uploader_id: null },
      { id: 'document:0d0c0000-0000-4000-8000-000000000002', owner_ids: ['bob'], uploader_id: null },
    ]);
  });

  it("is the firm's: a colleague sees what the firm's agents' deals raise, another firm none; reading is each person's", async () => {
    await db.reset();
    // Firm A (founded by alice; carol is her colleague in it), a lender's firm on the deal's other side, and firm B
    // (bob), which takes no part. Carol's person id addresses nothing: she reads as a member of firm A.
    const ofFirm = (agentId: number, ownerId: string, firmId: string, type: 'borrower' | 'lender'): DomainEvent => ({
      type: 'AgentCreated',
      data: { ...participant(agentId, ownerId, type), firmId, description: '', criteria: null },
    });
    const dealId = '33333333-3333-4333-8333-333333333333';
    await project([
      ofFirm(1, 'alice', 'alice', 'borrower'),
      ofFirm(2, 'lenda', 'lenda', 'lender'),
      ofFirm(3, 'carol', 'alice', 'lender'),
      ofFirm(4, 'bob', 'bob', 'lender'),
      offer(10, 'o-own', 3, 1), // carol's agent to alice's: the firm's own doing, news to nobody
      {
        type: 'DealAgreed',
        data: {
          dealId,
          conversationId: 10,
          borrowerAgentId: 1,
          lenderAgentId: 2,
          brokerAgentId: null,
          ...AGREED_TERMS,
        },
      },
    ]);
    const agreed = "alice's borrower and lenda's lender agreed £300,000 at 4.30% over 25 years.";
    const firmA = await listNotifications(db.pool, 'alice');
    expect(firmA.notifications.map((n) => [n.title, n.message, n.read])).toEqual([['Deal agreed', agreed, false]]);
    expect((await listNotifications(db.pool, 'lenda')).notifications.map((n) => n.title)).toEqual(['Deal agreed']);
    expect((await listNotifications(db.pool, 'bob')).notifications).toEqual([]);
    expect(await unreadCount(db.pool, 'bob')).toBe(0);
    expect((await listNotifications(db.pool, 'carol')).notifications).toEqual([]);

    // Carol marks it read: read for her, still unread for Alice (reading is each person's: an auditor's Mark All
    // Read must not clear an admin's unread notifications). The other side's firm keeps its own copy unread.
    const alice = { userId: 'alice', firmId: 'alice' };
    const carol = { userId: 'carol', firmId: 'alice' };
    await project(
      [{ type: 'NotificationRead', data: { userId: 'carol', firmId: 'alice', notificationId: firmA.notifications[0]!.id } }],
      () => 'carol',
    );
    expect((await listNotifications(db.pool, carol)).notifications.map((n) => [n.title, n.read])).toEqual([['Deal agreed', true]]);
    expect((await listNotifications(db.pool, alice)).notifications.map((n) => [n.title, n.read])).toEqual([['Deal agreed', false]]);
    expect(await unreadCount(db.pool, carol)).toBe(0);
    expect(await unreadCount(db.pool, alice)).toBe(1);
    expect(await unreadCount(db.pool, 'lenda')).toBe(1);

    // Mark All Read by a member reads every notification of the firm for that member only, and only the firm's;
    // one arriving after it in the same batch stays unread for them.
    await project([{ type: 'ConversationStalled', data: { conversationId: 10, agentId: null, reason: 'the database did not answer' } }]);
    await project([
      {
        type: 'ConversationStarted',
        data: {
          conversationId: 11,
          title: 'Loan for 3 Mill Lane',
          participants: [participant(1, 'alice', 'borrower'), participant(2, 'lenda', 'lender')],
          matchId: 'm2',
        },
      },
      { type: 'ConversationStalled', data: { conversationId: 11, agentId: null, reason: 'the database did not answer' } },
    ]);
    expect(await unreadCount(db.pool, carol)).toBe(1);
    expect(await unreadCount(db.pool, alice)).toBe(2);
    await project(
      [
        { type: 'AllNotificationsRead', data: { userId: 'carol', firmId: 'alice' } },
        { type: 'ConversationStalled', data: { conversationId: 11, agentId: 1, reason: 'the database did not answer' } },
      ],
      (index) => (index === 0 ? 'carol' : null),
    );
    expect(await unreadCount(db.pool, carol)).toBe(1);
    const after = await listNotifications(db.pool, alice);
    expect(after.summary).toMatchObject({ unread: 3, highPriority: 2 });
    expect(after.notifications.map((n) => n.read)).toEqual([false, false, false]);
    expect(await unreadCount(db.pool, 'lenda')).toBe(3);

    // Alice's Mark All Read, in its own batch, reads the rest for her; Carol's marks stand as they were.
    await project([{ type: 'AllNotificationsRead', data: { userId: 'alice', firmId: 'alice' } }], () => 'alice');
    expect(await unreadCount(db.pool, alice)).toBe(0);
    expect(await unreadCount(db.pool, carol)).toBe(1);
  });
});
