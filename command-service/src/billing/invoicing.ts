import type pg from 'pg';
import { FIRM_PLAN, PLANS, streams, type EventMetadata } from '@pf/events';
import type { EventStore, Logger } from '@pf/infra';
import { foldEvents, handleCommand } from '../handle-command';
import { deterministicId } from '../automation/process-managers/deterministic-id';
import { billingDecider } from './billing';

const METADATA: EventMetadata = { actor: { kind: 'system', name: 'invoicing' }, correlationId: 'invoicing', causationId: null };

const monthOf = (date: Date) => `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

const monthNames = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** "November 2026" for 2026-11. */
const monthName = (period: string) => monthNames.format(new Date(`${period}-01T00:00:00Z`));

/** Every month from the one the firm began in to the one `now` is in, as YYYY-MM. */
function monthsBetween(from: Date, now: Date): string[] {
  const months: string[] = [];
  for (let d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1)); d <= now; d.setUTCMonth(d.getUTCMonth() + 1)) {
    months.push(monthOf(d));
  }
  return months;
}

/**
 * The invoicing run (docs/behaviour/billing.md, "Invoices"): every firm gets one InvoiceIssued per month of its
 * plan, from the month it began, dated the month's first day (or the day it began). Repeating the run, or running
 * it on several copies at once, issues nothing twice: the decider issues a month once, and each invoice's event id
 * is derived from the firm and the month, so a racing copy's append of the same invoice stores nothing.
 */
export async function issueDueInvoices(pool: pg.Pool, store: EventStore, now: Date): Promise<number> {
  const firms = await pool.query<{ id: string; created_at: Date }>('select id, created_at from firms order by created_at');
  const plan = PLANS[FIRM_PLAN];
  let issued = 0;
  for (const firm of firms.rows) {
    const invoiced = new Set(foldEvents(billingDecider, await store.readStream(streams.billing(firm.id))).invoices.map((i) => i.period));
    for (const period of monthsBetween(firm.created_at, now).filter((month) => !invoiced.has(month))) {
      const began = monthOf(firm.created_at) === period;
      const invoiceId = deterministicId(`invoice:${firm.id}:${period}`);
      const handled = await handleCommand(
        store,
        streams.billing(firm.id),
        billingDecider,
        {
          type: 'IssueInvoice',
          firmId: firm.id,
          invoice: {
            invoiceId,
            number: `INV-${period.replace('-', '')}-${invoiceId.slice(0, 4).toUpperCase()}`,
            period,
            plan: FIRM_PLAN,
            description: `${plan.name} plan, ${monthName(period)}`,
            amountPence: plan.pricePence,
            issuedOn: began ? firm.created_at.toISOString().slice(0, 10) : `${period}-01`,
          },
        },
        METADATA,
        () => invoiceId,
      );
      issued += handled.events.length;
    }
  }
  return issued;
}

/**
 * Runs invoicing now, then every `seconds`; a failed run is logged and the next one tries again. The first run is
 * finished before this returns (so before the service answers): a firm made after start-up is invoiced by a later
 * run, never by one racing its creation.
 */
export async function startInvoicing(pool: pg.Pool, store: EventStore, log: Logger, seconds: number): Promise<() => void> {
  let running: Promise<void> | null = null;
  const run = () =>
    (running ??= issueDueInvoices(pool, store, new Date())
      .then(() => undefined)
      .catch((error: unknown) => log.warn({ err: error }, 'the invoicing run failed; the next one will try again'))
      .finally(() => (running = null)));
  await run();
  const timer = setInterval(() => void run(), seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
