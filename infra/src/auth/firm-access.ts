import type { FastifyRequest } from 'fastify';
import { mayManageMembers, mayWrite, roleRefusal, type Viewer } from '@pf/events';
import { Forbidden } from '../errors';
import { requireUser } from './plugin';
import type { SessionUser } from './session-store';

/**
 * Which firm and role this session's person has: the one answer every service and the gateway use
 * (docs/decisions/firms-and-visibility.md). 401 when signed out.
 */
export function sessionViewer(request: FastifyRequest): Viewer {
  return viewerOf(requireUser(request));
}

/** The same answer for a session user already resolved (the socket's connection, a job's token). */
export function viewerOf(user: Pick<SessionUser, 'id' | 'firmId' | 'role'>): Viewer {
  return { userId: user.id, firmId: user.firmId, role: user.role };
}

/** What a write is refused as, in the 403's words ("cannot create, change, take over or send"). */
export const WRITE_ACTIONS = 'create, change, take over or send';

/** An operator or admin may write; an auditor gets 403 naming their role. */
export function requireWriter(viewer: Viewer, what: string = WRITE_ACTIONS): Viewer {
  if (!mayWrite(viewer.role)) throw new Forbidden(roleRefusal(viewer.role, what));
  return viewer;
}

/** Only an admin manages members and names the firm; anyone else gets 403 naming their role. */
export function requireAdmin(viewer: Viewer, what = 'manage members'): Viewer {
  if (!mayManageMembers(viewer.role)) throw new Forbidden(roleRefusal(viewer.role, what));
  return viewer;
}
