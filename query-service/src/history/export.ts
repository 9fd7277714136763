import { z } from 'zod';
import { toCsv, type ConversationVerification, type CsvValue, type HistoryEvent, type HistoryExport } from '@pf/events';

/** The full history for an auditor: every event with its hash links, and the verifier's verdict when exported. */
export function historyJson(
  conversationId: number,
  events: HistoryEvent[],
  verification: ConversationVerification,
  exportedAt: string,
): HistoryExport {
  return { conversationId, exportedAt, verification, events };
}

const CSV_COLUMNS = [
  'position',
  'recorded_at',
  'type',
  'agent_id',
  'acted_by',
  'session_id',
  'content',
  'interest_rate',
  'term_years',
  'loan_amount',
  'arrangement_fee',
  'product',
  'monthly_payment',
  'aprc',
  'round',
  'hash',
] as const;

const figure = z.union([z.number(), z.string()]).optional();

/**
 * What a row reads of a message's or an offer's data as recorded (MessageSent, OfferMade, OfferAccepted): the history
 * answers data as stored, which the contract may refuse (an altered event), so a row of such data is left blank.
 */
const rowData = z
  .object({
    fromAgentId: z.number().optional(),
    byAgentId: z.number().optional(),
    content: z.string().optional(),
    round: z.number().optional(),
    terms: z.object({ interestRate: figure, termYears: figure, loanAmount: figure, arrangementFee: figure }).optional(),
    product: z.object({ name: z.string().optional() }).optional(),
  })
  .catch({});

/** Messages and offers (with their product and figures), one row each, in the order they were recorded. */
export function historyCsv(events: readonly HistoryEvent[]): string {
  const rows = events
    .filter((event) => event.kind === 'message' || event.type === 'OfferMade' || event.type === 'OfferAccepted')
    .map((event) => {
      const data = rowData.parse(event.data);
      const terms = data.terms ?? {};
      const row: CsvValue[] = [
        event.position,
        event.recordedAt,
        event.type,
        data.fromAgentId ?? data.byAgentId ?? '',
        event.actor.name,
        event.actor.kind === 'person' ? event.actor.sessionId : '',
        data.content ?? '',
        terms.interestRate,
        terms.termYears,
        terms.loanAmount,
        terms.arrangementFee,
        data.product?.name ?? '',
        // The figures served beside the terms (docs/behaviour/offers.md): the first period's payment, and the APRC.
        event.figures?.monthlyPayment,
        event.figures?.aprc,
        data.round,
        event.hash,
      ];
      return row;
    });
  return toCsv([CSV_COLUMNS, ...rows]);
}
