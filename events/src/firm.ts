import { z } from 'zod';
import { storableText } from './text';

/**
 * Firms and roles (docs/decisions/firms-and-visibility.md). Every person belongs to one firm; what was a
 * person's (agents, conversations, deals, documents, notifications) is their firm's. A firm's id is the user id
 * of the person who founded it, so every account from before firms is a firm of one whose id is its user's:
 * events written then (no `firmId`) belong to the firm `firmOf` reads from their owner.
 */
export const FIRM_ROLES = ['admin', 'operator', 'auditor'] as const;
export const firmRole = z.enum(FIRM_ROLES, { error: 'Role must be admin, operator or auditor' });
export type FirmRole = z.infer<typeof firmRole>;

/** What a role may do, in the words the server's 403 and the console's hints use. */
export const ROLE_LABELS: Record<FirmRole, string> = { admin: 'Admin', operator: 'Operator', auditor: 'Auditor' };

/**
 * Every write except a person's own account settings needs an operator or an admin; members and the firm's
 * name need an admin. An auditor reads everything of the firm (History, verify and export included).
 */
export function mayWrite(role: FirmRole): boolean {
  return role === 'admin' || role === 'operator';
}
export function mayManageMembers(role: FirmRole): boolean {
  return role === 'admin';
}

/** The 403 message naming the role: the API, the socket and the console say the same. */
export function roleRefusal(role: FirmRole, what: string): string {
  return role === 'auditor'
    ? `Your role is Auditor: auditors read everything of the firm but cannot ${what}`
    : `Your role is ${ROLE_LABELS[role]}: only an Admin can ${what}`;
}

/** How long an invitation link works, and its secret's shape. */
export const INVITE_TTL_HOURS = 72;

const firmName = storableText({ error: 'Firm name must be text' })
  .trim()
  .min(1, { error: 'Firm name is required' })
  .max(100, { error: 'Firm name is at most 100 characters' });

export const renameFirmInput = z.strictObject({ name: firmName });
export const inviteMemberInput = z.strictObject({ role: firmRole.default('operator') });
export const joinFirmInput = z.strictObject({
  token: z.string({ error: 'token is required' }).regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'token is not an invitation link' }),
});
export const changeMemberRoleInput = z.strictObject({ role: firmRole });
export const memberParams = z.object({ userId: z.uuid({ error: 'Member id must be a UUID' }) });

export const firmMemberView = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  role: firmRole,
  isYou: z.boolean(),
});
export type FirmMemberView = z.infer<typeof firmMemberView>;

/** GET /api/firm: the signed-in person's firm, their role, and its members (everyone in it may read these). */
export const firmView = z.object({
  id: z.string(),
  name: z.string(),
  role: firmRole,
  members: z.array(firmMemberView),
});
export type FirmView = z.infer<typeof firmView>;

/** POST /api/firm/invites: a single-use link, shown once (only its hash is stored). */
export const inviteView = z.object({
  inviteId: z.string(),
  role: firmRole,
  token: z.string(),
  /** The path to open signed in: /join/{token}. */
  link: z.string(),
  expiresAt: z.string(),
});
export type InviteView = z.infer<typeof inviteView>;

/** An invitation as its link shows it: where it stands. */
export const INVITATION_STATUSES = ['open', 'used', 'expired', 'revoked'] as const;

/**
 * GET /api/auth/invitations/:token, answered to anyone holding the link, signed in or not: whom it is from, for
 * which firm and role, whether it still works, and who this browser is (signed in as whom; else whether its
 * account asks for a password), so the join page can say what pressing its button will do.
 */
export const invitationView = z.object({
  firmName: z.string(),
  invitedBy: z.string(),
  role: firmRole,
  expiresAt: z.string(),
  status: z.enum(INVITATION_STATUSES),
  signedInAs: z.object({ name: z.string(), firmName: z.string() }).nullable(),
  browserAccount: z.enum(['none', 'open', 'protected']),
});
export type InvitationView = z.infer<typeof invitationView>;
/** The console's path of an invitation link: the only place a sign-in may be asked to lead back to (`?next=`). */
export const INVITATION_PATH = /^\/join\/[A-Za-z0-9_-]{20,100}$/;
/**
 * GET /api/login?next=: where to lead once signed in (only an INVITATION_PATH is followed; anything else is ignored).
 * `fresh=1`: a new account for this browser, whatever account it had (a shared computer whose last user protected theirs).
 */
