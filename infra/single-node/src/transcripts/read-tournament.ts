import type { DomainEvent } from '@pf/events';
import { moveEvents } from '@pf/command-service/automation/negotiation/move-events';
import { DEFAULT_NEGOTIATION_SETTINGS, nextMove, whoseTurn } from '@pf/command-service/automation/negotiation/next-move';
import { runNegotiation } from '@pf/command-service/automation/negotiation/run-negotiation';
import { negotiationSetup } from '@pf/command-service/automation/negotiation/setup';
import { evolveNegotiation, initialNegotiationState } from '@pf/command-service/automation/negotiation/state';
import { createRng, seedFrom } from '@pf/command-service/automation/rng';
import { generatePair } from '@pf/command-service/automation/testing/generate-pair';
import { messageForMove } from '@pf/command-service/automation/words/move-message';
import type { Entry, Transcript } from './transcript';

export interface TournamentTranscripts {
  readonly transcripts: Transcript[];
  /** Pairs whose replay with words made other offers than the tournament's own run (it would not be its conversation). */
  readonly problems: { pair: number; detail: string }[];
}

/**
 * The tournament's conversations (`npm run bench:negotiation`: command-service/src/automation/bench/tournament.ts),
 * pair for pair, as the thread would show them: each move with the words the negotiator writes for it
 * (process-managers/negotiator.ts writes the message, then the move's events), from the same generated pairs and
 * seeds. The words take a random stream of their own, so the moves are the tournament's exactly; each pair's offers
 * are checked against the tournament's own run of it.
 */
export function readTournamentTranscripts(options: { pairs: number; seed: number }): TournamentTranscripts {
  const rng = createRng(options.seed);
  const transcripts: Transcript[] = [];
  const problems: { pair: number; detail: string }[] = [];
  const settings = DEFAULT_NEGOTIATION_SETTINGS;
  for (let index = 0; index < options.pairs; index += 1) {
    const pair = generatePair(rng, 1);
    const words = createRng(seedFrom('transcript words', options.seed + index));
    let state = initialNegotiationState(1, negotiationSetup(pair.borrower, pair.lender));
    const events: DomainEvent[] = [];
    for (let turn = 0; turn <= settings.deadlineRounds + 1; turn += 1) {
      const side = whoseTurn(state, settings);
      if (!side) break;
      const move = nextMove(state, side, settings);
      const text = messageForMove(state, side, move, words);
      const said: DomainEvent[] = text
        ? [
            {
              type: 'MessageSent',
              data: {
                conversationId: 1,
                messageId: events.length + 1,
                fromAgentId: state.setup[side].agentId,
                toAgentId: null,
                content: text,
                isAutomated: true,
              },
            },
          ]
        : [];
      const produced = moveEvents(state, side, move, { offerId: `offer-${turn}`, dealId: 'deal-1' });
      for (const event of [...said, ...produced]) state = evolveNegotiation(state, event);
      events.push(...said, ...produced);
    }
    const own = runNegotiation(pair.borrower, pair.lender, settings).events.filter((e) => e.type === 'OfferMade');
    const replayed = events.filter((e) => e.type === 'OfferMade');
    if (JSON.stringify(own) !== JSON.stringify(replayed))
      problems.push({ pair: index, detail: 'the replay with words made other offers than the tournament' });
    transcripts.push({
      source: `tournament pair ${index}`,
      conversationId: index,
      participants: [
        { agentId: pair.borrower.agentId, type: 'borrower', name: 'borrower' },
        { agentId: pair.lender.agentId, type: 'lender', name: 'lender' },
      ],
      needs: null,
      entries: events.flatMap(entryOf),
    });
  }
  return { transcripts, problems };
}

function entryOf(event: DomainEvent): Entry[] {
  switch (event.type) {
    case 'MessageSent':
      return [{ kind: 'message', agentId: event.data.fromAgentId, text: event.data.content, automated: true, reading: false }];
    case 'OfferMade':
      return [
        {
          kind: 'offer',
          offerId: event.data.offerId,
          agentId: event.data.fromAgentId,
          terms: event.data.terms,
          product: event.data.product ?? null,
          byPerson: false,
        },
      ];
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
