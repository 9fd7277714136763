import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '@pf/events';
import { createLogger, openServiceContext, parseConfig, type OpenedContext, type RecordedEvent } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '../index';
import { AutomationState } from './automation-state';
import { claimDeal } from './deal-claim';

let sequence = 0;
function recorded(event: DomainEvent): RecordedEvent {
  sequence += 1;
  return {
    id: `e-${sequence}`,
    type: event.type,
    data: event.data,
    stream: 's',
    streamVersion: sequence,
    position: { commit: BigInt(sequence), prepare: BigInt(sequence) },
    recordedAt: new Date(),
    metadata: { actor: { kind: 'system', name: 'test' }, correlationId: 'c', causationId: null },
  } as RecordedEvent;
}

const party = (agentId: number, type: 'borrower' | 'lender') => ({ agentId, ownerId: 'owner', name: `Agent ${agentId}`, type });

/** One borrower (1) talking to two lenders (2 and 3) in conversations 10 and 11. */
function stateWithTwoNegotiations(): AutomationState {
  const state = new AutomationState();
  for (const [agentId, type] of [[1, 'borrower'], [2, 'lender'], [3, 'lender']] as const) {
    state.observe(recorded({ type: 'AgentCreated', data: { agentId, ownerId: 'owner', name: `Agent ${agentId}`, type, description: '', criteria: null } }));
  }
  for (const [conversationId, lender] of [[10, 2], [11, 3]] as const) {
    state.observe(recorded({ type: 'ConversationStarted', data: { conversationId, title: 't', participants: [party(1, 'borrower'), party(lender, 'lender')], matchId: null } }));
  }
  return state;
}

describe('one deal per borrower across its conversations, on real PostgreSQL', () => {
  let context: OpenedContext;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    context = await openServiceContext(config, createLogger('silent'), database.url, commandMigrations);
  });
  afterAll(async () => {
    await context?.close();
    await drop?.();
  });

  it('lets exactly one of two simultaneous acceptances through, and hands a claim on when its conversation failed', async () => {
    const state = stateWithTwoNegotiations();
    const [a, b] = [state.conversations.get(10)!.negotiation!, state.conversations.get(11)!.negotiation!];
    const results = await Promise.all([claimDeal(context.pool, state, a), claimDeal(context.pool, state, b), claimDeal(context.pool, state, a)]);
    const winner = results[0] ? a : b;
    expect(results[0]).not.toBe(results[1]);
    expect(results[2]).toBe(results[0]);
    const loser = winner === a ? b : a;
    expect(await claimDeal(context.pool, state, loser)).toBe(false);

    // The winner's conversation ends without a deal (say a person took over and walked away): the claim moves on.
    state.observe(recorded({ type: 'ConversationCompleted', data: { conversationId: winner.conversationId, outcome: 'no_agreement', reason: 'r' } }));
    expect(await claimDeal(context.pool, state, loser)).toBe(true);
    expect(await claimDeal(context.pool, state, winner)).toBe(false);
  });
});
