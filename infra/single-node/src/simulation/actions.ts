import { agentView, apiError, messageView, offerMadeView, type LoanTerms } from '@pf/events';
import type { RunningServer } from '../server';
import type { ApiClient } from '../testing/api-client';
import { borrowerCriteria, lenderCriteria } from './agents';
import type { OperatorOfferCheck, SimConversation, Violation, World } from './invariants';
import { writePounds, type SimRandom } from './random';

/** A person at the console. `firm` groups people (each owns their own agents); firms of their own slot in here. */
export interface Operator {
  name: string;
  firm: string;
  userId: string;
  client: ApiClient;
  agentIds: number[];
  seeded: boolean;
}

interface ActionContext {
  server: RunningServer;
  clock: { offsetMs: number };
  random: SimRandom;
  hourMs: number;
}

interface ActionOutcome {
  /** A 5xx answer (or a failed request), described: always a violation. */
  serverError?: string;
  /** An operator's offer to check once the node is idle. */
  check?: OperatorOfferCheck;
  /** What the step itself saw go wrong (a request told to the wrong session: control-steps.ts). */
  violations?: Violation[];
}

export interface Action {
  name: string;
  describe: string;
  run(context: ActionContext): Promise<ActionOutcome>;
}

async function call(
  client: ApiClient,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown; serverError?: string }> {
  const answer = await client.request(method, path, body);
  return answer.status >= 500
    ? { ...answer, serverError: `${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}` }
    : answer;
}

const outcomeOf = (answer: { serverError?: string }): ActionOutcome => (answer.serverError ? { serverError: answer.serverError } : {});

const NAMES = ['Hart', 'Bennett', 'Shah', 'Okafor', 'Nowak', 'Evans', 'Lewis', 'Patel', 'Byrne', 'Reid'];
const LENDERS = ['Northgate', 'Harbour Street', 'Pennine', 'Severn', 'Wessex', 'Thames', 'Mercia', 'Solent'];

/** What the operator holds, owns and may act on in the world as the events tell it. */
function mine(world: World, operator: Operator) {
  const conversations = [...world.conversations.values()].filter(
    (c) => c.status === 'active' && c.participants.some((p) => p.ownerId === operator.userId),
  );
  // The principal side the operator holds (a side is one participant), else their first principal side.
  const principals = (c: SimConversation) => c.participants.filter((p) => p.ownerId === operator.userId && p.type !== 'broker');
  const holds = (c: SimConversation) => principals(c).filter((p) => c.manual.get(p.agentId) === operator.userId);
  const principal = (c: SimConversation) => holds(c)[0] ?? principals(c)[0];
  return {
    conversations,
    held: conversations.filter((c) => holds(c).length > 0),
    free: conversations.filter((c) => c.participants.some((p) => p.ownerId === operator.userId && !c.manual.has(p.agentId))),
    principal,
    agents: operator.agentIds.filter((id) => world.agents.get(id) && !world.agents.get(id)!.isDeleted),
  };
}

function offerText(random: SimRandom, terms: Partial<LoanTerms>): string {
  const parts: string[] = [];
  if (terms.interestRate !== undefined) parts.push(random.pick([`${terms.interestRate}%`, `${terms.interestRate} per cent`]));
  if (terms.termYears !== undefined)
    parts.push(random.pick([`over ${terms.termYears} years`, `over ${terms.termYears} yrs`, `on a ${terms.termYears}-year term`]));
  if (terms.loanAmount !== undefined)
    parts.push(random.pick([`on ${writePounds(random, terms.loanAmount)}`, `for a loan of ${writePounds(random, terms.loanAmount)}`]));
  if (terms.arrangementFee !== undefined)
    parts.push(
      random.pick([
        `with a ${writePounds(random, terms.arrangementFee)} fee`,
        `and an arrangement fee of ${writePounds(random, terms.arrangementFee)}`,
      ]),
    );
  return `${random.pick(['We can do', 'How about', 'I could go to', 'Final thoughts:'])} ${parts.join(' ')}${random.pick(['.', '?', '', '!'])}`;
}

function someTerms(random: SimRandom): Partial<LoanTerms> {
  const all: LoanTerms = {
    interestRate: random.int(300, 650) / 100,
    termYears: random.int(10, 35),
    loanAmount: random.int(80, 900) * 1000 + (random.chance(0.2) ? random.int(1, 999) : 0),
    arrangementFee: random.pick([0, 499, 999, 1250, 1499, 1999, 2500]),
  };
  const chosen = Object.fromEntries(Object.entries(all).filter(() => random.chance(0.6))) as Partial<LoanTerms>;
  return Object.keys(chosen).length > 0 ? chosen : { interestRate: all.interestRate };
}

