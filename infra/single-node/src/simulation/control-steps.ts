import WebSocket from 'ws';
import { closeSocket } from './close-socket';
import { currentUserView, type ConversationView, type ServerMessage } from '@pf/events';
import { HARRIET_COLE, WESSEX_BUILDING_SOCIETY } from '@pf/events/testing';
import { ApiClient } from '../testing/api-client';
import type { Action } from './actions';
import type { SimConversation, Violation, World } from './invariants';
import type { SimRandom } from './random';

/**
 * Control of sides between colleagues and sessions (docs/decisions/per-side-control.md), as simulation steps: a
 * firm of its own ("Firm C": Cleo, admin; Dara, operator, with a second session) whose agents meet each other,
 * taking one side or both, asking each other for a side, handing it over or declining. Each person keeps a live
 * socket; a request must reach the holding session and no other, a decline the asker.
 */

interface Person {
  name: string;
  userId: string;
  sessionId: string;
  client: ApiClient;
  socket: ControlSocket;
}

/** A socket that keeps the control messages it is sent, and waits for an answer to each request. */
class ControlSocket {
  readonly received: ServerMessage[] = [];
  private counter = 0;
  private waiting = new Map<string, (message: ServerMessage) => void>();

  constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString()) as ServerMessage;
      if (message.type === 'control_requested' || message.type === 'control_declined') this.received.push(message);
      if ((message.type === 'ack' || message.type === 'error') && message.requestId) this.waiting.get(message.requestId)?.(message);
    });
  }

  static open(client: ApiClient): Promise<ControlSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${client.baseUrl.replace(/^http/, 'ws')}/ws`, {
        headers: { cookie: client.cookie, origin: client.baseUrl },
      });
      ws.once('open', () => resolve(new ControlSocket(ws)));
      ws.once('error', reject);
    });
  }

  request(message: Record<string, unknown>): Promise<ServerMessage> {
    const requestId = `c${++this.counter}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the gateway did not answer within 10 s')), 10_000);
      this.waiting.set(requestId, (answer) => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(answer);
      });
      this.ws.send(JSON.stringify({ ...message, requestId }));
    });
  }

  close(): Promise<void> {
    return closeSocket(this.ws);
  }
}

