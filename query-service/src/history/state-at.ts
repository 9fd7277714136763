import {
  emptyOfferBook,
  evolveOfferBook,
  latestOfferOf,
  servedOfferFigures,
  canSeeConversation,
  comparePositions,
  conversationViewFor,
  conversationsView,
  formatPosition,
  messageOf,
  streams,
  type BookedOffer,
  type Conversation,
  type HistoryState,
  type MessageView,
  type OfferBook,
  type Participant,
  type Position,
  type StandingOffer,
} from '@pf/events';
import type { HistoryRecord } from './load-history';
import { countBefore, takeoverSpans, takeoversUpTo, type TakeoverSpan } from './takeovers';

/** A side's standing offer as History shows it: the offer, whose it is, its figures, and where it was recorded. */
export function standingOfferOf(
  side: Participant,
  offer: BookedOffer,
  recorded: Pick<StandingOffer, 'position' | 'recordedAt'>,
): StandingOffer {
  return {
    offerId: offer.offerId,
    agentId: side.agentId,
    agentName: side.name,
    agentType: side.type,
    round: offer.round,
    terms: offer.terms,
    status: offer.status,
    product: offer.product,
    reason: offer.reason,
    figures: servedOfferFigures(offer.terms, offer.product),
    position: recorded.position,
    recordedAt: recorded.recordedAt,
  };
}

/** A moment to look at: a global position (inclusive) or a time (events recorded at or before it). */
export type Moment = { readonly position: Position } | { readonly time: Date };

/** Records folded between two kept states: a scrub step folds fewer than this many (docs/behaviour/history.md). */
export const CHECKPOINT_EVERY = 64;

interface Folded {
  readonly conversation: Conversation | null;
  readonly book: OfferBook;
}

const nothingYet: Folded = { conversation: null, book: emptyOfferBook };

/**
 * What a scrub step reads of a loaded history, built by one fold of it: the fold is causal, so the state after
 * the first k records is the kept state at or before k, folded on to k, with the messages, offers and takeovers
 * recorded before k.
 */
interface ScrubIndex {
  /** checkpoints[c]: the conversation and its offer book after the first c × CHECKPOINT_EVERY records. */
  readonly checkpoints: readonly Folded[];
  /** The record index of the conversation's start (-1 when it never started among these records). */
  readonly started: number;
  readonly messages: readonly { index: number; message: MessageView }[];
  /** Where each offer was made, by its id: every time, in order (an id is made once, but the store does not say so). */
  readonly offersMade: ReadonlyMap<string, readonly { index: number; position: string; recordedAt: string }[]>;
  /** The takeovers as folded with the conversation's participants, and with none (a moment before it started). */
  readonly spans: readonly TakeoverSpan[];
  readonly spansBeforeStart: readonly TakeoverSpan[];
  /**
   * Whether the records are in the order of their positions (loadHistory's order), and no record was stamped before
   * the one ahead of it: then the records up to a position, or a time, are a prefix of them.
   */
  readonly positionsInOrder: boolean;
  readonly timesInOrder: boolean;
}

/** The conversation and its offer book after one more record: the read model's own fold and the one offer book (offers.md). */
function step(conversationId: number, folded: Folded, { recorded, event }: HistoryRecord): Folded {
  if (!event || recorded.stream !== streams.conversation(conversationId)) return folded;
  const at = recorded.recordedAt.toISOString();
  const conversation =
    conversationsView.keyOf(event) === conversationId ? conversationsView.evolve(folded.conversation, event, at) : folded.conversation;
  const book = evolveOfferBook(folded.book, event);
  return conversation === folded.conversation && book === folded.book ? folded : { conversation, book };
}

