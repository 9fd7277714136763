import type pg from 'pg';
import type { DomainEvent } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';

/**
 * The read models' meaning, one event at a time: the reference that applyBatch (what the projector and
 * the rebuild run) is tested against in apply-batch.int.test.ts. Events were validated by the deciders
 * that wrote them, so they are trusted here. Timestamps come from the event, never from the clock.
 */
export async function applyEvent(client: pg.ClientBase, recorded: RecordedEvent): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as DomainEvent;
  const at = recorded.recordedAt;
  switch (event.type) {
    case 'AgentCreated': {
      const { agentId, ownerId, name, type, description, criteria, strategy } = event.data;
      await client.query(
        `insert into rm_agents (id, owner_id, name, type, description, criteria, strategy, is_active, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, true, $8, $8) on conflict (id) do nothing`,
        [agentId, ownerId, name, type, description, criteria === null ? null : JSON.stringify(criteria), strategy ?? null, at],
      );
      return;
    }
    case 'AgentUpdated': {
      const { agentId, name, description, criteria, strategy } = event.data;
      await client.query(
        `update rm_agents set name = $2, description = $3, criteria = $4, strategy = coalesce($6, strategy), updated_at = $5
         where id = $1`,
        [agentId, name, description, criteria === null ? null : JSON.stringify(criteria), at, strategy ?? null],
      );
      return;
    }
    case 'AgentPaused':
    case 'AgentResumed':
      await client.query('update rm_agents set is_active = $2, updated_at = $3 where id = $1', [
        event.data.agentId,
        event.type === 'AgentResumed',
        at,
      ]);
      return;
    case 'AgentDeleted':
      await client.query('update rm_agents set is_active = false, is_deleted = true, updated_at = $2 where id = $1', [
        event.data.agentId,
        at,
      ]);
      return;
    case 'ConversationStarted': {
      const { conversationId, title, participants, matchId } = event.data;
      await client.query(
        `insert into rm_conversations (id, title, status, is_manual_mode, match_id, created_at, updated_at)
         values ($1, $2, 'active', false, $3, $4, $4) on conflict (id) do nothing`,
        [conversationId, title, matchId, at],
      );
      await client.query(
        `insert into rm_participants (conversation_id, agent_id, owner_id, name, type, ordinal)
         select $1, agent_id, owner_id, name, type, ordinality
         from unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) with ordinality as p(agent_id, owner_id, name, type)
         on conflict do nothing`,
        [
          conversationId,
          participants.map((p) => p.agentId),
          participants.map((p) => p.ownerId),
          participants.map((p) => p.name),
          participants.map((p) => p.type),
        ],
      );
      return;
    }
    case 'ManualModeChanged':
      await client.query('update rm_conversations set is_manual_mode = $2, updated_at = $3 where id = $1', [
        event.data.conversationId,
        event.data.isManualMode,
        at,
      ]);
      return;
    case 'MessageSent': {
      const { conversationId, messageId, fromAgentId, toAgentId, content, isAutomated } = event.data;
      await client.query(
        `insert into rm_messages (id, conversation_id, seq, from_agent_id, to_agent_id, from_agent_name, from_agent_type, content, is_automated, created_at)
         select $1, $2, $3, $4, $5, p.name, p.type, $6, $7, $8
         from rm_participants p where p.conversation_id = $2 and p.agent_id = $4
         on conflict (id) do nothing`,
        [messageId, conversationId, recorded.streamVersion, fromAgentId, toAgentId, content, isAutomated, at],
      );
      await client.query('update rm_conversations set updated_at = $2 where id = $1', [conversationId, at]);
      return;
    }
    case 'ConversationCompleted':
      await client.query(
        "update rm_conversations set status = 'completed', outcome = $2, updated_at = $3 where id = $1",
        [event.data.conversationId, event.data.outcome, at],
      );
      return;
    case 'MatchFound': {
      const { matchId, borrowerAgentId, lenderAgentId, brokerAgentId, score, explanation } = event.data;
      await client.query(
        `insert into rm_matches (match_id, borrower_agent_id, lender_agent_id, broker_agent_id, score, explanation, created_at)
         values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing`,
        [matchId, borrowerAgentId, lenderAgentId, brokerAgentId, score, JSON.stringify(explanation), at],
      );
      await client.query(
        `insert into rm_match_parties (match_id, owner_id)
         select distinct $1, owner_id from rm_agents where id = any($2::bigint[]) on conflict do nothing`,
        [matchId, [borrowerAgentId, lenderAgentId, brokerAgentId].filter((id) => id !== null)],
      );
      return;
    }
    case 'DealAgreed': {
      const d = event.data;
      await client.query(
        `insert into rm_deals (deal_id, conversation_id, borrower_agent_id, lender_agent_id, broker_agent_id, property_value,
           loan_amount, ltv, interest_rate, term_years, arrangement_fee, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict do nothing`,
        [d.dealId, d.conversationId, d.borrowerAgentId, d.lenderAgentId, d.brokerAgentId, d.propertyValue, d.loanAmount, d.ltv, d.interestRate, d.termYears, d.arrangementFee, at],
      );
      return;
    }
    case 'OfferMade':
    case 'OfferAccepted':
    case 'OfferRejected':
      await client.query('update rm_conversations set updated_at = $2 where id = $1', [event.data.conversationId, at]);
      return;
    default:
      // Events of other types (and of later versions) are not part of these read models.
      return;
  }
}