/** Waits (on the condition, bounded) until a socket holds a message matching; null when none came. */
async function arrival(socket: ControlSocket, from: number, match: (message: ServerMessage) => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = socket.received.slice(from).find(match);
    if (found) return found;
    if (Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function signIn(baseUrl: string, name: [string, string], device?: string): Promise<{ client: ApiClient; device: string }> {
  const response = await fetch(`${baseUrl}/api/login`, { redirect: 'manual', headers: device ? { cookie: device } : {} });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
  const client = new ApiClient(baseUrl);
  client.cookie = cookies.find((c) => c.startsWith('pf_session='))!;
  if (!device) await client.put('/api/auth/profile', { firstName: name[0], lastName: name[1] });
  return { client, device: cookies.find((c) => c.startsWith('pf_device='))! };
}

async function person(name: string, client: ApiClient): Promise<Person> {
  const me = currentUserView.parse((await client.get('/api/auth/user')).body);
  return { name, userId: me.id, sessionId: me.sessionId!, client, socket: await ControlSocket.open(client) };
}

export class ControlCast {
  private constructor(readonly people: Person[]) {}

  /** Borrowers the firm has added. */
  private clients = 1;

  /** Cleo founds Firm C, invites Dara (operator); Dara signs in again elsewhere; each adds an agent that meets the other's. */
  static async open(baseUrl: string): Promise<ControlCast> {
    const cleo = await signIn(baseUrl, ['Cleo', 'Carr']);
    await cleo.client.put('/api/firm', { name: 'Firm C' });
    const invite = (await cleo.client.post('/api/firm/invites', { role: 'operator' })).body as { token: string };
    const dara = await signIn(baseUrl, ['Dara', 'Dunn']);
    await dara.client.post('/api/firm/join', { token: invite.token });
    const daraElsewhere = await signIn(baseUrl, ['Dara', 'Dunn'], dara.device);
    // Negotiating by hand (auto-negotiate off): each side opens held by its owner, so the talk waits on people.
    await cleo.client.post('/api/agents', { ...WESSEX_BUILDING_SOCIETY, name: 'Firm C lender', autoNegotiate: false });
    await dara.client.post('/api/agents', { ...HARRIET_COLE, name: 'Firm C borrower 1', autoNegotiate: false });
    return new ControlCast([
      await person('Cleo (Firm C)', cleo.client),
      await person('Dara (Firm C)', dara.client),
      await person('Dara, another session (Firm C)', daraElsewhere.client),
    ]);
  }

  close(): Promise<void[]> {
    return Promise.all(this.people.map((p) => p.socket.close()));
  }

  /** The steps open to the cast now, weighted like the operators' (chooseAction adds them to its candidates). */
  candidates(random: SimRandom, world: World): { weight: number; build: () => Action }[] {
    const castOwns = (ownerId: string) => this.people.some((q) => q.userId === ownerId);
    const ours = [...world.conversations.values()].filter((c) => c.status === 'active' && c.participants.some((p) => castOwns(p.ownerId)));
    const steps: { weight: number; build: () => Action }[] = [];
    // Now and then a new client of the firm's, by hand: a new conversation with the firm's lender.
    if (this.clients < 8)
      steps.push({
        weight: ours.length === 0 ? 3 : 0.4,
        build: () => {
          const by = random.pick(this.people);
          this.clients += 1;
          const name = `Firm C borrower ${this.clients}`;
          return this.act('control: new client', `${by.name} adds ${name}`, async () => {
            const answer = await by.client.post('/api/agents', { ...HARRIET_COLE, name, autoNegotiate: false });
            return answer.status >= 500 ? { serverError: `a new agent answered ${answer.status}` } : {};
          });
        },
      });
    const holderOf = (c: SimConversation, agentId: number) => c.manual.get(agentId);
    for (const conversation of ours) {
      const sidesOfCast = conversation.participants.filter((p) => castOwns(p.ownerId));
      const free = sidesOfCast.filter((p) => !conversation.manual.has(p.agentId));
      if (free.length > 0) {
        steps.push({
          weight: 1.5,
          build: () => {
            const by = random.pick(this.people);
            const sides = free.length > 1 && random.chance(0.4) ? free : [random.pick(free)];
            const agentIds = sides.map((p) => p.agentId);
            return this.act(
              'control: take sides',
              `${by.name} takes over agents ${agentIds.join(' and ')} in conversation ${conversation.id}`,
              async () => {
                const answer = await by.client.patch(`/api/conversations/${conversation.id}`, { isManualMode: true, agentIds });
                return answer.status >= 500 ? { serverError: `take over answered ${answer.status}` } : {};
              },
            );
          },
        });
      }
      for (const side of sidesOfCast.filter((p) => conversation.manual.has(p.agentId))) {
        const holder = this.people.filter((p) => p.userId === holderOf(conversation, side.agentId));
        const askers = this.people.filter((p) => !holder.some((h) => h.sessionId === p.sessionId));
        if (askers.length === 0 || holder.length === 0) continue;
        steps.push({ weight: 2, build: () => this.requestStep(random, conversation, side.agentId, random.pick(askers)) });
        steps.push({
          weight: 0.7,
          build: () => {
            const by = random.pick(holder);
            return this.act(
              'control: hand back',
              `${by.name} hands agent ${side.agentId} back in conversation ${conversation.id}`,
              async () => {
                const answer = await by.client.patch(`/api/conversations/${conversation.id}`, {
                  isManualMode: false,
                  agentIds: [side.agentId],
                });
                return answer.status >= 500 ? { serverError: `hand back answered ${answer.status}` } : {};
              },
            );
          },
        });
      }
    }
    return steps;
  }

  /**
   * A person asks for a side someone holds: only the holding session is told (any of the holder's sessions when
   * the takeover named none); then the holder hands it over (the side is the asker's, in the asking session) or
   * declines (the asker is told).
   */
  private requestStep(random: SimRandom, conversation: SimConversation, agentId: number, asker: Person): Action {
    const handOver = random.chance(0.6);
    const verb = handOver ? 'is handed it' : 'is declined';
    return this.act(
      `control: request, ${handOver ? 'hand over' : 'decline'}`,
      `${asker.name} asks for agent ${agentId} in conversation ${conversation.id} and ${verb}`,
      async () => {
        const violations: Violation[] = [];
        const wrong = (detail: string) => violations.push({ invariant: 'a request reaches only the session holding the side', detail });
        const holderId = conversation.manual.get(agentId);
        const marks = this.people.map((p) => p.socket.received.length);
        for (const p of this.people) await p.socket.request({ type: 'subscribe', conversationId: conversation.id });
        const asked = await asker.socket.request({ type: 'request_control', conversationId: conversation.id, agentId });
        if (asked.type !== 'ack') return { violations: [] };
        const isRequest = (m: ServerMessage) =>
          m.type === 'control_requested' &&
          m.conversationId === conversation.id &&
          m.agentId === agentId &&
          m.bySessionId === asker.sessionId;
        const holding = (await this.holdingSessions(conversation.id, agentId, holderId)).filter((p) => p.sessionId !== asker.sessionId);
        for (const [index, p] of this.people.entries()) {
          const expected = holding.includes(p);
          const got = expected ? await arrival(p.socket, marks[index]!, isRequest) : p.socket.received.slice(marks[index]).find(isRequest);
          if (expected && !got)
            wrong(`${p.name} holds agent ${agentId} in conversation ${conversation.id} but was not told of ${asker.name}'s request`);
          if (!expected && got) wrong(`${p.name} was told of ${asker.name}'s request for agent ${agentId}, which they do not hold there`);
        }
        const giver = holding[0];
        if (!giver) return { violations };
        if (handOver) {
          const given = await giver.client.post<ConversationView>(`/api/conversations/${conversation.id}/hand-over`, {
            agentId,
            toSessionId: asker.sessionId,
          });
          if (given.status >= 500) return { serverError: `hand-over answered ${given.status}` };
          if (given.status === 200) this.given.push({ conversationId: conversation.id, agentId, userId: asker.userId });
        } else {
          const mark = asker.socket.received.length;
          const declined = await giver.socket.request({
            type: 'decline_control',
            conversationId: conversation.id,
            agentId,
            toSessionId: asker.sessionId,
          });
          if (
            declined.type === 'ack' &&
            !(await arrival(asker.socket, mark, (m) => m.type === 'control_declined' && m.agentId === agentId))
          )
            violations.push({
              invariant: 'a decline reaches the asker',
              detail: `${asker.name} was not told that ${giver.name} declined agent ${agentId}`,
            });
        }
        return { violations };
      },
    );
  }

  /** Hand-overs answered 200, each checked against the events once folded (checkGiven). */
  private given: { conversationId: number; agentId: number; userId: string }[] = [];

  /** After the fold: each side handed over this step is held by exactly the person it was handed to. */
  checkGiven(world: World): Violation[] {
    const found: Violation[] = [];
    for (const { conversationId, agentId, userId } of this.given.splice(0)) {
      const holder = world.conversations.get(conversationId)?.manual.get(agentId);
      if (holder !== userId)
        found.push({
          invariant: 'a side is held only by the person it was given to',
          detail: `agent ${agentId}'s side in conversation ${conversationId} was handed over to ${userId} but is held by ${holder ?? 'nobody'}`,
        });
    }
    return found;
  }

  /** The sessions holding a side, as the store has it now (the last takeover's session; any of the holder's when none). */
  private async holdingSessions(conversationId: number, agentId: number, holderId: string | undefined): Promise<Person[]> {
    const view = (await this.people[0]!.client.get<ConversationView>(`/api/conversations/${conversationId}`)).body;
    const side = view.control.find((s) => s.agentId === agentId);
    const userId = side?.controllerId ?? holderId;
    return this.people.filter((p) => p.userId === userId && (!side?.sessionId || side.sessionId === p.sessionId));
  }

  private act(name: string, describe: string, run: Action['run']): Action {
    return { name, describe, run };
  }
}
