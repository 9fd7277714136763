import { applyDealEvent, dealFromOpening, type DealFacts, type DealStage, type DealStatus, type EventOf } from '@pf/events';
import { Conflict, Invalid, NotFound } from '@pf/infra';
import type { Decider } from '../handle-command';
import type { NeedState } from '../need/need';

export type DealEvent = EventOf<'DealOpened' | 'DealStatusChanged' | 'DealStageChanged' | 'DealEdited'>;
type Opened = EventOf<'DealOpened'>['data'];

/**
 * The deal's decision state: its facts as the shared deals view's rules fold them (events/src/views/deals.ts).
 * A separate fold from the deals view only in what it keeps: no recorded times (a decider's evolve sees none,
 * and no decision needs them) and no timeline.
 */
export type DealState = { status: 'none' } | DealFacts;

export type DealCommand =
  /**
   * `need`: the borrower's need as its stream stands (a lookup, like the clock), for a deal made by hand (New Deal),
   * which commits the need before it opens; an agreed negotiation's deal opens on the commitment its agreement made.
   */
  | { type: 'OpenDeal'; deal: Opened; need?: NeedState }
  | {
      type: 'ChangeDeal';
      dealId: string;
      firmId: string;
      status?: DealStatus;
      stage?: DealStage;
      propertyAddress?: string;
      targetCompletion?: string | null;
    };

type Existing = Exclude<DealState, { status: 'none' }>;

/** A deal is visible to the firms of its agents (visibility.ts: dealFirmsOf); to anyone else it does not exist (404). */
function visibleTo(state: DealState, dealId: string, firmId: string): Existing {
  if (state.status === 'none' || !state.owners.includes(firmId)) throw new NotFound(`Deal ${dealId} not found`);
  return state;
}

function stageChange(deal: Existing, stage: DealStage): DealEvent[] {
  if (stage === deal.stage) return [];
  if (stage === 'completed') {
    // A loan completes only once the lender has underwritten it.
    if (deal.stage !== 'underwriting') {
      throw new Invalid(`stage: A deal reaches completion only from underwriting; this one is at ${deal.stage}`);
    }
    return [
      { type: 'DealStageChanged', data: { dealId: deal.id, stage, from: deal.stage } },
      ...(deal.status === 'completed' ? [] : [statusEvent(deal, 'completed')]),
    ];
  }
  if (deal.stage === 'completed') throw new Invalid('stage: This deal has completed; its stage is final');
  return [{ type: 'DealStageChanged', data: { dealId: deal.id, stage, from: deal.stage } }];
}

const statusEvent = (deal: Existing, status: DealStatus): DealEvent => ({
  type: 'DealStatusChanged',
  data: { dealId: deal.id, status, from: deal.status },
});

function statusChange(deal: Existing, status: DealStatus): DealEvent[] {
  if (status === deal.status) return [];
  if (deal.status === 'completed') throw new Invalid('status: This deal has completed; its status is final');
  if (status === 'completed') {
    if (deal.stage !== 'underwriting' && deal.stage !== 'completed') {
      throw new Invalid(`status: A deal cannot complete before underwriting; this one is at ${deal.stage}`);
    }
    return deal.stage === 'completed' ? [statusEvent(deal, status)] : stageChange(deal, 'completed');
  }
  return [statusEvent(deal, status)];
}

/**
 * One agreed deal per borrower need (docs/decisions/one-commitment-per-need.md): New Deal for a borrower whose
 * need is committed to another deal, agreed in a negotiation or made by hand, is refused with the deal named, until
 * that deal is cancelled or the borrower's operator edits the need or asks for another lender.
 */
function refuseSecondDeal(deal: Opened, need: NeedState): void {
  const held = need.committed;
  if (held?.dealId === deal.dealId) return;
  const borrower = deal.borrower.name;
  if (held) {
    const how = held.conversationId === null ? 'made by hand' : `agreed in conversation #${held.conversationId}`;
    throw new Conflict(
      `${borrower} already has an agreed deal with ${held.lenderName} (${how}): a second deal for this borrower is refused until that deal is cancelled, or ${borrower}'s operator edits the need or asks for another lender`,
    );
  }
  throw new Invalid(`${borrower}'s need is not committed to this deal; New Deal commits it first`);
}

function decide(command: DealCommand, state: DealState): DealEvent[] {
  switch (command.type) {
    case 'OpenDeal':
      if (state.status !== 'none') return [];
      if (command.need !== undefined) refuseSecondDeal(command.deal, command.need);
      return [{ type: 'DealOpened', data: command.deal }];
    case 'ChangeDeal': {
      let deal = visibleTo(state, command.dealId, command.firmId);
      if (deal.status === 'cancelled') throw new Invalid('status: This deal is cancelled, and a cancelled deal is final');
      const events: DealEvent[] = [];
      const take = (produced: DealEvent[]) => {
        events.push(...produced);
        deal = produced.reduce(evolve, deal as DealState) as Existing;
      };
      if (command.stage !== undefined) take(stageChange(deal, command.stage));
      if (command.status !== undefined) take(statusChange(deal, command.status));
      const address = command.propertyAddress ?? deal.propertyAddress;
      const target = command.targetCompletion === undefined ? deal.targetCompletion : command.targetCompletion;
      if (address !== deal.propertyAddress || target !== deal.targetCompletion) {
        take([{ type: 'DealEdited', data: { dealId: deal.id, propertyAddress: address, targetCompletion: target } }]);
      }
      return events;
    }
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The view's rules: the first DealOpened counts (opening again records nothing), then each change as recorded. */
function evolve(state: DealState, event: DealEvent): DealState {
  if (event.type === 'DealOpened') return state.status === 'none' ? dealFromOpening(event.data) : state;
  return state.status === 'none' ? state : applyDealEvent(state, event);
}

export const dealDecider: Decider<DealCommand, DealState, DealEvent> = { initialState: { status: 'none' }, decide, evolve };
