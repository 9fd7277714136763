import { describe, expect, it } from 'vitest';
import { perspectiveLabel } from './role';
import { displayName, displayRole, initials } from './user-display';

const user = (firstName: string | null, lastName: string | null, email: string | null, role?: 'admin' | 'operator' | 'auditor') => ({
  id: 'u1',
  firstName,
  lastName,
  email,
  userType: 'operator',
  ...(role ? { role } : {}),
});

describe('sidebar footer (docs/behaviour/sign-in.md)', () => {
  it('shows the name, else the email, else "User"', () => {
    expect(displayName(user('Guest', 'Operator', null, 'admin'))).toBe('Guest Operator');
    expect(displayName(user(null, null, 'amelia@example.co.uk'))).toBe('amelia@example.co.uk');
    expect(displayName(user(null, null, null))).toBe('User');
    expect(displayName(undefined)).toBe('User');
  });

  it('shows initials, "U" without a name, and the firm role in the shared words (an admin is Admin, never Operator)', () => {
    expect(initials(user('guest', 'Operator', null))).toBe('GO');
    expect(initials(user(null, null, 'a@b.c'))).toBe('U');
    expect(displayRole(user(null, null, null, 'admin'))).toBe('Admin');
    expect(displayRole(user(null, null, null, 'auditor'))).toBe('Auditor');
    expect(displayRole(user(null, null, null, 'operator'))).toBe('Operator');
    expect(displayRole(user(null, null, null))).toBe('User');
  });
});

describe('the welcome screen’s perspective (docs/behaviour/sign-in.md)', () => {
  it('shows the stored choice, and Lender for anything else', () => {
    expect(perspectiveLabel('borrower')).toBe('Borrower');
    expect(perspectiveLabel('introducer')).toBe('Introducer');
    expect(perspectiveLabel('lender')).toBe('Lender');
    expect(perspectiveLabel('admin')).toBe('Lender');
    expect(perspectiveLabel(null)).toBe('Lender');
  });
});
