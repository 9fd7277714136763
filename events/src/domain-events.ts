import { z } from 'zod';
import { agentType, criteria, responseTimeHours } from './agent';
import { borrowerNeeds } from './products/needs';
import { productRange } from './products/product';
import { conversationOutcome, participant } from './conversation';
import { concessionStrategy, loanTerms, recordedMatchExplanation } from './negotiation';
import { moveReason, offeredProduct } from './offers/offer';
import { agreedDealTerms, dealEdited, dealOpened, dealStageChanged, dealStatusChanged } from './deal';
import { documentDownloaded, documentStatusChanged, documentUploaded } from './document';
import { matchRequested, matchRunCompleted } from './matching';
import { agentDefaultsInput, notificationPreferences, sealed, sessionTimeout } from './user';
import { firmRole } from './firm';
import { invoiceIssued, paymentMethodAdded, paymentMethodUpdated } from './billing';

const id = z.number().int().positive();

function event<T extends string, D extends z.ZodRawShape>(type: T, data: D) {
  return z.object({ type: z.literal(type), data: z.object(data) });
}

export const agentCreated = event('AgentCreated', {
  agentId: id,
  ownerId: z.string(),
  /** The firm it belongs to (its owner's when created); absent on events from before firms: the owner's firm of one. */
  firmId: z.string().optional(),
  name: z.string(),
  type: agentType,
  description: z.string(),
  /** Created by Seed Demo Data: it meets only demo agents of its own firm (the matcher's sandbox rule). */
  isDemo: z.literal(true).optional(),
  criteria: criteria.nullable(),
  strategy: concessionStrategy.optional(),
  /** Recorded only when false (auto-negotiate off): its conversations open with its owner's side taken over. */
  autoNegotiate: z.literal(false).optional(),
  /** Hours its owner may leave the other side unanswered while holding its side; absent on older events. */
  responseTime: responseTimeHours.optional(),
  /** A lender's product range, a borrower's needs (docs/behaviour/products.md); absent on older events. */
  products: productRange.optional(),
  needs: borrowerNeeds.optional(),
});
export const agentUpdated = event('AgentUpdated', {
  agentId: id,
  name: z.string(),
  description: z.string(),
  criteria: criteria.nullable(),
  strategy: concessionStrategy.optional(),
  /** The range and needs after the change (null: removed); absent on older events: unchanged. */
  products: productRange.nullable().optional(),
  needs: borrowerNeeds.nullable().optional(),
});
export const agentPaused = event('AgentPaused', { agentId: id });
export const agentResumed = event('AgentResumed', { agentId: id });
export const agentDeleted = event('AgentDeleted', { agentId: id });

export const conversationStarted = event('ConversationStarted', {
  conversationId: id,
  title: z.string(),
  participants: z.array(participant).min(2),
  matchId: z.string().nullable(),
});
/**
 * A takeover (isManualMode true), hand-over or hand-back of one side of a conversation: one participant's agent
 * falls silent or speaks again; every other side is untouched (docs/decisions/per-side-control.md). Carries who
 * holds it after the event and from which session, so the conversation can say "taken over by … for 4 min" and
 * the history can replay it (the time is the event's). Three shapes were recorded, each read as it was meant
 * (`agentsSwitched` in views/conversations.ts): `agentId` (a side is one participant), `ownerId` (before that: the
 * agents of one owner), neither (before control was per side: every side).
 */
export const manualModeChanged = event('ManualModeChanged', {
  conversationId: id,
  isManualMode: z.boolean(),
  /** The side: the participant whose agent is taken over, handed over or handed back. */
  agentId: id.optional(),
  /** The side of older events: the owner whose agents were taken over or handed back. */
  ownerId: z.string().optional(),
  /** The agents switched (the side's one agent; in older events, that owner's agents in this conversation). */
  agentIds: z.array(id).optional(),
  /** The person who holds the side after a takeover or hand-over (who switched it, on a hand-back), and their session. */
  byUserId: z.string().optional(),
  sessionId: z.string().optional(),
  /** A hand-over: the person who held the side and gave it to byUserId at their request. */
  handedOverBy: z.string().optional(),
});
export const messageSent = event('MessageSent', {
  conversationId: id,
  messageId: id,
  fromAgentId: id,
  toAgentId: id.nullable(),
  content: z.string(),
  isAutomated: z.boolean(),
  /**
   * The platform's note on how a person's message was read ("Read as an offer: …", "Read as chat"), shown in the
   * thread under that side; not the agent speaking, so it answers nobody and breaks no silence.
   */
  reading: z.literal(true).optional(),
});
export const conversationCompleted = event('ConversationCompleted', {
  conversationId: id,
  outcome: conversationOutcome,
  reason: z.string(),
});

/** The automated agents could not make their move for a while (the reason says why); they keep trying. */
export const conversationStalled = event('ConversationStalled', {
  conversationId: id,
  /** Whose move it was, when the engine could tell. */
  agentId: id.nullable(),
  reason: z.string(),
});

