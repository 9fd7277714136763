import type { DomainEvent } from '@pf/events';
import { DEFAULT_NEGOTIATION_SETTINGS } from '@pf/command-service/automation/negotiation/next-move';
import { runNegotiation } from '@pf/command-service/automation/negotiation/run-negotiation';
import { createRng, seedFrom } from '@pf/command-service/automation/rng';
import { generatePair } from '@pf/command-service/automation/testing/generate-pair';
import { messageForMove } from '@pf/command-service/automation/words/move-message';
import type { Entry, Transcript } from './transcript';

/**
 * The tournament's conversations (`npm run bench:negotiation`: command-service/src/automation/bench/tournament.ts),
 * pair for pair, as the thread would show them: the same generated pairs, each negotiated by the tournament's own
 * runNegotiation, and each of its moves with the words the negotiator writes for it (automation/process-managers/negotiator.ts
 * writes the message, then the move's events; the words' random choice seeded per conversation and move, as there).
 */
export function readTournamentTranscripts(options: { pairs: number; seed: number }): Transcript[] {
  const rng = createRng(options.seed);
  const transcripts: Transcript[] = [];
  for (let index = 0; index < options.pairs; index += 1) {
    const pair = generatePair(rng, 1);
    const result = runNegotiation(pair.borrower, pair.lender, DEFAULT_NEGOTIATION_SETTINGS);
    const events = result.steps.flatMap((step, move): DomainEvent[] => {
      const text = messageForMove(step.state, step.side, step.move, createRng(seedFrom(options.seed, index, move)));
      const fromAgentId = step.state.setup[step.side].agentId;
      const said: DomainEvent[] = text
        ? [
            {
              type: 'MessageSent',
              data: { conversationId: 1, messageId: move + 1, fromAgentId, toAgentId: null, content: text, isAutomated: true },
            },
          ]
        : [];
      return [...said, ...step.events];
    });
    transcripts.push({
      source: `tournament pair ${index}`,
      conversationId: index,
      participants: [
        { agentId: pair.borrower.agentId, type: 'borrower', name: 'borrower' },
        { agentId: pair.lender.agentId, type: 'lender', name: 'lender' },
      ],
      needs: pair.borrower.needs,
      entries: events.flatMap(entryOf),
    });
  }
  return transcripts;
}

function entryOf(event: DomainEvent): Entry[] {
  switch (event.type) {
    case 'MessageSent':
      return [{ kind: 'message', agentId: event.data.fromAgentId, text: event.data.content, automated: true, reading: false }];
    case 'OfferMade': {
      const { offerId, fromAgentId, terms, product } = event.data;
      return [{ kind: 'offer', offerId, agentId: fromAgentId, terms, product: product ?? null, byPerson: false }];
    }
    case 'OfferAccepted':
      return [{ kind: 'accepted', offerId: event.data.offerId, agentId: event.data.byAgentId, terms: event.data.terms }];
    case 'OfferRejected':
      return [{ kind: 'rejected', offerId: event.data.offerId, agentId: event.data.byAgentId }];
    case 'ConversationCompleted':
      return [{ kind: 'completed', outcome: event.data.outcome }];
    default:
      return [];
  }
}
