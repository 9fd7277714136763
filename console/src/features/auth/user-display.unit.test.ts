import { describe, expect, it } from 'vitest';
import { roleBadge } from './role';
import { displayName, displayUserType, initials } from './user-display';

const user = (firstName: string | null, lastName: string | null, email: string | null, userType: string | null) => ({
  id: 'u1',
  firstName,
  lastName,
  email,
  userType,
});

describe('sidebar footer (docs/behaviour/sign-in.md)', () => {
  it('shows the name, else the email, else "User"', () => {
    expect(displayName(user('Guest', 'Operator', null, 'operator'))).toBe('Guest Operator');
    expect(displayName(user(null, null, 'amelia@example.co.uk', null))).toBe('amelia@example.co.uk');
    expect(displayName(user(null, null, null, null))).toBe('User');
    expect(displayName(undefined)).toBe('User');
  });

  it('shows initials, "U" without a name, and the capitalised user type with its fallback', () => {
    expect(initials(user('guest', 'Operator', null, null))).toBe('GO');
    expect(initials(user(null, null, 'a@b.c', null))).toBe('U');
    expect(displayUserType(user(null, null, null, 'operator'))).toBe('Operator');
    expect(displayUserType(user(null, null, null, null))).toBe('User');
  });
});

describe('role badge (docs/behaviour/sign-in.md)', () => {
  it('shows the stored role, and Lender for anything else', () => {
    expect(roleBadge('borrower')).toBe('Borrower');
    expect(roleBadge('introducer')).toBe('Introducer');
    expect(roleBadge('lender')).toBe('Lender');
    expect(roleBadge('admin')).toBe('Lender');
    expect(roleBadge(null)).toBe('Lender');
  });
});
