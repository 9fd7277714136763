import {
  agentViewOf,
  conversationFirms,
  conversationViewFor,
  messageOf,
  partyAgentIds,
  type DomainEvent,
  type LiveView,
  type ServerPush,
  type Viewer,
} from '@pf/events';
import { conversationsOfPerson, type ViewIndex } from './view-index';

type WithoutPosition<T> = T extends unknown ? Omit<T, 'position' | 'previousPosition'> : never;
/** A push before the socket stamps it with its position and the previous one it sent. */
export type PushBody = WithoutPosition<ServerPush>;

/**
 * Who is told about an event, and what. Light pushes (agents, a conversation's mode or status, stats)
 * reach every socket of an entitled user so lists stay current; messages reach only the sockets
 * following that conversation (subscribe), since only a conversation's page shows them.
 */
export interface Delivery {
  /**
   * The firms told (visibility.ts decides which: an agent's firm, a conversation's or deal's firms); every
   * member's sockets get it (docs/decisions/firms-and-visibility.md).
   */
  readonly firms: readonly string[];
  /** People told about their own account (settings, notifications read), besides the firms. */
  readonly users?: readonly string[];
  /** Platform-wide screens (analytics, market): every signed-in socket, whoever's agents took part. */
  readonly everyone?: boolean;
  readonly onlyFollowersOf?: number;
  body(viewer: Pick<Viewer, 'userId' | 'firmId'>): PushBody;
}

const unique = (ids: Iterable<string | undefined>) => [...new Set([...ids].filter((id): id is string => !!id))];

function agentDeliveries(index: ViewIndex, agentId: number, statsChanged: boolean): Delivery[] {
  const agent = index.agents.get(agentId);
  if (!agent) return [];
  const owner = agent.firmId;
  const view = agentViewOf(agent);
  const deliveries: Delivery[] = [{ firms: [owner], body: () => ({ type: 'agent_updated', agentId, agent: view }) }];
  if (statsChanged) deliveries.push(statsDelivery([owner]));
  // Every agent is a lead on Matching & Leads (its name, criteria and standing).
  deliveries.push(viewsDelivery([owner], ['leads', 'matches']));
  return deliveries;
}

function conversationDelivery(index: ViewIndex, conversationId: number): Delivery[] {
  const conversation = index.conversations.get(conversationId);
  if (!conversation) return [];
  return [
    {
      firms: conversationFirms(conversation),
      body: (viewer) => ({
        type: 'conversation_updated',
        conversation: conversationViewFor(
          conversation,
          viewer,
          (id) => index.names.get(id) ?? null,
          (id) => index.firmNames.get(id) ?? null,
        ),
      }),
    },
  ];
}

function statsDelivery(firms: readonly string[]): Delivery {
  return { firms, body: () => ({ type: 'stats_changed' }) };
}

/** Tells the firms that these screens' data changed; their consoles refetch them. */
function viewsDelivery(firms: readonly string[], views: readonly LiveView[]): Delivery {
  return { firms, body: () => ({ type: 'views_changed', views: [...views] }) };
}

/** Tells one person that their own settings or notifications changed. */
function personalDelivery(userId: string, views: readonly LiveView[]): Delivery {
  return { firms: [], users: [userId], body: () => ({ type: 'views_changed', views: [...views] }) };
}

/**
 * Analytics and market figures: a firm's Analytics counts only its own agents and their conversations and deals,
 * so only the event's own firms are told. Market Intelligence combines firms only behind its threshold, and
 * telling every console of another firm's offer the moment it is made would tell them that firm acted: the
 * event's firms are told, the others read the market afresh when they open it
 * (docs/decisions/firms-and-visibility.md, "Visibility: one rule").
 */
function figuresDelivery(firms: readonly (string | undefined)[], views: readonly LiveView[]): Delivery {
  return viewsDelivery(unique(firms), views);
}

const firmOfAgent = (index: ViewIndex, agentId: number | null) => (agentId === null ? undefined : index.agents.get(agentId)?.firmId);

/**
 * The pushes an event gives, built from the index as it stands (after the event when live; the
 * latest state when replaying for a resume, so a replayed view is never older than one pushed before).
 * One event may give several pushes with the same position; they differ in type.
 */