/** The next step, chosen from the seed and what the world holds now: each possible move of each operator, weighted. */
export function chooseAction(
  random: SimRandom,
  world: World,
  operators: Operator[],
  /** Steps of other casts (membership-steps.ts, control-steps.ts), chosen among the operators' by weight. */
  more: readonly { weight: number; build: () => Action | null }[] = [],
): Action {
  const candidates: { weight: number; build: () => Action | null }[] = [...more];
  const liveAgents = [...world.agents.values()].filter((agent) => !agent.isDeleted).length;
  const seededSoFar = operators.filter((operator) => operator.seeded).length;
  for (const operator of operators) {
    const own = mine(world, operator);
    const { client } = operator;
    const act = (name: string, describe: string, run: Action['run']): Action => ({ name, describe: `${operator.name}: ${describe}`, run });
    const add = (weight: number, build: () => Action | null) => weight > 0 && candidates.push({ weight, build });

    add(own.agents.length < 2 ? 6 : liveAgents < 12 ? 2 : liveAgents < 20 ? 0.3 : 0, () => {
      const type = own.agents.length === 0 ? 'borrower' : random.pick(['borrower', 'borrower', 'lender', 'lender', 'broker'] as const);
      const criteria = type === 'borrower' ? borrowerCriteria(random) : type === 'lender' ? lenderCriteria(random) : null;
      const name =
        type === 'lender'
          ? `${random.pick(LENDERS)} Bank ${random.int(1, 999)}`
          : `${random.pick(['Ada', 'Ben', 'Cara', 'Dev', 'Eli'])} ${random.pick(NAMES)}`;
      const body = {
        name,
        type,
        criteria,
        ...(type !== 'broker' && random.chance(0.5) ? { autoNegotiate: false } : {}),
        ...(random.chance(0.5) ? { responseTime: random.pick([1, 4, 24]) } : {}),
      };
      return act('create agent', `creates ${type} ${name}`, async () => {
        const answer = await call(client, 'POST', '/api/agents', body);
        if (answer.status === 201) operator.agentIds.push(agentView.parse(answer.body).id);
        return outcomeOf(answer);
      });
    });
    add(!operator.seeded && seededSoFar < 2 ? 0.15 : 0, () =>
      act('seed demo data', 'seeds demo data', async () => {
        operator.seeded = true;
        const answer = await call(client, 'POST', '/api/seed-demo');
        if (answer.status === 201) {
          const listed = await call(client, 'GET', '/api/agents');
          if (listed.status === 200) operator.agentIds = (listed.body as { id: number }[]).map((agent) => agent.id);
        }
        return outcomeOf(answer);
      }),
    );
    add(own.agents.length > 0 ? 0.25 : 0, () => {
      const agentId = random.pick(own.agents);
      const agent = world.agents.get(agentId);
      const criteria = agent?.type === 'borrower' ? borrowerCriteria(random) : agent?.type === 'lender' ? lenderCriteria(random) : null;
      return act('edit agent', `edits agent ${agentId}'s criteria`, async () =>
        outcomeOf(await call(client, 'PUT', `/api/agents/${agentId}`, { criteria })),
      );
    });
    add(own.agents.length > 0 ? 0.3 : 0, () => {
      const agentId = random.pick(own.agents);
      const isActive = !(world.agents.get(agentId)?.isActive ?? true);
      return act(isActive ? 'resume agent' : 'pause agent', `${isActive ? 'resumes' : 'pauses'} agent ${agentId}`, async () =>
        outcomeOf(await call(client, 'PUT', `/api/agents/${agentId}`, { isActive })),
      );
    });
    add(own.agents.length > 3 ? 0.2 : 0, () => {
      const agentId = random.pick(own.agents);
      return act('delete agent', `deletes agent ${agentId}`, async () => outcomeOf(await call(client, 'DELETE', `/api/agents/${agentId}`)));
    });
    const borrowers = own.agents.filter((id) => world.agents.get(id)?.type === 'borrower');
    add(borrowers.length > 0 ? 0.2 : 0, () => {
      const agentId = random.pick(borrowers);
      return act('look for another lender', `asks for a match (another lender) for ${agentId}`, async () =>
        outcomeOf(await call(client, 'POST', `/api/leads/${agentId}/match`)),
      );
    });
    const deals = [...world.deals].filter(([, deal]) => deal.opened && !deal.cancelled && operator.agentIds.includes(deal.borrowerAgentId));
    add(deals.length > 0 ? 0.15 : 0, () => {
      const [dealId] = random.pick(deals);
      return act('cancel deal', `cancels deal ${dealId}`, async () =>
        outcomeOf(await call(client, 'PATCH', `/api/deals/${dealId}`, { status: 'cancelled' })),
      );
    });
    add(own.free.length > 0 ? 8 : 0, () => {
      const conversation = random.pick(own.free);
      // Names the side (a side is one participant): one of the operator's own free sides, or now and then all of them.
      const sides = conversation.participants.filter((p) => p.ownerId === operator.userId && !conversation.manual.has(p.agentId));
      const agentIds = (sides.length > 1 && random.chance(0.3) ? sides : [random.pick(sides)]).map((p) => p.agentId);
      return act('take over', `takes over agents ${agentIds.join(' and ')} in conversation ${conversation.id}`, async () =>
        outcomeOf(await call(client, 'PATCH', `/api/conversations/${conversation.id}`, { isManualMode: true, agentIds })),
      );
    });
    add(own.held.length > 0 ? 4 : 0, () => {
      const conversation = random.pick(own.held);
      return act('hand back', `hands conversation ${conversation.id} back`, async () =>
        outcomeOf(await call(client, 'PATCH', `/api/conversations/${conversation.id}`, { isManualMode: false })),
      );
    });
    add(own.held.length > 0 ? 16 : 0, () => operatorOffer(random, world, operator, own, act));
  }
  candidates.push({
    weight: 2,
    build: () => {
      const hours = random.pick([1, 2, 5, 25, 49]);
      return {
        name: 'time passes',
        describe: `${hours} hours pass`,
        run: async ({ server, clock, hourMs }) => {
          clock.offsetMs += hours * hourMs;
          await server.probe.checkResponseTimes();
          return {};
        },
      };
    },
  });
  candidates.push({ weight: 2, build: () => ({ name: 'watch', describe: 'everyone watches', run: async () => ({}) }) });
  const total = candidates.reduce((sum, candidate) => sum + candidate.weight, 0);
  let roll = random.next() * total;
  for (const candidate of candidates) {
    roll -= candidate.weight;
    if (roll <= 0) return candidate.build() ?? chooseAction(random, world, operators, more);
  }
  return candidates[candidates.length - 1]!.build()!;
}

