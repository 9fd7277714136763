import type { HistoryEvent, LoanTerms } from '@pf/events';

/** The filter's groups: the issue's three (messages, offers, control) and everything else. */
export const FILTER_KINDS = ['message', 'offer', 'control', 'other'] as const;
export type FilterKind = (typeof FILTER_KINDS)[number];
export const FILTER_LABELS: Record<FilterKind, string> = { message: 'Messages', offer: 'Offers', control: 'Control', other: 'Other events' };

export function filterKindOf(event: HistoryEvent): FilterKind {
  return event.kind === 'message' || event.kind === 'offer' || event.kind === 'control' ? event.kind : 'other';
}

export const ISSUES = [
  { key: 'interestRate', label: 'Rate', format: (v: number) => `${Number(v.toFixed(3))}%` },
  { key: 'loanAmount', label: 'Loan', format: (v: number) => `£${Math.round(v).toLocaleString('en-GB')}` },
  { key: 'termYears', label: 'Term', format: (v: number) => `${v} yrs` },
  { key: 'arrangementFee', label: 'Fee', format: (v: number) => `£${Math.round(v).toLocaleString('en-GB')}` },
] as const satisfies readonly { key: keyof LoanTerms; label: string; format: (v: number) => string }[];

export interface Span {
  readonly from: number;
  /** Index of the hand-back, or null while control is still held. */
  readonly to: number | null;
  readonly who: string;
}

export interface OfferPoint {
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
  events.forEach((event, index) => {
    const data = event.data as Record<string, any>;
    const byPerson = event.actor.kind === 'person';
    if (event.type === 'ManualModeChanged') {
      if (data.isManualMode && !open) open = { from: index, who: event.actor.name };
      else if (!data.isManualMode && open) {
        spans.push({ ...open, to: index });
        open = null;
      }
    } else if (event.type === 'MessageSent') {
      side(data.fromAgentId);
      messages.push({ index, agentId: data.fromAgentId, byPerson });
    } else if (event.type === 'OfferMade') {
      side(data.fromAgentId);
      offers.push({ index, agentId: data.fromAgentId, terms: data.terms, byPerson });
    }
  });
  if (open) spans.push({ ...(open as { from: number; who: string }), to: null });
  return { spans, messages, offers, sides };
}