export function deliveriesFor(index: ViewIndex, event: DomainEvent, at: string): Delivery[] {
  switch (event.type) {
    case 'AgentCreated': {
      const deliveries = agentDeliveries(index, event.data.agentId, true);
      // A borrower agent is a new lead of the funnel.
      const firm = index.agents.get(event.data.agentId)?.firmId;
      return event.data.type === 'borrower' ? [...deliveries, figuresDelivery([firm], ['analytics'])] : deliveries;
    }
    case 'AgentPaused':
    case 'AgentResumed':
    case 'AgentDeleted':
      return agentDeliveries(index, event.data.agentId, true);
    case 'AgentUpdated':
      return agentDeliveries(index, event.data.agentId, false);
    case 'ConversationStarted':
    case 'ConversationCompleted': {
      const conversation = index.conversations.get(event.data.conversationId);
      if (!conversation) return [];
      // A match's stage and a lead's status follow its conversation; a finished one moves the conversion rate,
      // and a failed one is a notification to its owners.
      const owners = conversationFirms(conversation);
      const deliveries = [...conversationDelivery(index, conversation.id), statsDelivery(owners)];
      if (event.type === 'ConversationStarted') return [...deliveries, viewsDelivery(owners, ['matches', 'leads'])];
      return [...deliveries, viewsDelivery(owners, ['matches', 'leads', 'notifications', 'analytics'])];
    }
    case 'ManualModeChanged': {
      const conversation = index.conversations.get(event.data.conversationId);
      const deliveries = conversationDelivery(index, event.data.conversationId);
      // Taken over: news to the other side's owners (the notifications read model decides whom).
      return event.data.isManualMode && conversation
        ? [...deliveries, viewsDelivery(conversationFirms(conversation), ['notifications'])]
        : deliveries;
    }
    case 'MessageSent': {
      const conversation = index.conversations.get(event.data.conversationId);
      const message = messageOf(conversation, event, at);
      // A non-participant's message is no part of the conversation: pushed to no one.
      if (!conversation || !message) return [];
      return [
        {
          firms: conversationFirms(conversation),
          onlyFollowersOf: conversation.id,
          body: () => ({ type: 'message_created', conversationId: conversation.id, message }),
        },
      ];
    }
    case 'MatchFound':
    case 'DealAgreed': {
      const owners = unique(partyAgentIds(event.data).map((id) => index.agents.get(id)?.firmId));
      if (owners.length === 0) return [];
      const views: LiveView[] = event.type === 'MatchFound' ? ['matches', 'leads', 'notifications'] : ['deals', 'matches', 'notifications'];
      return [
        statsDelivery(owners),
        viewsDelivery(owners, views),
        figuresDelivery(owners, event.type === 'MatchFound' ? ['analytics'] : ['analytics', 'market']),
      ];
    }
    case 'DealOpened':
    case 'DealStatusChanged':
    case 'DealStageChanged':
    case 'DealEdited': {
      const owners = index.dealOwners.get(event.data.dealId) ?? [];
      if (owners.length === 0) return [];
      // Documents show their deal's address; matches follow their deal's stage.
      // A deal's stages and completion move the analytics; a cancelled or completed one is a notification.
      const deliveries = [viewsDelivery(owners, ['deals', 'matches', 'leads', 'documents', 'notifications'])];
      return event.type === 'DealEdited' ? deliveries : [...deliveries, figuresDelivery(owners, ['analytics', 'market'])];
    }
    case 'DocumentUploaded':
    case 'DocumentStatusChanged':
    case 'DocumentDownloaded': {
      const owners = index.documentOwners.get(event.data.documentId) ?? [];
      // An upload by someone else or a rejection is a notification.
      const views: LiveView[] = event.type === 'DocumentDownloaded' ? ['documents'] : ['documents', 'notifications'];
      return owners.length === 0 ? [] : [viewsDelivery(owners, views)];
    }
    case 'MatchRequested':
    case 'MatchRunCompleted': {
      const owner = index.agents.get(event.data.agentId)?.firmId;
      return owner ? [viewsDelivery([owner], ['leads'])] : [];
    }
    case 'OfferMade': {
      // An offer from someone else's agent is a notification to the receiving agent's owner; every offer moves the market's rates.
      const from = firmOfAgent(index, event.data.fromAgentId);
      const to = firmOfAgent(index, event.data.toAgentId);
      const deliveries: Delivery[] = [figuresDelivery([from, to], ['analytics', 'market'])];
      if (to && from !== to) deliveries.push(viewsDelivery([to], ['notifications']));
      return deliveries;
    }
    case 'NotificationRead':
    case 'AllNotificationsRead':
      // A read is the reader's own (docs/decisions/firms-and-visibility.md): only their bell and list change.
      return [personalDelivery(event.data.userId, ['notifications'])];
    case 'OfferAccepted':
    case 'OfferRejected':
    case 'ConversationStalled':
      return [];
    case 'NotificationPreferencesChanged':
      // Written by Settings or the Notifications screen's Settings tab: both show it.
      return [personalDelivery(event.data.userId, ['profile', 'notifications'])];
    case 'UserProfileChanged':
    case 'SessionTimeoutChanged':
    case 'AgentDefaultsChanged':
    case 'ProfilePhotoChanged':
    case 'ProfilePhotoRemoved':
    case 'PasswordChanged':
    case 'TwoFactorEnabled':
    case 'TwoFactorDisabled':
    case 'RecoveryCodeUsed':
      // The user's other consoles refetch their settings.
      return [personalDelivery(event.data.userId, ['profile'])];
    case 'PaymentMethodAdded':
    case 'PaymentMethodUpdated':
    case 'InvoiceIssued':
      // The firm's Billing tab, wherever its people have it open.
      return [viewsDelivery([event.data.firmId], ['billing'])];
    case 'AccountDeleted': {
      // Their conversations as every reader now tells them (names erased), and the boards that named their agents.
      const conversations = conversationsOfPerson(index, event.data.userId);
      const firms = unique(conversations.flatMap(conversationFirms));
      const boards = viewsDelivery(firms, ['matches', 'leads', 'deals', 'documents', 'notifications']);
      return [...conversations.flatMap(({ id }) => conversationDelivery(index, id)), ...(firms.length > 0 ? [boards] : [])];
    }
    case 'FirmCreated':
    case 'FirmRenamed':
    case 'MemberInvited':
    case 'InvitationRevoked':
    case 'MemberJoined':
    case 'MemberRoleChanged':
    case 'MemberRemoved':
    case 'MemberLeft':
    case 'MembershipChanged':
    case 'NeedCommitted':
    case 'NeedReopened':
      // A need's commitment shows through its deal and its conversations' own events.
      return [];
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
}