type Act = (name: string, describe: string, run: Action['run']) => Action;

/** A person holding a side: a structured offer, or a message typed in one of many ways (offer, chat, unclear). */
function operatorOffer(random: SimRandom, world: World, operator: Operator, own: ReturnType<typeof mine>, act: Act): Action {
  const { client } = operator;
  const conversation = random.pick(own.held);
  const agentId = own.principal(conversation)!.agentId;
  const kind = random.int(1, 10);
  if (kind <= 4) {
    const terms: LoanTerms = {
      interestRate: random.int(300, 650) / 100,
      termYears: random.int(10, 35),
      loanAmount: random.int(80, 900) * 1000,
      arrangementFee: random.pick([0, 999, 1499]),
    };
    return act('structured offer', `makes an offer in conversation ${conversation.id}`, async () => {
      const answer = await call(client, 'POST', `/api/conversations/${conversation.id}/offers`, { fromAgentId: agentId, ...terms });
      if (answer.status === 201)
        return { check: { kind: 'form', conversationId: conversation.id, offerId: offerMadeView.parse(answer.body).offerId, terms } };
      if (!answer.serverError && !apiError.safeParse(answer.body).success)
        return { serverError: `a refused offer (${answer.status}) gave no reason` };
      return outcomeOf(answer);
    });
  }
  const typed = kind <= 8 ? someTerms(random) : null;
  const text = typed
    ? offerText(random, typed)
    : random.pick([
        'Thanks, let me check with my client.',
        'Could you tell me more about the valuation?',
        '£300k or £310k, I am not sure yet?',
        'Maybe £31,50 at 4%',
      ]);
  const expect = typed
    ? { offer: typed }
    : text.startsWith('Thanks') || text.startsWith('Could')
      ? ('chat' as const)
      : ('unclear' as const);
  return act('typed message', `types "${text}" in conversation ${conversation.id}`, async () => {
    const answer = await call(client, 'POST', `/api/conversations/${conversation.id}/messages`, { content: text, fromAgentId: agentId });
    if (answer.status === 201) {
      const message = messageView.parse(answer.body);
      return {
        check: { kind: 'text', conversationId: conversation.id, messageId: message.id, agentId: message.fromAgentId, expect, text },
      };
    }
    return outcomeOf(answer);
  });
}
