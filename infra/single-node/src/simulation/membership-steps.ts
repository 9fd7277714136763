import { currentUserView, inviteView, type FirmRole } from '@pf/events';
import { ApiClient } from '../testing/api-client';
import type { Action } from './actions';
import { borrowerCriteria } from './agents';
import { PushRecorder } from './gateway-check';
import type { World } from './invariants';
import type { MembershipWorld } from './membership-world';
import type { SimRandom } from './random';

/** A person of the membership steps (docs/simulation.md "Membership"): a firm's host, or a newcomer with an agent. */
interface Person {
  name: string;
  userId: string;
  client: ApiClient;
  deleted: boolean;
  /** The names of the agents they created (unique to them), to be gone from every answer once they delete their account. */
  agentNames: string[];
}

type Candidate = { weight: number; build: () => Action | null };

/** An answer's status, and a 5xx described: always a violation. */
async function call(client: ApiClient, method: string, path: string, body?: unknown) {
  const answer = await client.request(method, path, body);
  return { ...answer, serverError: answer.status >= 500 ? `${method} ${path} answered ${answer.status}` : undefined };
}

/**
 * The membership steps: two hosts with firms of their own; newcomers who sign in and create a borrower (so their
 * firm of one has an agent that negotiates with the operators'); invitations from both hosts accepted at the same
 * moment; the last admin trying every way out; removals; and an account deleted mid-negotiation. What the answers
 * must be is checked here; what the store must hold, by MembershipWorld.
 */
export class MembershipSteps {
  private readonly people: Person[] = [];
  private readonly hosts: Person[] = [];

  constructor(
    private readonly url: string,
    private readonly firms: MembershipWorld,
    /** Each person keeps a console open, as the operators do (the gateway names a firm from its people's sockets). */
    private readonly opened: (socket: PushRecorder) => void,
  ) {}

  private async signIn(name: string): Promise<Person> {
    const client = await ApiClient.signIn(this.url);
    this.opened(await PushRecorder.open(this.url, client));
    const userId = currentUserView.parse((await client.get('/api/auth/user')).body).id;
    const person: Person = { name, userId, client, deleted: false, agentNames: [] };
    this.people.push(person);
    return person;
  }

  private firmOf(person: Person): string | undefined {
    return this.firms.firmsOf(person.userId)[0];
  }

  private async invite(host: Person, role: FirmRole = 'operator'): Promise<string | null> {
    const answer = await call(host.client, 'POST', '/api/firm/invites', { role });
    return answer.status === 201 ? inviteView.parse(answer.body).token : null;
  }

  /** The agents' names of everyone whose deletion was answered: gone from every answer from then on (erasure-check.ts). */
  erasedNames(): string[] {
    return this.people.filter((p) => p.deleted).flatMap((p) => p.agentNames);
  }

  candidates(random: SimRandom, world: World): Candidate[] {
    const live = this.people.filter((p) => !p.deleted);
    const home = live.filter((p) => !this.hosts.includes(p) && this.firmOf(p) === p.userId);
    const act = (name: string, describe: string, run: () => Promise<{ serverError?: string }>): Action => ({
      name,
      describe: `membership: ${describe}`,
      run: async () => {
        const outcome = await run();
        return outcome.serverError ? { serverError: outcome.serverError } : {};
      },
    });
    const hostsWithOthers = this.hosts.filter((h) => !h.deleted && this.firms.memberIds(this.firmOf(h) ?? '').length > 1);
    const candidates: Candidate[] = [];
    candidates.push({
      weight: this.people.length < 12 ? 1 : 0,
      build: () =>
        act('newcomer', 'a newcomer signs in and creates a borrower', async () => {
          const person = await this.signIn(`newcomer ${this.people.length + 1}`);
          if (this.hosts.length < 2) {
            this.hosts.push(person);
            return {};
          }
          // Half negotiate by hand, so their conversations stay open for a deletion mid-negotiation.
          // Named after them ("Newcomer 7 borrower 885"), so no one else's agent's name contains it.
          const body = {
            name: `N${person.name.slice(1)} borrower ${random.int(1, 999)}`,
            type: 'borrower',
            criteria: borrowerCriteria(random),
            ...(random.chance(0.5) ? { autoNegotiate: false } : {}),
          };
          person.agentNames.push(body.name);
          return call(person.client, 'POST', '/api/agents', body);
        }),
    });
    candidates.push({
      weight: this.hosts.length === 2 && this.hosts.every((h) => !h.deleted) && home.length > 0 ? 1.2 : 0,
      build: () => {
        const person = random.pick(home);
        return act('joins racing', `${person.name} accepts invitations from both hosts at once`, async () => {
          const tokens = await Promise.all(this.hosts.map((host) => this.invite(host)));
          if (tokens.some((token) => token === null)) return {};
          const answers = await Promise.all(tokens.map((token) => call(person.client, 'POST', '/api/firm/join', { token })));
          const failed = answers.find((answer) => answer.serverError);
          if (failed) return failed;
          const joined = answers.filter((answer) => answer.status === 200).length;
          if (joined > 1) this.firms.violate('one join per person', `${person.name} was answered 200 by both joins`);
          return {};
        });
      },
    });
    candidates.push({
      weight: hostsWithOthers.length > 0 ? 0.6 : 0,
      build: () => {
        const host = random.pick(hostsWithOthers);
        const firmId = this.firmOf(host)!;
        const others = this.firms.memberIds(firmId).filter((id) => id !== host.userId);
        const otherAdmins = others.filter((id) => this.firms.roleIn(firmId, id) === 'admin');
        const route = random.pick(['demote', 'delete', 'join'] as const);
        return act('last admin departs', `${host.name} tries to leave by ${route}`, async () => {
          const answer =
            route === 'demote'
              ? await call(host.client, 'PUT', `/api/firm/members/${host.userId}`, { role: 'operator' })
              : route === 'delete'
                ? await call(host.client, 'DELETE', '/api/auth/account', { confirm: 'DELETE' })
                : await call(host.client, 'POST', '/api/firm/join', { token: await this.invite(this.hosts.find((h) => h !== host)!) });
          if (answer.serverError) return answer;
          if (route === 'delete' && answer.status === 200) host.deleted = true;
          if (answer.status < 300 && otherAdmins.length === 0)
            this.firms.violate('the last admin stays', `${host.name} left firm ${firmId} by ${route} (answered ${answer.status})`);
          return {};
        });
      },
    });
    candidates.push({
      weight: hostsWithOthers.length > 0 ? 0.5 : 0,
      build: () => {
        const host = random.pick(hostsWithOthers);
        const firmId = this.firmOf(host)!;
        const member = random.pick(this.firms.memberIds(firmId).filter((id) => id !== host.userId));
        return act('remove member', `${host.name} removes ${member}`, () => call(host.client, 'DELETE', `/api/firm/members/${member}`));
      },
    });
    const negotiating = live.filter(
      (p) =>
        !this.hosts.includes(p) &&
        [...world.conversations.values()].some((c) => c.status === 'active' && c.participants.some((q) => q.ownerId === p.userId)),
    );
    candidates.push({
      weight: negotiating.length > 0 ? 0.8 : 0,
      build: () => {
        const person = random.pick(negotiating);
        return act('delete mid-negotiation', `${person.name} deletes their account mid-negotiation`, async () => {
          const answer = await call(person.client, 'DELETE', '/api/auth/account', { confirm: 'DELETE' });
          if (answer.status === 200) person.deleted = true;
          return answer;
        });
      },
    });
    return candidates;
  }
}
