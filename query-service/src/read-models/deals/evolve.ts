import { dealsView, evolveDeal, pounds, type Deal, type DealDetailView, type DomainEvent } from '@pf/events';
import type { DocumentProjection } from '../../projection-kit/document-projection';
import { withoutOwner } from '../../projection-kit/json-rows-projection';

/** A deal's row: the deal as the shared deals view folds it (what the screen shows, who may see it), and its timeline. */
export interface DealDoc extends Deal {
  timeline: DealDetailView['timeline'];
}

/** How the timeline tells an event; `before` is the row as it stood (null before the deal opened). */
function timelineText(before: DealDoc | null, event: DomainEvent): string {
  switch (event.type) {
    case 'DealOpened': {
      const d = event.data;
      const terms = `${d.product ? `${d.product.name}, ` : ''}${pounds(d.loanAmount)} at ${d.interestRate}% over ${d.termYears} years`;
      return d.agreedInConversationId !== null
        ? `Opened from terms agreed in conversation #${d.agreedInConversationId}: ${terms}`
        : `Opened with New Deal: ${terms}`;
    }
    case 'DealStatusChanged':
      return `Status changed from ${event.data.from} to ${event.data.status}`;
    case 'DealStageChanged':
      return `Stage moved from ${event.data.from} to ${event.data.stage}`;
    case 'DealEdited': {
      const { propertyAddress, targetCompletion } = event.data;
      const changes = [
        propertyAddress !== before?.propertyAddress ? `property address set to ${propertyAddress || '(none)'}` : null,
        targetCompletion !== before?.targetCompletion ? `target completion set to ${targetCompletion ?? '(none)'}` : null,
      ].filter(Boolean);
      return `Edited: ${changes.join('; ')}`;
    }
    default:
      return event.type;
  }
}

/** One deal's row per event (pure; `at` is the event's recorded time): the deals view, and a timeline entry for each change. */
export function evolveDealDoc(doc: DealDoc | null, event: DomainEvent, at: string): DealDoc | null {
  switch (event.type) {
    case 'AccountDeleted':
      return withoutOwner(doc, event.data.userId);
    default: {
      const deal = evolveDeal(doc, event, at);
      if (deal === doc || !deal) return doc;
      return { ...deal, timeline: [...(doc?.timeline ?? []), { at, text: timelineText(doc, event) }] };
    }
  }
}

export const dealsProjection: DocumentProjection<DealDoc> = {
  name: 'deals',
  table: 'rm_deal_board',
  lookupFields: [],
  route: (event) => {
    const dealId = dealsView.keyOf(event);
    return dealId !== null ? [{ ids: [dealId] }] : event.type === 'AccountDeleted' ? [{ owner: event.data.userId }] : [];
  },
  evolve: evolveDealDoc,
  owners: (doc) => doc.owners,
};
