/** Spec §2 role selection: stored in local storage only; no registration. */
export const ROLE_STORAGE_KEY = 'user-role';
export const ROLES = ['borrower', 'introducer', 'lender'] as const;
export type Role = (typeof ROLES)[number];

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

/** Spec §2 dashboard badge: borrower, introducer or lender; any other value is shown as Lender. */
export function roleBadge(stored: string | null): string {
  if (stored === 'borrower') return 'Borrower';
  if (stored === 'introducer') return 'Introducer';
  return 'Lender';
}
