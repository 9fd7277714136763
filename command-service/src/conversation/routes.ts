import {
  conversationView,
  conversationViewFor,
  describeOffer,
  evolveConversation,
  type Conversation,
  errorAnswers,
  handOverInput,
  idParams,
  mayWrite,
  makeOfferInput,
  messageView,
  offerMadeView,
  patchConversationInput,
  sendMessageInput,
  SIGNED_IN_ERRORS,
  streams,
  writeHeaders,
  type ConversationView,
  type MessageView,
} from '@pf/events';
import {
  AccountStore,
  displayName,
  NotFound,
  viewerOf,
  type EventStore,
  type FastifyPluginAsyncZod,
  type ServiceContext,
  type SessionUser,
} from '@pf/infra';
import { handleCommand, type StoredFact } from '../handle-command';
import { answered, expectedVersion, signedIn } from '../http-helpers';
import { nextId } from '../ids';
import { streamCacheOf } from '../stream-cache';
import { conversationDecider } from './conversation';
import { needOfConversation } from '../need/read-need';
import { messageReadingOf } from './message-reading';
import { randomUUID } from 'node:crypto';

/**
 * The conversation as it stands after a switch, folded with the shared view (so "since" is the takeover's
 * recorded time), with the names of the people in control: from the stream as the command left it, or, when
 * the store did not say when it recorded the switch, the stream read again (through the command side's cache).
 */
async function currentView(
  store: EventStore,
  accounts: AccountStore,
  conversationId: number,
  user: SessionUser,
  history: readonly StoredFact[] | null,
): Promise<ConversationView> {
  const stream = streams.conversation(conversationId);
  const cache = streamCacheOf(store);
  const conversation = cache.fold<Conversation | null>(
    stream,
    history ?? (await cache.read(stream)),
    evolveConversation,
    null,
    (folded, fact) => evolveConversation(folded, fact, fact.recordedAt.toISOString()),
  );
  if (!conversation) throw new Error('A conversation view needs a conversation');
  // The signed-in person's own name comes with their session; only other people's are looked up.
  const others = conversation.manualSides.flatMap((side) => (side.byUserId && side.byUserId !== user.id ? [side.byUserId] : []));
  const names = await accounts.displayNames(others);
  names.set(user.id, displayName(user.firstName, user.lastName));
  return conversationViewFor(conversation, viewerOf(user), (id) => names.get(id) ?? null);
}

/** The body of POST /api/conversations/:id/messages: the socket's send_message without the id in the path. */
const messageBody = sendMessageInput.omit({ conversationId: true });
const WRITE_ERRORS = [...SIGNED_IN_ERRORS, 404, 409, 412] as const;