export const offerMade = event('OfferMade', {
  conversationId: id,
  offerId: z.string(),
  round: z.number().int().nonnegative(),
  fromAgentId: id,
  toAgentId: id,
  terms: loanTerms,
  /**
   * Made by the person holding the side (Make offer, or their typed message read as an offer), not its agent: after a
   * hand-back the agent continues from it and never offers its side less (docs/behaviour/negotiation.md). Absent: the agent's.
   */
  byPerson: z.literal(true).optional(),
  /** The product these are terms of, as the lender's range stood (docs/behaviour/offers.md); absent before products. */
  product: offeredProduct.optional(),
  /** An automated move's rule and the figures it used; absent for a person's offer and before reasons were recorded. */
  reason: moveReason.optional(),
});
export const offerAccepted = event('OfferAccepted', {
  conversationId: id,
  offerId: z.string(),
  byAgentId: id,
  terms: loanTerms,
  /** An automated acceptance's rule and figures (the product is the accepted offer's). */
  reason: moveReason.optional(),
});
export const offerRejected = event('OfferRejected', {
  conversationId: id,
  offerId: z.string(),
  byAgentId: id,
});

export const matchFound = event('MatchFound', {
  matchId: z.string(),
  borrowerAgentId: id,
  lenderAgentId: id,
  brokerAgentId: id.nullable(),
  score: z.number().min(0).max(100),
  explanation: recordedMatchExplanation,
});

export const dealAgreed = event('DealAgreed', {
  dealId: z.string(),
  conversationId: id,
  borrowerAgentId: id,
  lenderAgentId: id,
  brokerAgentId: id.nullable(),
  ...agreedDealTerms,
  /** A deal a broker introduced: the lender's procuration fee to the broker, pounds (docs/behaviour/products.md); absent before products. */
  procurationFee: z.number().int().nonnegative().optional(),
  /** The product agreed (docs/behaviour/offers.md); absent before products and for deals made by hand. */
  product: offeredProduct.optional(),
});

/**
 * A borrower's need committed to one agreement (docs/decisions/one-commitment-per-need.md): appended to the
 * need's own stream (`need-{borrowerAgentId}`) at its expected version before the acceptance is recorded, so two
 * conversations agreeing in the same instant cannot both win. While it stands, the borrower negotiates nowhere else.
 */
export const needCommitted = event('NeedCommitted', {
  borrowerAgentId: id,
  /**
   * Named so, not `conversationId`: this is the need's stream, not the conversation's (readers route on that key).
   * Null for a deal made by hand (New Deal), which commits the need as an agreement does.
   */
  agreedInConversationId: id.nullable(),
  dealId: z.string(),
  lenderAgentId: id,
  lenderName: z.string(),
});
/** The need is open again: its operator edited it or asked for another lender, the deal was cancelled, or the acceptance it was held for was never recorded. */
export const needReopened = event('NeedReopened', {
  borrowerAgentId: id,
  reason: z.string(),
});

/** Settings → Profile: the profile sealed with the user's key (personal data; see `sealed`). */
export const userProfileChanged = event('UserProfileChanged', { userId: z.string(), profile: sealed });
/** Settings → Preferences: the notification kinds the user wants (the notifications read model obeys them). */
export const notificationPreferencesChanged = event('NotificationPreferencesChanged', {
  userId: z.string(),
  preferences: notificationPreferences,
});
export const sessionTimeoutChanged = event('SessionTimeoutChanged', { userId: z.string(), minutes: sessionTimeout });
export const agentDefaultsChanged = event('AgentDefaultsChanged', { userId: z.string(), defaults: agentDefaultsInput });
/**
 * Change Photo: the resized photo's id and SHA-256 (docs/behaviour/settings.md, "Profile photo"); its bytes stay
 * beside the account (`profile_photos`) and go with it when the account is deleted.
 */
