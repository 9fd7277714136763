import { pounds, ratePercent, readStoredEventOrNull, type HistoryEvent, type LoanTerms } from '@pf/events';

/** The filter's groups: the issue's three (messages, offers, control) and everything else. */
export const FILTER_KINDS = ['message', 'offer', 'control', 'other'] as const;
export type FilterKind = (typeof FILTER_KINDS)[number];
export const FILTER_LABELS: Record<FilterKind, string> = {
  message: 'Messages',
  offer: 'Offers',
  control: 'Control',
  other: 'Other events',
};

export function filterKindOf(event: HistoryEvent): FilterKind {
  return event.kind === 'message' || event.kind === 'offer' || event.kind === 'control' ? event.kind : 'other';
}

export const ISSUES = [
  { key: 'interestRate', label: 'Rate', format: ratePercent },
  { key: 'loanAmount', label: 'Loan', format: pounds },
  { key: 'termYears', label: 'Term', format: (v: number) => `${v} yrs` },
  { key: 'arrangementFee', label: 'Fee', format: pounds },
] as const satisfies readonly { key: keyof LoanTerms; label: string; format: (v: number) => string }[];

interface Span {
  readonly from: number;
  /** Index of the hand-back, or null while control is still held. */
  readonly to: number | null;
  readonly who: string;
}

interface OfferPoint {
  readonly index: number;
  readonly agentId: number;
  readonly terms: LoanTerms;
  readonly byPerson: boolean;
}

export interface TimelineModel {
  readonly spans: Span[];
  readonly messages: { index: number; agentId: number; byPerson: boolean }[];
  readonly offers: OfferPoint[];
  /** The agents that made offers or spoke, in order of first appearance: one colour each. */
  readonly sides: number[];
}

/** What the timeline draws, from the events in order (index = place in the list). Pure. */
export function timelineModel(events: readonly HistoryEvent[]): TimelineModel {
  const spans: Span[] = [];
  const messages: TimelineModel['messages'] = [];
  const offers: OfferPoint[] = [];
  const sides: number[] = [];
  const side = (agentId: number) => {
    if (!sides.includes(agentId)) sides.push(agentId);
  };
  let open: { from: number; who: string } | null = null;
  events.forEach((recorded, index) => {
    // The history answer carries each event's data as recorded, read by the contract's one reader (an event it
    // refuses, such as an altered one, draws nothing here).
    const byPerson = recorded.actor.kind === 'person';
    const event = readStoredEventOrNull(recorded);
    if (event?.type === 'ManualModeChanged') {
      const { isManualMode } = event.data;
      if (isManualMode && !open) open = { from: index, who: recorded.actor.name };
      else if (!isManualMode && open) {
        spans.push({ ...open, to: index });
        open = null;
      }
    } else if (event?.type === 'MessageSent') {
      const { fromAgentId } = event.data;
      side(fromAgentId);
      messages.push({ index, agentId: fromAgentId, byPerson });
    } else if (event?.type === 'OfferMade') {
      const { fromAgentId, terms } = event.data;
      side(fromAgentId);
      offers.push({ index, agentId: fromAgentId, terms, byPerson });
    }
  });
  if (open) spans.push({ ...(open as { from: number; who: string }), to: null });
  return { spans, messages, offers, sides };
}

/** How finely an axis label tells the time: with the date (a history over days), to the minute, or the second. */
export type TickResolution = 'day' | 'minute' | 'second';

/**
 * The axis ticks: at most `maxTicks` events evenly spread, each labelled as coarsely as keeps the labels apart
 * (the minute, else the second; with the date when the history spans a day or more). Events recorded in the
 * same second would still repeat a label: only the first of them keeps a tick, so no label is ever shown twice.
 */
export function axisTicks(
  times: readonly number[],
  maxTicks: number,
  label: (time: number, resolution: TickResolution) => string,
): { index: number; label: string }[] {
  if (times.length === 0) return [];
  const count = Math.max(1, Math.min(Math.floor(maxTicks), times.length));
  const spread = count === 1 ? [0] : Array.from({ length: count }, (_, i) => Math.round((i * (times.length - 1)) / (count - 1)));
  const indices = [...new Set(spread)];
  const span = times[times.length - 1]! - times[0]!;
  const resolutions: TickResolution[] = span >= 86_400_000 ? ['day'] : ['minute', 'second'];
  for (const resolution of resolutions) {
    const labels = indices.map((i) => label(times[i]!, resolution));
    if (new Set(labels).size === labels.length) return indices.map((index, k) => ({ index, label: labels[k]! }));
  }
  const finest = resolutions[resolutions.length - 1]!;
  const seen = new Set<string>();
  return indices.flatMap((index) => {
    const text = label(times[index]!, finest);
    if (seen.has(text)) return [];
    seen.add(text);
    return [{ index, label: text }];
  });
}

/**
 * "session 1", "session 2": the sessions that acted in this history, numbered in the order they first acted, so
 * an auditor tells two sessions of one person apart without reading a raw id.
 */
export function sessionNames(events: readonly HistoryEvent[]): (sessionId: string) => string {
  const order: string[] = [];
  for (const event of events) {
    const id = event.actor.kind === 'person' ? event.actor.sessionId : null;
    if (id && !order.includes(id)) order.push(id);
  }
  return (sessionId) => {
    const at = order.indexOf(sessionId);
    return at < 0 ? 'another session' : `session ${at + 1}`;
  };
}