export const conversationRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, context) => {
  const { pool, store, sessions } = context;
  const accounts = new AccountStore(pool);
  app.patch(
    '/api/conversations/:id',
    {
      schema: {
        summary: 'Take over your side of a conversation (manual mode) or hand it back to your agent',
        params: idParams('Conversation'),
        headers: writeHeaders,
        body: patchConversationInput,
        response: { 200: conversationView, ...errorAnswers(...WRITE_ERRORS, 403) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const conversationId = request.params.id;
      const { isManualMode, agentId, agentIds } = request.body;
      const handled = await handleCommand(
        store,
        streams.conversation(conversationId),
        conversationDecider,
        {
          type: 'SetManualMode',
          conversationId,
          actorId: user.id,
          actorFirmId: user.firmId,
          sessionId: user.sessionId,
          isManualMode,
          ...(agentId ? { agentId } : {}),
          ...(agentIds ? { agentIds } : {}),
        },
        metadata,
        expectedVersion(request.headers),
      );
      return answered(reply, handled).send(await currentView(store, accounts, conversationId, user, handled.history));
    },
  );

  /**
   * The holder of a side gives it to the session that asked for it (docs/decisions/per-side-control.md): the
   * decider checks that the caller holds it here and that the asker is of the side's firm and may write.
   */
  app.post(
    '/api/conversations/:id/hand-over',
    {
      schema: {
        summary: 'Hand a side you hold over to the colleague (or your other session) who asked for it',
        params: idParams('Conversation'),
        headers: writeHeaders,
        body: handOverInput,
        response: { 200: conversationView, ...errorAnswers(...WRITE_ERRORS, 403) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const conversationId = request.params.id;
      const { agentId, toSessionId } = request.body;
      const asker = await sessions.userOfSession(toSessionId);
      if (!asker) throw new NotFound('The session that asked for control has ended: they can ask again from a session in force');
      const handled = await handleCommand(
        store,
        streams.conversation(conversationId),
        conversationDecider,
        {
          type: 'HandOverSide',
          conversationId,
          agentId,
          actorId: user.id,
          actorFirmId: user.firmId,
          sessionId: user.sessionId,
          to: { userId: asker.id, firmId: asker.firmId, sessionId: asker.sessionId, mayWrite: mayWrite(asker.role) },
        },
        metadata,
        expectedVersion(request.headers),
      );
      return answered(reply, handled).send(await currentView(store, accounts, conversationId, user, handled.history));
    },
  );

  /** The command behind the socket's send_message: the server decides which of the user's agents speaks. */
  app.post(
    '/api/conversations/:id/messages',
    {
      schema: {
        summary: 'Speak as your own agent on a side you have taken over (from the session that took it)',
        params: idParams('Conversation'),
        headers: writeHeaders,
        body: messageBody,
        response: { 201: messageView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const conversationId = request.params.id;
      const input = request.body;
      const messageId = await nextId(pool, 'message_ids');
      const handled = await handleCommand(
        store,
        streams.conversation(conversationId),
        conversationDecider,
        {
          type: 'SendMessage',
          conversationId,
          messageId,
          speaker: { kind: 'user', userId: user.id, firmId: user.firmId, sessionId: user.sessionId, preferredAgentId: input.fromAgentId },
          content: input.content,
          reading: await messageReadingOf(context, conversationId),
        },
        metadata,
        expectedVersion(request.headers),
      );
      const { events, state } = handled;
      const sent = events[0];
      if (sent?.type !== 'MessageSent' || state.status === 'none') throw new Error('A message was expected');
      const sender = state.participants.find((p) => p.agentId === sent.data.fromAgentId)!;
      const message: MessageView = {
        id: sent.data.messageId,
        conversationId,
        fromAgentId: sent.data.fromAgentId,
        toAgentId: sent.data.toAgentId,
        fromAgentName: sender.name,
        fromAgentType: sender.type,
        content: sent.data.content,
        isAutomated: sent.data.isAutomated,
        createdAt: new Date().toISOString(),
      };
      return answered(reply, handled).status(201).send(message);
    },
  );

  /**
   * The structured Make offer: the side the person holds offers exactly these figures, decided by the
   * conversation's decider against the borrower's need (refused, naming the deal, once it is committed elsewhere).
   * The thread says what was recorded; the other side's agent answers it like any offer.
   */
  app.post(
    '/api/conversations/:id/offers',
    {
      schema: {
        summary: 'Make an offer (loan, rate, term, fee) on the side you have taken over',
        params: idParams('Conversation'),
        headers: writeHeaders,
        body: makeOfferInput,
        response: { 201: offerMadeView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const conversationId = request.params.id;
      const { fromAgentId, ...terms } = request.body;
      const messageId = await nextId(pool, 'message_ids');
      const handled = await handleCommand(
        store,
        streams.conversation(conversationId),
        conversationDecider,
        {
          type: 'MakeOffer',
          conversationId,
          offerId: randomUUID(),
          speaker: {
            kind: 'user',
            userId: user.id,
            firmId: user.firmId,
            sessionId: user.sessionId,
            ...(fromAgentId ? { preferredAgentId: fromAgentId } : {}),
          },
          terms,
          need: await needOfConversation(store, conversationId),
          note: { messageId, content: `Offer made: ${describeOffer(terms)}` },
        },
        metadata,
        expectedVersion(request.headers),
      );
      const made = handled.events.find((event) => event.type === 'OfferMade');
      if (made?.type !== 'OfferMade') throw new Error('An offer was expected');
      const { offerId, round, fromAgentId: from, toAgentId } = made.data;
      return answered(reply, handled).status(201).send({ offerId, round, fromAgentId: from, toAgentId, terms: made.data.terms });
    },
  );
};
