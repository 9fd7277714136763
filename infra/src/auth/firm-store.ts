import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { FirmMemberView, FirmRole, InvitationView, PendingInvitationView } from '@pf/events';
import { inTransaction } from '../db/pool';
import { displayName } from './account-store';

export const inviteTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The firms beside their events (firm-{id}): what sessions read (a person's firm and role) and what an
 * invitation link resolves to, written with the events that record each change (docs/decisions/firms-and-visibility.md).
 */
export class FirmStore {
  constructor(private readonly pool: pg.Pool) {}

  async firm(firmId: string): Promise<{ id: string; name: string } | null> {
    const result = await this.pool.query<{ id: string; name: string }>('select id, name from firms where id = $1', [firmId]);
    return result.rows[0] ?? null;
  }

  /** Names of firms by id (the other side's firm inside a shared conversation). */
  async names(firmIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (firmIds.length === 0) return names;
    const result = await this.pool.query<{ id: string; name: string }>('select id, name from firms where id = any($1::text[])', [firmIds]);
    for (const row of result.rows) names.set(row.id, row.name);
    return names;
  }

  async members(firmId: string, youId: string): Promise<FirmMemberView[]> {
    const result = await this.pool.query<{
      id: string;
      first_name: string | null;
      last_name: string | null;
      email: string | null;
      firm_role: FirmRole;
    }>('select id, first_name, last_name, email, firm_role from users where firm_id = $1 order by created_at, id', [firmId]);
    return result.rows.map((row) => ({
      userId: row.id,
      name: displayName(row.first_name, row.last_name),
      email: row.email,
      role: row.firm_role,
      isYou: row.id === youId,
    }));
  }

  /** The firm the accounts table puts a person in; null without an account. */
  async firmOfUser(userId: string): Promise<string | null> {
    const result = await this.pool.query<{ firm_id: string }>('select firm_id from users where id = $1', [userId]);
    return result.rows[0]?.firm_id ?? null;
  }

  async rename(firmId: string, name: string): Promise<void> {
    await this.pool.query('update firms set name = $2 where id = $1', [firmId, name]);
  }

  async saveInvite(invite: {
    id: string;
    firmId: string;
    tokenHash: string;
    role: FirmRole;
    expiresAt: string;
    invitedBy: string;
  }): Promise<void> {
    await this.pool.query(
      'insert into firm_invites (id, firm_id, token_hash, role, expires_at, invited_by) values ($1, $2, $3, $4, $5, $6)',
      [invite.id, invite.firmId, invite.tokenHash, invite.role, invite.expiresAt, invite.invitedBy],
    );
  }

  /**
   * What an invitation link shows before anyone signs in: the firm, who sent it (their name now; "an admin of
   * the firm" when they have none or have gone), its role and whether it still works. Null for no such link.
   */
  async invitation(token: string): Promise<Omit<InvitationView, 'signedInAs' | 'browserAccount'> | null> {
    const result = await this.pool.query<{
      firm_name: string;
      first_name: string | null;
      last_name: string | null;
      role: FirmRole;
      expires_at: Date;
      used_by: string | null;
      revoked_at: Date | null;
    }>(
      `select f.name as firm_name, u.first_name, u.last_name, i.role, i.expires_at, i.used_by, i.revoked_at
       from firm_invites i join firms f on f.id = i.firm_id left join users u on u.id = i.invited_by
       where i.token_hash = $1`,
      [inviteTokenHash(token)],
    );
    const row = result.rows[0];
    if (!row) return null;
    const named = [row.first_name, row.last_name].filter(Boolean).join(' ');
    return {
      firmName: row.firm_name,
      invitedBy: named || `An admin of ${row.firm_name}`,
      role: row.role,
      expiresAt: row.expires_at.toISOString(),
      status: row.used_by ? 'used' : row.revoked_at ? 'revoked' : row.expires_at.getTime() <= Date.now() ? 'expired' : 'open',
    };
  }

  /** Settings → Members: the firm's invitations that still work, the newest first. */
  async pendingInvites(firmId: string): Promise<PendingInvitationView[]> {
    const result = await this.pool.query<{
      id: string;
      role: FirmRole;
      first_name: string | null;
      last_name: string | null;
      created_at: Date;
      expires_at: Date;
    }>(
      `select i.id, i.role, u.first_name, u.last_name, i.created_at, i.expires_at
       from firm_invites i left join users u on u.id = i.invited_by
       where i.firm_id = $1 and i.used_by is null and i.revoked_at is null and i.expires_at > now()
       order by i.created_at desc, i.id`,
      [firmId],
    );
    return result.rows.map((row) => ({
      inviteId: row.id,
      role: row.role,
      invitedBy: displayName(row.first_name, row.last_name),
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
    }));
  }

  async revokeInvite(inviteId: string, firmId: string): Promise<void> {
    await this.pool.query('update firm_invites set revoked_at = coalesce(revoked_at, now()) where id = $1 and firm_id = $2', [
      inviteId,
      firmId,
    ]);
  }

  /** The invitation a link's token names, used or not (the firm's decider says whether it still works). */
  async inviteByToken(token: string): Promise<{ id: string; firmId: string } | null> {
    const result = await this.pool.query<{ id: string; firm_id: string }>('select id, firm_id from firm_invites where token_hash = $1', [
      inviteTokenHash(token),
    ]);
    const row = result.rows[0];
    return row ? { id: row.id, firmId: row.firm_id } : null;
  }

  /** The person joins a firm with a role (their invitation is used). */
  async join(userId: string, firmId: string, role: FirmRole, inviteId: string): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('update users set firm_id = $2, firm_role = $3 where id = $1', [userId, firmId, role]);
      await client.query('update firm_invites set used_by = $2 where id = $1', [inviteId, userId]);
    });
  }

  async setRole(userId: string, firmId: string, role: FirmRole): Promise<void> {
    await this.pool.query('update users set firm_role = $3 where id = $1 and firm_id = $2', [userId, firmId, role]);
  }

  /** A removed member goes back to their own firm of one (its id is theirs), as its admin. */
  async sendHome(userId: string, firmId: string): Promise<void> {
    await this.pool.query(`update users set firm_id = id::text, firm_role = 'admin' where id = $1 and firm_id = $2`, [userId, firmId]);
  }
}