function scrubIndexOf(conversationId: number, records: readonly HistoryRecord[]): ScrubIndex {
  const checkpoints: Folded[] = [nothingYet];
  const messages: { index: number; message: MessageView }[] = [];
  const offersMade = new Map<string, { index: number; position: string; recordedAt: string }[]>();
  let folded = nothingYet;
  let started = -1;
  let participants: readonly Participant[] = [];
  let positionsInOrder = true;
  let timesInOrder = true;
  records.forEach((record, index) => {
    folded = step(conversationId, folded, record);
    if ((index + 1) % CHECKPOINT_EVERY === 0) checkpoints.push(folded);
    const { recorded, event } = record;
    const ahead = records[index - 1]?.recorded;
    if (ahead && comparePositions(recorded.position, ahead.position) < 0) positionsInOrder = false;
    if (ahead && recorded.recordedAt.getTime() < ahead.recordedAt.getTime()) timesInOrder = false;
    if (started === -1 && folded.conversation) {
      started = index;
      participants = folded.conversation.participants;
    }
    if (!event || recorded.stream !== streams.conversation(conversationId)) return;
    const at = recorded.recordedAt.toISOString();
    const message = messageOf(folded.conversation, event, at);
    if (message) messages.push({ index, message });
    if (event.type === 'OfferMade') {
      const made = offersMade.get(event.data.offerId) ?? [];
      made.push({ index, position: formatPosition(recorded.position), recordedAt: at });
      offersMade.set(event.data.offerId, made);
    }
  });
  return {
    checkpoints,
    started,
    messages,
    offersMade,
    spans: takeoverSpans(records, participants),
    spansBeforeStart: takeoverSpans(records, []),
    positionsInOrder,
    timesInOrder,
  };
}

/** Built once per loaded history (history-cache.ts keeps it while its streams stand still), on its first step. */
const indexes = new WeakMap<readonly HistoryRecord[], ScrubIndex>();

function cachedIndex(conversationId: number, records: readonly HistoryRecord[]): ScrubIndex {
  let index = indexes.get(records);
  if (!index) indexes.set(records, (index = scrubIndexOf(conversationId, records)));
  return index;
}

/** How many records come first and satisfy `before` (true for a prefix of them, then false). */
function prefixLength(records: readonly HistoryRecord[], before: (record: HistoryRecord) => boolean): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(records[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The conversation as it stood at a moment: its events up to then folded by the read model's own fold
 * (`conversationsView` and `messageOf` from events/views, which the conversations read model runs), plus each side's
 * latest offer as the offer book folds it (docs/behaviour/offers.md) with its figures, and the takeovers so far. Pure
 * but for a kept index of the records (their order by position makes the events up to a moment a prefix of them):
 * a step folds from the nearest kept state, never from the first event (docs/behaviour/history.md). `now` measures
 * a takeover still held when the moment is the present.
 */
export function stateAt(
  conversationId: number,
  records: readonly HistoryRecord[],
  moment: Moment,
  requested: string,
  viewerFirmId: string,
  now: Date,
  personName: (userId: string) => string,
): HistoryState {
  const within =
    'position' in moment
      ? (record: HistoryRecord) => comparePositions(record.recorded.position, moment.position) <= 0
      : (record: HistoryRecord) => record.recorded.recordedAt.getTime() <= moment.time.getTime();
  let index = cachedIndex(conversationId, records);
  let upTo = records;
  let count: number;
  if ('position' in moment ? index.positionsInOrder : index.timesInOrder) {
    count = prefixLength(records, within);
  } else {
    // A record stamped before the one ahead of it: the events up to the moment are no prefix, so they are folded alone.
    upTo = records.filter(within);
    index = scrubIndexOf(conversationId, upTo);
    count = upTo.length;
  }

  const kept = Math.floor(count / CHECKPOINT_EVERY);
  let folded = index.checkpoints[kept]!;
  for (let i = kept * CHECKPOINT_EVERY; i < count; i++) folded = step(conversationId, folded, upTo[i]!);
  const { conversation, book } = folded;

  const offers: StandingOffer[] = [];
  for (const side of conversation?.participants ?? []) {
    const offer = latestOfferOf(book, side.agentId);
    const made = offer && index.offersMade.get(offer.offerId);
    const recorded = made?.[countBefore(made, count) - 1];
    if (!offer || !recorded) continue;
    offers.push(standingOfferOf(side, offer, recorded));
  }
  const last = upTo[count - 1]?.recorded;
  const until = 'time' in moment ? moment.time : (last?.recordedAt ?? now);
  const spans = index.started !== -1 && index.started < count ? index.spans : index.spansBeforeStart;
  return {
    conversationId,
    at: { requested, position: last ? formatPosition(last.position) : null, recordedAt: last ? last.recordedAt.toISOString() : null },
    conversation: conversation && canSeeConversation(conversation, viewerFirmId) ? conversationViewFor(conversation, viewerFirmId) : null,
    messages: index.messages.slice(0, countBefore(index.messages, count)).map((m) => m.message),
    offers: offers.sort((a, b) => a.agentId - b.agentId),
    takeovers: takeoversUpTo(spans, count, until, personName),
  };
}
