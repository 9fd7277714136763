import { readCriteria, START, streams, type Criteria, type DealParty, type Position } from '@pf/events';
import {
  BACKGROUND_BATCH_INTERVAL_MS,
  catchUpOnTypes,
  loadCheckpoint,
  runOf,
  saveCheckpoint,
  type RecordedEvent,
  type ServiceContext,
} from '@pf/infra';
import { foldEvents, handleCommand } from '../handle-command';
import { conversationDecider } from '../conversation/conversation';
import { deterministicId } from '../automation/process-managers/deterministic-id';
import { dealDecider } from './deal';

/** Where the deal opener's checkpoint is kept (in `checkpoints`). */
export const DEAL_OPENER_CHECKPOINT = 'deal-opener';
const CHECKPOINT = DEAL_OPENER_CHECKPOINT;

/**
 * Turns agreed terms into a deal: for each DealAgreed (written by the negotiator on the conversation's stream),
 * opens the deal's own stream with the terms and the parties as the conversation knew them (their owners may
 * see the deal). Idempotent: the deal opens once (the decider, and event ids derived from the cause), so every
 * copy of the command-service may run it, and a redelivery after a crash adds nothing.
 */
async function openAgreedDeal(context: Pick<ServiceContext, 'store'>, cause: RecordedEvent<'DealAgreed'>): Promise<void> {
  const agreed = cause.data;
  const conversation = foldEvents(conversationDecider, await context.store.readStream(streams.conversation(agreed.conversationId)));
  if (conversation.status === 'none') return;
  const party = (agentId: number | null): DealParty | null => {
    const found = agentId === null ? undefined : conversation.participants.find((p) => p.agentId === agentId);
    return found
      ? {
          agentId: found.agentId,
          ownerId: found.ownerId,
          ...(found.firmId ? { firmId: found.firmId } : {}),
          name: found.name,
          type: found.type,
        }
      : null;
  };
  const borrower = party(agreed.borrowerAgentId);
  const lender = party(agreed.lenderAgentId);
  if (!borrower || !lender) return;
  try {
    await handleCommand(
      context.store,
      streams.deal(agreed.dealId),
      dealDecider,
      {
        type: 'OpenDeal',
        deal: {
          dealId: agreed.dealId,
          source: 'negotiation',
          agreedInConversationId: agreed.conversationId,
          borrower,
          lender,
          broker: party(agreed.brokerAgentId),
          propertyAddress: await regionOf(context, agreed.borrowerAgentId),
          propertyValue: agreed.propertyValue,
          loanAmount: agreed.loanAmount,
          ltv: agreed.ltv,
          interestRate: agreed.interestRate,
          termYears: agreed.termYears,
          arrangementFee: agreed.arrangementFee,
          // The product and the broker's procuration fee go on with the deal (its illustration, Deals, the broker's commission).
          ...(agreed.product ? { product: agreed.product } : {}),
          ...(agreed.procurationFee !== undefined && agreed.brokerAgentId !== null ? { procurationFee: agreed.procurationFee } : {}),
          targetCompletion: null,
        },
      },
      { actor: { kind: 'system', name: 'deal-opener' }, correlationId: cause.metadata.correlationId, causationId: cause.id },
      (index) => deterministicId(`${cause.id}:deal-opened:${index}`),
    );
  } catch (error) {
    // Another copy opened it at the same moment: the deal stands, which is all this wanted.
    if ((error as { statusCode?: number }).statusCode !== 409) throw error;
  }
}

/**
 * The deals of a batch's agreements not yet opened, opened. A deal's stream begins with its DealOpened, so one question
 * for the whole batch finds those opened already: a catch-up over a long log pays one query per page of agreements,
 * not the conversation's stream, the borrower's and the deal's for each (docs/decisions/bounded-restart.md).
 */
async function openAgreedDeals(context: Pick<ServiceContext, 'store'>, batch: readonly RecordedEvent[]): Promise<void> {
  const agreed = batch.filter((event): event is RecordedEvent<'DealAgreed'> => event.type === 'DealAgreed');
  if (agreed.length === 0) return;
  const opened = await context.store.streamsWithEvents(agreed.map((event) => streams.deal(event.data.dealId)));
  for (const event of agreed) if (!opened.has(streams.deal(event.data.dealId))) await openAgreedDeal(context, event);
}

/**
 * Where the property is, as far as the borrower's details say: agents agree terms, not addresses, so a deal opens
 * with the region the borrower's criteria name ("Leeds"), or empty, and the Deals screen asks its operator for
 * the address (Edit).
 */
async function regionOf(context: Pick<ServiceContext, 'store'>, borrowerAgentId: number): Promise<string> {
  let criteria: Criteria | null = null;
  for (const event of await context.store.readStream(streams.agent(borrowerAgentId))) {
    if (event.type === 'AgentCreated' || event.type === 'AgentUpdated') criteria = event.data.criteria;
  }
  const region = readCriteria(criteria).regions?.[0];
  return region ? `${region.charAt(0).toUpperCase()}${region.slice(1)} (region; full address to be given)` : '';
}

/**
 * The deal opener as a supervised follower (restarted with backoff from its checkpoint after a failure,
 * listed in /readyz with its lag). Every copy may run it: opening a deal is idempotent.
 */
export function startDealOpener(context: ServiceContext): { close(): Promise<void> } {
  let position: Position = START;
  const supervised = context.supervisor.run({
    name: 'deal opener',
    position: () => position,
    async start() {
      // The agreements since the checkpoint first, read by type (docs/decisions/bounded-restart.md): a first start on a
      // long log, or one after the log grew while the product was stopped, reads them rather than every event.
      position = await catchUpOnTypes({
        store: context.store,
        from: await loadCheckpoint(context.pool, CHECKPOINT),
        types: ['DealAgreed'],
        handle: (events) => openAgreedDeals(context, events),
        save: (at) => saveCheckpoint(context.pool, CHECKPOINT, at),
        reached: (at) => (position = at),
      });
      return runOf((onError) =>
        context.store.subscribe(
          position,
          async (batch) => {
            await openAgreedDeals(context, batch);
            const last = batch[batch.length - 1]!.position;
            await saveCheckpoint(context.pool, CHECKPOINT, last);
            position = last;
          },
          // Opening a deal a tenth of a second later is nothing; a checkpoint per small batch is a write each.
          { onError, minIntervalMs: BACKGROUND_BATCH_INTERVAL_MS },
        ),
      );
    },
  });
  return { close: () => supervised.stop() };
}
