import { randomBytes, randomUUID } from 'node:crypto';
import {
  changeMemberRoleInput,
  errorAnswers,
  firmView,
  INVITE_TTL_HOURS,
  inviteMemberInput,
  inviteView,
  joinFirmInput,
  memberParams,
  renameFirmInput,
  SIGNED_IN_ERRORS,
  streams,
  type FirmView,
} from '@pf/events';
import {
  FirmStore,
  inviteTokenHash,
  NotFound,
  requireAdmin,
  sessionViewer,
  type FastifyPluginAsyncZod,
  type ServiceContext,
  type SessionUser,
} from '@pf/infra';
import { handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { firmDecider } from './firm';
import { joinFirm, removeMember } from './moves';

const ADMIN_ERRORS = [...SIGNED_IN_ERRORS, 403, 404, 409] as const;

/**
 * Settings → Members: the signed-in person's firm, its members and their roles; an admin names the firm,
 * invites with a single-use link that expires, changes roles and removes members (whose sessions end at once).
 * Each change is an event on firm-{id}, then applied to the tables sessions read (docs/decisions/firms-and-visibility.md);
 * joining and removal are decided on the person's own membership stream too (moves.ts, docs/decisions/departures.md).
 */
export const firmRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, sessions }) => {
  const firms = new FirmStore(pool);

  const viewOf = async (user: SessionUser, firmId = user.firmId, role = user.role): Promise<FirmView> => {
    const firm = await firms.firm(firmId);
    if (!firm) throw new NotFound('Your firm no longer exists');
    return { id: firm.id, name: firm.name, role, members: await firms.members(firmId, user.id) };
  };

  app.get(
    '/api/auth/firm',
    {
      schema: {
        summary: 'Your firm, your role in it and its members (served beside the signed-in user)',
        response: { 200: firmView, ...errorAnswers(...SIGNED_IN_ERRORS) },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      return viewOf(user);
    },
  );

  app.put(
    '/api/firm',
    {
      config: { roles: 'anyone-signed-in' },
      schema: { summary: 'Name your firm (admins)', body: renameFirmInput, response: { 200: firmView, ...errorAnswers(...ADMIN_ERRORS) } },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const viewer = requireAdmin(sessionViewer(request), 'name the firm');
      const handled = await handleCommand(
        store,
        streams.firm(viewer.firmId),
        firmDecider,
        { type: 'RenameFirm', firmId: viewer.firmId, actorId: viewer.userId, name: request.body.name },
        metadata,
      );
      await firms.rename(viewer.firmId, request.body.name);
      sessions.forgetFirm(viewer.firmId);
      return withPosition(reply, handled.position).send(await viewOf(user));
    },
  );

  app.post(
    '/api/firm/invites',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Invite a colleague: a single-use link that expires (admins)',
        body: inviteMemberInput,
        response: { 201: inviteView, ...errorAnswers(...ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const viewer = requireAdmin(sessionViewer(request), 'invite members');
      const token = randomBytes(24).toString('base64url');
      const inviteId = randomUUID();
      const expiresAt = new Date(Date.now() + INVITE_TTL_HOURS * 3_600_000).toISOString();
      const tokenHash = inviteTokenHash(token);
      const { role } = request.body;
      const handled = await handleCommand(
        store,
        streams.firm(viewer.firmId),
        firmDecider,
        {
          type: 'InviteMember',
          firmId: viewer.firmId,
          actorId: viewer.userId,
          inviteId,
          role,
          tokenHash,
          expiresAt,
          firmName: user.firmName,
        },
        metadata,
      );
      await firms.saveInvite({ id: inviteId, firmId: viewer.firmId, tokenHash, role, expiresAt, invitedBy: viewer.userId });
      return withPosition(reply, handled.position)
        .status(201)
        .send({ inviteId, role, token, link: `/join/${token}`, expiresAt });
    },
  );

  app.post(
    '/api/firm/join',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Join the firm an invitation link names',
        body: joinFirmInput,
        response: { 200: firmView, ...errorAnswers(...SIGNED_IN_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const invite = await firms.inviteByToken(request.body.token);
      if (!invite) throw new NotFound('This invitation link is not valid');
      const { role, position } = await joinFirm(
        { pool, store, sessions },
        user,
        { ...invite, tokenHash: inviteTokenHash(request.body.token) },
        metadata,
      );
      return withPosition(reply, position).send(await viewOf(user, invite.firmId, role));
    },
  );

  app.put(
    '/api/firm/members/:userId',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: "Change a member's role (admins)",
        params: memberParams,
        body: changeMemberRoleInput,
        response: { 200: firmView, ...errorAnswers(...ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const viewer = requireAdmin(sessionViewer(request), 'change roles');
      const { userId } = request.params;
      const handled = await handleCommand(
        store,
        streams.firm(viewer.firmId),
        firmDecider,
        {
          type: 'ChangeMemberRole',
          firmId: viewer.firmId,
          actorId: viewer.userId,
          userId,
          role: request.body.role,
          firmName: user.firmName,
        },
        metadata,
      );
      await firms.setRole(userId, viewer.firmId, request.body.role);
      sessions.forgetUser(userId);
      const you = userId === user.id ? request.body.role : user.role;
      return withPosition(reply, handled.position).send(await viewOf(user, user.firmId, you));
    },
  );

  app.delete(
    '/api/firm/members/:userId',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Remove a member (admins): their sessions end at once',
        params: memberParams,
        response: { 200: firmView, ...errorAnswers(...ADMIN_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const viewer = requireAdmin(sessionViewer(request), 'remove members');
      const position = await removeMember({ pool, store, sessions }, { ...user, firmId: viewer.firmId }, request.params.userId, metadata);
      return withPosition(reply, position).send(await viewOf(user));
    },
  );
};
