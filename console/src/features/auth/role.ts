/** Role selection: stored in local storage only; no registration. */
const ROLE_STORAGE_KEY = 'user-role';
export type Role = 'borrower' | 'introducer' | 'lender';

export function readRole(): string | null {
  try {
    return window.localStorage.getItem(ROLE_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function saveRole(role: Role): void {
  window.localStorage.setItem(ROLE_STORAGE_KEY, role);
}

/** Dashboard badge: borrower, introducer or lender; any other value is shown as Lender. */
export function roleBadge(stored: string | null): string {
  if (stored === 'borrower') return 'Borrower';
  if (stored === 'introducer') return 'Introducer';
  return 'Lender';
}