export const loginQuery = z.object({ next: z.string().max(200).optional(), fresh: z.literal('1').optional() });
export const invitationParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, { error: 'token is not an invitation link' }),
});

/** Settings → Members: the firm's invitations not yet used, expired or revoked (admins). */
export const pendingInvitationView = z.object({
  inviteId: z.string(),
  role: firmRole,
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type PendingInvitationView = z.infer<typeof pendingInvitationView>;
export const pendingInvitationListView = z.array(pendingInvitationView);
export const inviteParams = z.object({ inviteId: z.uuid({ error: 'Invitation id must be a UUID' }) });

/** The firm a party (an agent, a participant, a deal's party) belongs to: its recorded firm, else its owner's firm of one. */
export function firmOf(party: { ownerId: string; firmId?: string | undefined | null }): string {
  return party.firmId ?? party.ownerId;
}

/** The default name of a firm of one, until its first member names it. */
export function defaultFirmName(firstName: string | null, lastName: string | null): string {
  const name = [firstName, lastName].filter(Boolean).join(' ');
  return name ? `${name}'s firm` : 'My firm';
}

const by = z.string();
/** The firm's commands (firm-{firmId}), decided in command-service/src/firm/firm.ts. */
export const firmCommand = z.discriminatedUnion('type', [
  z.object({ type: z.literal('RenameFirm'), firmId: z.string(), actorId: by, name: z.string() }),
  z.object({
    type: z.literal('InviteMember'),
    firmId: z.string(),
    actorId: by,
    inviteId: z.string(),
    role: firmRole,
    tokenHash: z.string(),
    expiresAt: z.string(),
    /** The firm's name as it stands, recorded by FirmCreated if this is the firm's first event. */
    firmName: z.string().optional(),
  }),
  z.object({ type: z.literal('JoinFirm'), firmId: z.string(), userId: by, inviteId: z.string(), tokenHash: z.string(), now: z.string() }),
  z.object({
    type: z.literal('ChangeMemberRole'),
    firmId: z.string(),
    actorId: by,
    userId: by,
    role: firmRole,
    firmName: z.string().optional(),
  }),
  z.object({ type: z.literal('RemoveMember'), firmId: z.string(), actorId: by, userId: by, firmName: z.string().optional() }),
  /** A member leaves: to join another firm (only from a firm nobody else is in), or by deleting their account. */
  z.object({
    type: z.literal('LeaveFirm'),
    firmId: z.string(),
    userId: by,
    reason: z.enum(['joined', 'deleted']),
    firmName: z.string().optional(),
  }),
  /** An admin withdraws an invitation not yet used: its link no longer works. */
  z.object({ type: z.literal('RevokeInvite'), firmId: z.string(), actorId: by, inviteId: z.string() }),
  /** A person removed from another firm comes back to their own firm of one (its id is theirs), as its admin. */
  z.object({ type: z.literal('ReturnHome'), firmId: z.string(), userId: by }),
]);
export type FirmCommand = z.infer<typeof firmCommand>;

/**
 * A person's membership (membership-{userId}), decided in command-service/src/firm/membership.ts: which firm they
 * are in, one decision at a time. `recordedFirmId` is the firm the accounts table names, which stands for a
 * person whose stream has no events yet (everyone from before it existed).
 */
export const membershipCommand = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('EnterFirm'),
    userId: by,
    firmId: z.string(),
    role: firmRole,
    inviteId: z.string(),
    recordedFirmId: z.string(),
  }),
  z.object({ type: z.literal('ExitFirm'), userId: by, firmId: z.string(), recordedFirmId: z.string() }),
  z.object({ type: z.literal('UndoEntry'), userId: by, firmId: z.string(), inviteId: z.string() }),
]);
export type MembershipCommand = z.infer<typeof membershipCommand>;
