import { streams, type DomainEvent, type EventMetadata } from '@pf/events';
import type { RecordedEvent, ServiceContext } from '@pf/infra';
import { createRng, seedFrom } from '../automation/rng';
import { composeMessage } from '../automation/words/phrases';
import { conversationDecider, isSilenced, type ConversationEvent } from '../conversation/conversation';
import { handleCommand } from '../handle-command';
import { nextId } from '../ids';
import type { AutomationState } from './automation-state';
import { decidedIds } from './decisions';
import { deterministicId } from './deterministic-id';

/**
 * A borrower that agreed terms in one conversation withdraws politely from its other open negotiations (issue
 * 16): it thanks the lender, says it agreed elsewhere, and the conversation completes as stopped (not counted
 * as a failed negotiation). Nothing is said where a person has taken manual control: that is theirs to end.
 */
export async function withdrawAfterAgreement(context: ServiceContext, state: AutomationState, cause: RecordedEvent): Promise<void> {
  const deal = cause.data as Extract<DomainEvent, { type: 'DealAgreed' }>['data'];
  const borrowerId = deal.borrowerAgentId;
  const borrowerName = state.agents.get(borrowerId)?.name ?? `Agent ${borrowerId}`;
  const lenderName = state.agents.get(deal.lenderAgentId)?.name ?? `Agent ${deal.lenderAgentId}`;
  const metadata: EventMetadata = { actor: { kind: 'agent', agentId: borrowerId }, correlationId: cause.metadata.correlationId, causationId: cause.id };
  for (const conversation of [...state.conversations.values()]) {
    const negotiation = conversation.negotiation;
    if (conversation.conversationId === deal.conversationId || conversation.status !== 'active' || !negotiation) continue;
    if (negotiation.setup.borrower.agentId !== borrowerId) continue;
    const conversationId = conversation.conversationId;
    const key = `${cause.id}:withdraw:${conversationId}`;
    const { messageId } = await decidedIds(context.pool, key, async () => ({ messageId: await nextId(context.pool, 'message_ids') }));
    const content = composeMessage({ kind: 'withdraw', side: 'borrower', lenderName }, createRng(seedFrom(key)));
    const events: ConversationEvent[] = [
      { type: 'MessageSent', data: { conversationId, messageId, fromAgentId: borrowerId, toAgentId: negotiation.setup.lender.agentId, content, isAutomated: true } },
      { type: 'ConversationCompleted', data: { conversationId, outcome: 'stopped', reason: `${borrowerName} agreed terms with ${lenderName}` } },
    ];
    // Only while it is still open and the borrower's side automatic (a person holding it speaks for themselves),
    // so a redelivered DealAgreed changes nothing.
    const decider = { ...conversationDecider, decide: (_: unknown, current: typeof conversationDecider.initialState) =>
      current.status === 'active' && !isSilenced(current, borrowerId) ? events : [] };
    // The negotiator may write to it meanwhile: decided again on what stands then.
    await handleCommand(context.store, streams.conversation(conversationId), decider, null, metadata, (i) => deterministicId(`${key}:${i}`));
  }
}
