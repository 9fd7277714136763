/**
 * The automated agents' pure core (issue 5): criteria reading, match scoring and planning, the negotiation
 * engine evolved from domain events, the wording, and the tournament. No I/O except the optional LLM phraser;
 * the command-service's process managers wire these to the event store.
 */
export { createRng, pick, seedFrom, type Rng } from './rng';
export { readCriteria, readMoney, readRate, readTermYears, type Range, type ReadCriteria } from '@pf/events';
export { scoreMatch, type MatchScore } from './matching/score-match';
export {
  conversationTitle,
  conversationsToStop,
  DEFAULT_MATCH_SETTINGS,
  planMatches,
  type MatchableAgent,
  type MatchSettings,
  type OpenConversation,
  type PlannedMatch,
} from './matching/plan-matches';
export {
  agreementSpace,
  DEFAULT_POLICY,
  DEFAULT_STRATEGY,
  DEFAULT_WEIGHTS,
  dealPropertyValue,
  negotiationSetup,
  type LendingPolicy,
  type NegotiationSetup,
  type NegotiatorProfile,
  type PartyInput,
} from './negotiation/setup';
export {
  evolveNegotiation,
  hasSpoken,
  initialNegotiationState,
  lastOffer,
  sideOf,
  type NegotiationState,
  type OfferRecord,
} from './negotiation/state';
export {
  DEFAULT_NEGOTIATION_SETTINGS,
  isAcceptable,
  nextMove,
  whoseTurn,
  type Move,
  type NegotiationSettings,
} from './negotiation/next-move';
export { dealAgreed, moveEvents, type MoveIds } from './negotiation/move-events';
export { brokerMove, type BrokerMove } from './negotiation/broker-move';
export { offerFromOperatorMessage, readOfferFromText, type OperatorOffer } from './negotiation/operator-offer';
export { runNegotiation, type NegotiationResult } from './negotiation/run-negotiation';
export { distanceToFrontier, hasZoneOfAgreement, nashPoint, paretoFrontier, type UtilityPoint } from './negotiation/pareto';
export { utility } from './negotiation/utility';
export type { Issue, Side } from './negotiation/terms-space';
export { composeMessage, type MessageIntent } from './words/phrases';
export { messageForBroker, messageForMove } from './words/move-message';
export { describeTerms, formatPounds, formatRate, formatYears } from './words/format';
export { createLlmPhraser, statesSameNumbers, type LlmSettings, type Phraser, type PhrasingLogger } from './words/llm-phrasing';
export { measureNegotiationsPerSecond, runTournament, type TournamentReport } from './bench/tournament';
