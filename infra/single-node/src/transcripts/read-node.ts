import {
  conversationListView,
  readStoredEventOrNull,
  historyPage,
  messageListView,
  HISTORY_PAGE_MAX,
  type BorrowerNeeds,
  type ConversationView,
  type HistoryEvent,
  type MessageView,
} from '@pf/events';
import type { ApiClient } from '../testing/api-client';
import type { Entry, Transcript } from './transcript';

/** A conversation that could not be read as people read it (an answer refused, a message missing from the thread). */
interface ReadProblem {
  readonly conversationId: number;
  readonly detail: string;
}

export interface NodeTranscripts {
  readonly transcripts: Transcript[];
  readonly problems: ReadProblem[];
  /** Conversations read but erased: a party deleted their account (docs/decisions/hash-chain.md "Erasure"). */
  readonly erased: number[];
}

async function read<T>(client: ApiClient, path: string, parse: (body: unknown) => T): Promise<T> {
  const answer = await client.get(path);
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
  return parse(answer.body);
}

async function historyOf(client: ApiClient, id: number): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let after: string | null = null;
  do {
    const query: string = `limit=${HISTORY_PAGE_MAX}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const page = await read(client, `/api/conversations/${id}/history?${query}`, (body) => historyPage.parse(body));
    events.push(...page.events);
    after = page.nextAfter;
  } while (after !== null);
  return events;
}

/**
 * Every conversation the people of a running node can see, read as their console reads it (docs/behaviour/transcripts.md):
 * the thread from GET /api/conversations/:id/messages, placed among the offers of the conversation's history
 * (GET /api/conversations/:id/history), read by a person of the borrower's firm where there is one, who sees the
 * borrower's needs.
 */
export async function readNodeTranscripts(people: readonly ApiClient[], source: string): Promise<NodeTranscripts> {
  const readers = new Map<number, { client: ApiClient; view: ConversationView }>();
  for (const client of people) {
    const answer = await client.get('/api/conversations');
    // A person who has left or deleted their account reads nothing; the others read for them.
    if (answer.status !== 200) continue;
    for (const view of conversationListView.parse(answer.body)) {
      const ownsBorrower = view.participants.some((p) => p.type === 'borrower' && p.isMine);
      if (!readers.has(view.id) || ownsBorrower) readers.set(view.id, { client, view });
    }
  }
  const transcripts: Transcript[] = [];
  const problems: ReadProblem[] = [];
  const erased: number[] = [];
  for (const [id, { client, view }] of [...readers].sort(([a], [b]) => a - b)) {
    const thread = await read(client, `/api/conversations/${id}/messages`, (body) => messageListView.parse(body));
    const history = await historyOf(client, id);
    // A party deleted their account (the simulation's deletion mid-negotiation): its words are erased by design
    // (docs/decisions/hash-chain.md "Erasure"), so there is nothing of theirs left to read.
    if (history.some((event) => event.redacted)) {
      erased.push(id);
      continue;
    }
    const told = transcriptOf(source, view, thread, history);
    transcripts.push(told.transcript);
    problems.push(...told.problems.map((detail) => ({ conversationId: id, detail })));
  }
  return { transcripts, problems, erased };
}

/** One conversation's transcript from its thread and its history; `problems` names what the two do not tell alike. */
function transcriptOf(
  source: string,
  view: ConversationView,
  thread: readonly MessageView[],
  history: readonly HistoryEvent[],
): { transcript: Transcript; problems: string[] } {
  const problems: string[] = [];
  const shown = new Map(thread.map((message) => [message.id, message]));
  const borrower = view.participants.find((p) => p.type === 'borrower');
  let needs: BorrowerNeeds | null = null;
  let started = false;
  const entries: Entry[] = [];
  for (const recorded of history) {
    if (recorded.type === 'ConversationStarted') started = true;
    const event = readStoredEventOrNull(recorded);
    if (!event) continue;
    switch (event.type) {
      case 'AgentCreated':
      case 'AgentUpdated':
        // The needs as they stood when the conversation started (the negotiation's own setup).
        if (!started && event.data.agentId === borrower?.agentId) {
          if (recorded.redacted) problems.push(`the borrower's needs are hidden from its reader (${recorded.type} redacted)`);
          else if (event.data.needs !== undefined) needs = event.data.needs;
        }
        break;
      case 'MessageSent': {
        const message = shown.get(event.data.messageId);
        if (!message) {
          problems.push(`message ${event.data.messageId} of the history is not in the thread`);
          break;
        }
        shown.delete(message.id);
        entries.push({
          kind: 'message',
          agentId: message.fromAgentId,
          text: message.content,
          automated: message.isAutomated,
          reading: message.isReading === true,
        });
        break;
      }
      case 'OfferMade':
        entries.push({
          kind: 'offer',
          offerId: event.data.offerId,
          agentId: event.data.fromAgentId,
          terms: event.data.terms,
          product: event.data.product ?? null,
          byPerson: event.data.byPerson === true,
        });
        break;
      case 'OfferAccepted':
        entries.push({ kind: 'accepted', offerId: event.data.offerId, agentId: event.data.byAgentId, terms: event.data.terms });
        break;
      case 'OfferRejected':
        entries.push({ kind: 'rejected', offerId: event.data.offerId, agentId: event.data.byAgentId });
        break;
      case 'ConversationCompleted':
        entries.push({ kind: 'completed', outcome: event.data.outcome });
        break;
      default:
        break;
    }
  }
  for (const id of shown.keys()) problems.push(`message ${id} of the thread is not in the history`);
  return {
    transcript: {
      source,
      conversationId: view.id,
      participants: view.participants.map(({ agentId, type, name }) => ({ agentId, type, name })),
      needs,
      entries,
    },
    problems,
  };
}
