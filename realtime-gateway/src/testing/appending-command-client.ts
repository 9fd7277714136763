import { randomUUID } from 'node:crypto';
import { formatPosition, messageContent, streams, type DomainEvent, type Participant } from '@pf/events';
import { readCookie, SESSION_COOKIE, type CommandClient, type CommandResponse, type EventStore, type SessionStore } from '@pf/infra';

/**
 * A TEST DOUBLE of the command-service, for gateway tests that run without it: it checks the user and
 * appends the events the real service would. It is not the product's decider.
 */
export function appendingCommandClient(store: EventStore, sessions: SessionStore): CommandClient {
  let nextMessageId = 1;
  const answer = (statusCode: number, body: unknown, position: string | null = null): CommandResponse => ({
    statusCode,
    body,
    position,
  });
  return {
    async execute({ method, url, body, cookie }) {
      const user = await sessions.findUser(readCookie(cookie, SESSION_COOKIE));
      if (!user) return answer(401, { message: 'Unauthorized' });
      const route = /^\/api\/conversations\/(\d+)(\/messages|\/hand-over)?$/.exec(url);
      if (!route) return answer(404, { message: 'Not found' });
      const conversationId = Number(route[1]);
      const stream = streams.conversation(conversationId);
      const history = await store.readStream(stream);
      const first = history.find((event) => event.type === 'ConversationStarted');
      const started = first?.type === 'ConversationStarted' ? first.data : undefined;
      const firms = started?.participants.filter((participant) => (participant.firmId ?? participant.ownerId) === user.firmId) ?? [];
      const mine = firms.filter((participant) => participant.ownerId === user.id);
      if (!started || firms.length === 0) return answer(404, { message: 'Conversation not found' });
      const input = (body ?? {}) as {
        content?: unknown;
        fromAgentId?: unknown;
        isManualMode?: unknown;
        agentIds?: unknown;
        agentId?: unknown;
        toSessionId?: unknown;
      };
      let events: DomainEvent[];
      if (method === 'POST' && route[2] === '/hand-over') {
        // Not the decider's checks: the gateway tests look at who is told, not at who may hand over.
        const to = typeof input.toSessionId === 'string' ? await sessions.userOfSession(input.toSessionId) : null;
        if (!to || typeof input.agentId !== 'number') return answer(404, { message: 'No such session' });
        events = [
          {
            type: 'ManualModeChanged',
            data: {
              conversationId,
              isManualMode: true,
              agentId: input.agentId,
              agentIds: [input.agentId],
              byUserId: to.id,
              sessionId: to.sessionId,
              handedOverBy: user.id,
            },
          },
        ];
      } else if (method === 'POST' && route[2]) {
        const content = messageContent.safeParse(input.content);
        if (!content.success) return answer(400, { message: content.error.issues[0]!.message });
        const from = firms.find((participant) => participant.agentId === input.fromAgentId) ?? mine[0] ?? firms[0]!;
        const to = started.participants.find((participant) => participant.agentId !== from.agentId) ?? null;
        events = [
          {
            type: 'MessageSent',
            data: {
              conversationId,
              messageId: nextMessageId++,
              fromAgentId: from.agentId,
              toAgentId: to?.agentId ?? null,
              content: content.data,
              isAutomated: false,
            },
          },
        ];
      } else if (method === 'PATCH' && typeof input.isManualMode === 'boolean') {
        // Per side, as the real decider records it: the sides named (else the caller's own agents'), one event each.
        const named = Array.isArray(input.agentIds) ? firms.filter((p) => (input.agentIds as unknown[]).includes(p.agentId)) : mine;
        const isManualMode = input.isManualMode;
        events = named.map((participant) => ({
          type: 'ManualModeChanged',
          data: {
            conversationId,
            isManualMode,
            agentId: participant.agentId,
            agentIds: [participant.agentId],
            byUserId: user.id,
            sessionId: user.sessionId,
          },
        }));
      } else {
        return answer(400, { message: 'Unsupported command in the test double' });
      }
      const result = await store.append(
        stream,
        events.map((event) => withMetadata(event, user.id)),
        history.length - 1,
      );
      return answer(method === 'POST' && route[2] === '/messages' ? 201 : 200, { ok: true }, formatPosition(result.position));
    },
  };
}

export function withMetadata(event: DomainEvent, userId: string) {
  return {
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { actor: { kind: 'user' as const, userId }, correlationId: randomUUID(), causationId: null },
  };
}

/** Seeds agents and a conversation between them straight into the store. */
export async function seedConversation(store: EventStore, conversationId: number, participants: readonly Participant[]): Promise<void> {
  for (const participant of participants) {
    await store.append(
      streams.agent(participant.agentId),
      [
        withMetadata(
          {
            type: 'AgentCreated',
            data: { ...participant, description: '', criteria: null },
          },
          participant.ownerId,
        ),
      ],
      'no_stream',
    );
  }
  await store.append(
    streams.conversation(conversationId),
    [
      withMetadata(
        {
          type: 'ConversationStarted',
          data: { conversationId, title: `Conversation ${conversationId}`, participants: [...participants], matchId: null },
        },
        participants[0]!.ownerId,
      ),
    ],
    'no_stream',
  );
}
