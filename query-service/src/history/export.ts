import type { ConversationVerification, HistoryEvent, HistoryExport } from '@pf/events';

/** The full history for an auditor: every event with its hash links, and the verifier's verdict when exported. */
export function historyJson(conversationId: number, events: HistoryEvent[], verification: ConversationVerification, exportedAt: string): HistoryExport {
  return { conversationId, exportedAt, verification, events };
}

const CSV_COLUMNS = ['position', 'recorded_at', 'type', 'agent_id', 'acted_by', 'session_id', 'content', 'interest_rate', 'term_years', 'loan_amount', 'arrangement_fee', 'round', 'hash'] as const;

/** A cell as spreadsheets read it safely: quoted, and a leading = + - @ defused (formula injection). */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Messages and offers, one row each, in the order they were recorded. */
export function historyCsv(events: readonly HistoryEvent[]): string {
  const rows = events
    .filter((event) => event.kind === 'message' || event.type === 'OfferMade' || event.type === 'OfferAccepted')
    .map((event) => {
      const data = event.data as Record<string, any>;
      const terms = data.terms ?? {};
      const actedBy = event.actor.kind === 'person' ? event.actor.name : event.actor.name;
      return [
        event.position,
        event.recordedAt,
        event.type,
        data.fromAgentId ?? data.byAgentId ?? '',
        actedBy,
        event.actor.kind === 'person' ? event.actor.sessionId : '',
        data.content ?? '',
        terms.interestRate,
        terms.termYears,
        terms.loanAmount,
        terms.arrangementFee,
        data.round,
        event.hash,
      ];
    });
  return [CSV_COLUMNS.join(','), ...rows.map((row) => row.map(cell).join(','))].join('\r\n') + '\r\n';
}