export const profilePhotoChanged = event('ProfilePhotoChanged', {
  userId: z.string(),
  photoId: z.uuid(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  contentType: z.literal('image/webp'),
  size: z.number().int().nonnegative(),
});
export const profilePhotoRemoved = event('ProfilePhotoRemoved', { userId: z.string(), photoId: z.uuid() });
/** Delete Account: read models drop the user; their key is deleted, so their sealed data is unreadable. */
export const accountDeleted = event('AccountDeleted', { userId: z.string() });
/**
 * Sign-in protection (events/src/protection.ts): what changed, never a secret (docs/decisions/sign-in-secrets.md).
 * `first`: the account had no password before, so from now on a new sign-in asks for one.
 */
export const passwordChanged = event('PasswordChanged', { userId: z.string(), first: z.boolean() });
export const twoFactorEnabled = event('TwoFactorEnabled', { userId: z.string(), recoveryCodes: z.number().int() });
export const twoFactorDisabled = event('TwoFactorDisabled', {
  userId: z.string(),
  confirmedWith: z.enum(['code', 'recovery-code', 'password']),
});
/** A recovery code was spent (each works once): how many are left. */
export const recoveryCodeUsed = event('RecoveryCodeUsed', { userId: z.string(), remaining: z.number().int() });
/**
 * A person read one of their firm's notifications: for themselves only, as reading is each person's
 * (docs/decisions/firms-and-visibility.md). `firmId` is the reader's firm; absent on events from before firms: the
 * reader's firm of one.
 */
export const notificationRead = event('NotificationRead', {
  userId: z.string(),
  firmId: z.string().optional(),
  notificationId: z.string(),
});
/** Mark All Read: every notification of the person's firm when this was recorded, read by that person only. */
export const allNotificationsRead = event('AllNotificationsRead', { userId: z.string(), firmId: z.string().optional() });

/**
 * Firms (firm-{firmId}; docs/decisions/firms-and-visibility.md). A firm with no events is the firm of one its
 * founder (whose user id is the firm's id) has had since before firms; its first change records FirmCreated.
 */
export const firmCreated = event('FirmCreated', { firmId: z.string(), name: z.string(), founderId: z.string() });
export const firmRenamed = event('FirmRenamed', { firmId: z.string(), name: z.string() });
/** An invitation: only the SHA-256 of its secret is recorded; it works once, until expiresAt. */
export const memberInvited = event('MemberInvited', {
  firmId: z.string(),
  inviteId: z.string(),
  role: firmRole,
  tokenHash: z.string(),
  expiresAt: z.string(),
  invitedBy: z.string(),
});
/** An admin withdrew an invitation before it was used: its link no longer works. */
export const invitationRevoked = event('InvitationRevoked', { firmId: z.string(), inviteId: z.string(), byUserId: z.string() });
export const memberJoined = event('MemberJoined', {
  firmId: z.string(),
  userId: z.string(),
  role: firmRole,
  inviteId: z.string().nullable(),
});
export const memberRoleChanged = event('MemberRoleChanged', { firmId: z.string(), userId: z.string(), role: firmRole, from: firmRole });
export const memberRemoved = event('MemberRemoved', { firmId: z.string(), userId: z.string(), byUserId: z.string() });
/** A member left of their own accord: to join another firm, or by deleting their account (docs/decisions/departures.md). */
export const memberLeft = event('MemberLeft', { firmId: z.string(), userId: z.string(), reason: z.enum(['joined', 'deleted']) });
/**
 * The person's own membership stream (membership-{userId}): which firm they are in, one serialised decision per
 * person, so two invitations accepted at once cannot both stand (docs/decisions/departures.md). `undone`: a join
 * whose firm refused it after this was recorded goes back.
 */
export const membershipChanged = event('MembershipChanged', {
  userId: z.string(),
  firmId: z.string(),
  fromFirmId: z.string(),
  role: firmRole,
  inviteId: z.string().nullable(),
  reason: z.enum(['joined', 'removed', 'undone']),
});

/** The events of a conversation's stream: those an automated agent's turn may record in it. */
const conversationEvents = [
  conversationStarted,
  manualModeChanged,
  messageSent,
  conversationCompleted,
  conversationStalled,
  offerMade,
  offerAccepted,
  offerRejected,
  dealAgreed,
] as const;
export const conversationEvent = z.discriminatedUnion('type', conversationEvents);
export type ConversationEvent = z.infer<typeof conversationEvent>;

export const domainEvent = z.discriminatedUnion('type', [
  agentCreated,
  agentUpdated,
  agentPaused,
  agentResumed,
  agentDeleted,
  ...conversationEvents,
  matchFound,
  dealOpened,
  dealStatusChanged,
  dealStageChanged,
  dealEdited,
  documentUploaded,
  documentStatusChanged,
  documentDownloaded,
  matchRequested,
  matchRunCompleted,
  userProfileChanged,
  notificationPreferencesChanged,
  sessionTimeoutChanged,
  agentDefaultsChanged,
  profilePhotoChanged,
  profilePhotoRemoved,
  paymentMethodAdded,
  paymentMethodUpdated,
  invoiceIssued,
  accountDeleted,
  passwordChanged,
  twoFactorEnabled,
  twoFactorDisabled,
  recoveryCodeUsed,
  notificationRead,
  allNotificationsRead,
  firmCreated,
  firmRenamed,
  memberInvited,
  invitationRevoked,
  memberJoined,
  memberRoleChanged,
  memberRemoved,
  memberLeft,
  membershipChanged,
  needCommitted,
  needReopened,
]);
export type DomainEvent = z.infer<typeof domainEvent>;
export type DomainEventType = DomainEvent['type'];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

/** Stream names: one stream per aggregate instance. */
export const streams = {
  agent: (agentId: number) => `agent-${agentId}`,
  conversation: (conversationId: number) => `conversation-${conversationId}`,
  match: (matchId: string) => `match-${matchId}`,
  deal: (dealId: string) => `deal-${dealId}`,
  document: (documentId: string) => `document-${documentId}`,
  matchRun: (requestId: string) => `match-run-${requestId}`,
  user: (userId: string) => `user-${userId}`,
  firm: (firmId: string) => `firm-${firmId}`,
  need: (borrowerAgentId: number) => `need-${borrowerAgentId}`,
  membership: (userId: string) => `membership-${userId}`,
  billing: (firmId: string) => `billing-${firmId}`,
} as const;
