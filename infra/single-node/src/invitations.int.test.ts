import { describe, expect, it } from 'vitest';
import type { ApiError, FirmView, InvitationView, InviteView, PendingInvitationView } from '@pf/events';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';

/**
 * Invitation links on the real single node (docs/decisions/firms-and-visibility.md): what a link tells a
 * signed-out visitor, the pending list and revoking (admins only, recorded on the firm), and /api/login leading
 * back to an invitation and nowhere else.
 */
describe('invitation links', () => {
  const node = testSingleNode({ AUTOMATION: 'off' });

  async function adminWithFirm() {
    const admin = await ApiClient.signIn(node.server.url);
    expect((await admin.put('/api/auth/profile', { firstName: 'Ada', lastName: 'Admin' })).status).toBe(200);
    expect((await admin.put('/api/firm', { name: 'Harbour Mortgages' })).status).toBe(200);
    return admin;
  }
  const invite = async (admin: ApiClient, role = 'operator') => (await admin.post<InviteView>('/api/firm/invites', { role })).body;
  /** A visitor with no cookie at all. */
  const visit = async (token: string) => {
    const response = await fetch(`${node.server.url}/api/auth/invitations/${token}`);
    return { status: response.status, body: (await response.json()) as InvitationView & ApiError };
  };

  it('tells a signed-out visitor whom it is from, for which firm and role, and whether it still works', async () => {
    const admin = await adminWithFirm();
    const link = await invite(admin, 'auditor');
    const seen = await visit(link.token);
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      firmName: 'Harbour Mortgages',
      invitedBy: 'Ada Admin',
      role: 'auditor',
      expiresAt: link.expiresAt,
      status: 'open',
      signedInAs: null,
      browserAccount: 'none',
    });
    // Signed in, it says as whom.
    const colleague = await ApiClient.signIn(node.server.url);
    const asColleague = (await colleague.get<InvitationView>(`/api/auth/invitations/${link.token}`)).body;
    expect(asColleague.signedInAs).toEqual({ name: 'Guest Operator', firmName: "Guest Operator's firm" });

    expect((await colleague.post('/api/firm/join', { token: link.token })).status).toBe(200);
    expect((await visit(link.token)).body.status).toBe('used');
    const unknown = await visit('A'.repeat(32));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('This invitation link is not valid: ask for a new one');
  });

  it("lists the firm's pending invitations to its admins only, and a revoked one's link is refused and says so", async () => {
    const admin = await adminWithFirm();
    const kept = await invite(admin);
    const revoked = await invite(admin, 'auditor');
    const pending = (await admin.get<PendingInvitationView[]>('/api/auth/firm/invites')).body;
    expect(pending.map((entry) => [entry.inviteId, entry.role, entry.invitedBy])).toEqual([
      [revoked.inviteId, 'auditor', 'Ada Admin'],
      [kept.inviteId, 'operator', 'Ada Admin'],
    ]);

    const operator = await ApiClient.signIn(node.server.url);
    expect((await operator.post<FirmView>('/api/firm/join', { token: kept.token })).body.role).toBe('operator');
    const refused = await operator.get<ApiError>('/api/auth/firm/invites');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your role is Operator: only an Admin can see the invitations');
    expect((await operator.delete(`/api/firm/invites/${revoked.inviteId}`)).status).toBe(403);

    const after = await admin.delete<PendingInvitationView[]>(`/api/firm/invites/${revoked.inviteId}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual([]);
    expect((await visit(revoked.token)).body.status).toBe('revoked');
    const stranger = await ApiClient.signIn(node.server.url);
    const join = await stranger.post<ApiError>('/api/firm/join', { token: revoked.token });
    expect(join.status).toBe(409);
    expect(join.body.message).toBe('This invitation has been withdrawn by the firm; ask for a new one');
    // A used invitation is not revoked: its member is removed instead.
    const used = await admin.delete<ApiError>(`/api/firm/invites/${kept.inviteId}`);
    expect(used.status).toBe(409);
    expect(used.body.message).toBe('This invitation has been used already: remove the member instead');
  });

  it('leads a new sign-in back to an invitation, and to the role picker for any other next', async () => {
    const login = (next: string) => fetch(`${node.server.url}/api/login?next=${encodeURIComponent(next)}`, { redirect: 'manual' });
    const token = 'Abcdefghijklmnopqrstuvwxyz012345';
    expect((await login(`/join/${token}`)).headers.get('location')).toBe(`/join/${token}`);
    for (const elsewhere of ['https://example.com/join/x', '//example.com', '/dashboard', `/join/${token}/../../evil`])
      expect((await login(elsewhere)).headers.get('location')).toBe('/auth');
  });
});
