import { describe, expect, it } from 'vitest';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import type { AgentView, ApiError } from '@pf/events';

interface Message {
  content: string;
  fromAgentId: number;
  isAutomated: boolean;
  isReading?: boolean;
}
interface Conversation {
  id: number;
  status: string;
  participants: { agentId: number }[];
}

const borrowerCriteria = {
  propertyValueMin: '£400,000',
  propertyValueMax: '£480,000',
  interestRateMin: '3.5%',
  interestRateMax: '5.5%',
  loanTermMin: '20 years',
  loanTermMax: '30 years',
  loanAmount: '£315,000',
  annualIncome: '£90,000',
};
const lenderCriteria = {
  propertyValueMin: '£100,000',
  propertyValueMax: '£900,000',
  interestRateMin: '3.9%',
  interestRateMax: '5.9%',
  loanTermMin: '5 years',
  loanTermMax: '35 years',
  maxLtv: '90%',
};

/** One commitment per borrower need (docs/decisions/one-commitment-per-need.md), through the real node. */
describe('a borrower that agrees with one lender while another conversation is held by people', () => {
  const node = testSingleNode({ AUTOMATION: 'on', AGENT_REPLY_DELAY_MS: '0' });

  it('records a typed offer with exactly its figures, refuses offers once the need is committed elsewhere, and the hand-back ends the conversation', async () => {
    const alice = await ApiClient.signIn(node.server.url);
    const bob = await ApiClient.signIn(node.server.url);
    const first = await bob.post<AgentView>('/api/agents', {
      name: 'Northgate Building Society',
      type: 'lender',
      criteria: lenderCriteria,
    });
    const second = await bob.post<AgentView>('/api/agents', {
      name: 'Harbour Street Bank',
      type: 'lender',
      criteria: lenderCriteria,
      autoNegotiate: false,
    });
    const borrower = await alice.post<AgentView>('/api/agents', {
      name: 'Amelia Hart',
      type: 'borrower',
      criteria: borrowerCriteria,
      autoNegotiate: false,
    });
    expect([first.status, second.status, borrower.status]).toEqual([201, 201, 201]);
    const conversationWith = async (lenderId: number) => {
      let found: Conversation | undefined;
      await expect
        .poll(
          async () => {
            found = ((await alice.get('/api/conversations')).body as Conversation[]).find((c) =>
              c.participants.some((p) => p.agentId === lenderId),
            );
            return found !== undefined;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(true);
      return found!;
    };
    const withFirst = await conversationWith(first.body.id);
    const withSecond = await conversationWith(second.body.id);
    const messages = async (id: number) => (await alice.get(`/api/conversations/${id}/messages`)).body as Message[];
    const readingOf = async (id: number, after: number) => {
      let reading: Message | undefined;
      await expect
        .poll(
          async () => {
            reading = (await messages(id)).slice(after).find((m) => m.isReading);
            return reading !== undefined;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(true);
      return reading!.content;
    };

    // Typed in manual mode: recorded as exactly those figures, and the thread says so. (An offer the lender can take:
    // after the hand-back the agent continues from it and never offers less, docs/behaviour/negotiation.md.)
    const before = (await messages(withFirst.id)).length;
    const typed = await alice.post(`/api/conversations/${withFirst.id}/messages`, {
      content: '5.35% over 25 years on £315,000 with a £999 fee',
    });
    expect(typed.status).toBe(201);
    expect(await readingOf(withFirst.id, before)).toBe('Read as an offer: £315,000 at 5.35% over 25 years, £999 fee');
    const history = (await alice.get(`/api/conversations/${withFirst.id}/history?limit=500`)).body as {
      events: { type: string; data: { fromAgentId: number; terms: unknown } }[];
    };
    const offer = history.events.filter((e) => e.type === 'OfferMade' && e.data.fromAgentId === borrower.body.id).at(-1);
    expect(offer?.data.terms).toEqual({ loanAmount: 315_000, interestRate: 5.35, termYears: 25, arrangementFee: 999 });

    // Handed back, the borrower's agent negotiates the first conversation to an agreement: the need is committed.
    expect((await alice.patch(`/api/conversations/${withFirst.id}`, { isManualMode: false })).status).toBe(200);
    await expect
      .poll(async () => ((await alice.get(`/api/conversations/${withFirst.id}`)).body as Conversation).status, {
        timeout: 15_000,
        interval: 50,
      })
      .toBe('completed');
    expect(((await alice.get(`/api/conversations/${withFirst.id}`)).body as { outcome: string }).outcome).toBe('agreed');

    // In the second conversation both sides are held by people: Alice's offer there is refused, saying why but not
    // naming the winning lender or its deal (the other side reads the reading too).
    const held = (await messages(withSecond.id)).length;
    expect((await alice.post(`/api/conversations/${withSecond.id}/messages`, { content: 'We can do 4.5% over 25 years' })).status).toBe(
      201,
    );
    expect(await readingOf(withSecond.id, held)).toMatch(
      /^Not recorded as an offer: Amelia Hart has agreed terms in another negotiation: this need is committed/,
    );
    const form = await alice.post<ApiError>(`/api/conversations/${withSecond.id}/offers`, {
      loanAmount: 315_000,
      interestRate: 4.5,
      termYears: 25,
      arrangementFee: 999,
    });
    expect(form.status).toBe(409);
    expect(form.body.message).toMatch(/^Amelia Hart has agreed terms in another negotiation: this need is committed/);
    expect(form.body.message).not.toMatch(/Northgate|deal [0-9a-f]{8}-/);

    // Handed back, her agent withdraws at once: the conversation ends, with the outcome (not the winner) as its reason.
    expect((await alice.patch(`/api/conversations/${withSecond.id}`, { isManualMode: false })).status).toBe(200);
    await expect
      .poll(async () => ((await alice.get(`/api/conversations/${withSecond.id}`)).body as Conversation).status, {
        timeout: 10_000,
        interval: 50,
      })
      .toBe('completed');
    const last = (await messages(withSecond.id)).filter((m) => m.fromAgentId === borrower.body.id && !m.isReading).at(-1);
    expect(last?.content).toMatch(/agreed terms with another lender|accepted another lender's offer/);
    expect(last?.content).not.toMatch(/Northgate/);
    const ended = (await alice.get<Conversation & { completionReason?: string | null }>(`/api/conversations/${withSecond.id}`)).body;
    expect(JSON.stringify(ended)).not.toMatch(/Northgate Building Society \(deal|deal [0-9a-f]{8}-/);
  }, 60_000);
});
