import {
  errorAnswers,
  invitationParams,
  invitationView,
  inviteParams,
  pendingInvitationListView,
  SIGNED_IN_ERRORS,
  streams,
} from '@pf/events';
import {
  DEVICE_COOKIE,
  displayName,
  FirmStore,
  NotFound,
  requireAdmin,
  sessionViewer,
  type FastifyPluginAsyncZod,
  type ServiceContext,
} from '@pf/infra';
import { handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { firmDecider } from './firm';

const ADMIN_ERRORS = [...SIGNED_IN_ERRORS, 403, 404, 409] as const;

/**
 * Settings → Members' pending invitations (admins): listed with who sent them, and revoked, which records
 * InvitationRevoked on the firm so the link stops working (docs/decisions/firms-and-visibility.md).
 */
export const inviteRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store }) => {
  const firms = new FirmStore(pool);

  app.get(
    '/api/auth/firm/invites',
    {
      schema: {
        summary: "Your firm's invitations that still work (admins)",
        response: { 200: pendingInvitationListView, ...errorAnswers(...SIGNED_IN_ERRORS, 403) },
      },
    },
    async (request) => {
      const viewer = requireAdmin(sessionViewer(request), 'see the invitations');
      return firms.pendingInvites(viewer.firmId);
    },
  );

  app.delete(
    '/api/firm/invites/:inviteId',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Revoke an invitation not yet used (admins): its link stops working',
        params: inviteParams,
        response: { 200: pendingInvitationListView, ...errorAnswers(...ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const { metadata } = signedIn(request);
      const viewer = requireAdmin(sessionViewer(request), 'revoke invitations');
      const { inviteId } = request.params;
      const handled = await handleCommand(
        store,
        streams.firm(viewer.firmId),
        firmDecider,
        { type: 'RevokeInvite', firmId: viewer.firmId, actorId: viewer.userId, inviteId },
        metadata,
      );
      await firms.revokeInvite(inviteId, viewer.firmId);
      return withPosition(reply, handled.position).send(await firms.pendingInvites(viewer.firmId));
    },
  );
};

/**
 * What an invitation link shows to whoever opens it, signed in or not (no session is needed, so a signed-out
 * visitor's join page asks nothing that answers 401): whom it is from, for which firm and role, whether it still
 * works, and who this browser is. The link's secret is the permission, as a signed document link is.
 */
export const invitationLinkRoute: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, sessions }) => {
  const firms = new FirmStore(pool);
  app.get(
    '/api/auth/invitations/:token',
    {
      schema: {
        summary: 'An invitation link: from whom, for which firm and role, and whether it still works (no sign-in needed)',
        params: invitationParams,
        response: { 200: invitationView, ...errorAnswers(400, 404) },
      },
    },
    async (request, reply) => {
      const invitation = await firms.invitation(request.params.token);
      if (!invitation) throw new NotFound('This invitation link is not valid: ask for a new one');
      const { user } = request;
      const device = user ? null : await sessions.deviceAccount(request.cookies[DEVICE_COOKIE]);
      reply.header('cache-control', 'no-store');
      return {
        ...invitation,
        signedInAs: user ? { name: displayName(user.firstName, user.lastName), firmName: user.firmName } : null,
        browserAccount: device === null ? ('none' as const) : device.protected ? ('protected' as const) : ('open' as const),
      };
    },
  );
};
