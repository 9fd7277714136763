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

/**
 * The perspective chosen on the welcome screen, shown beside the role badge on the dashboard: borrower,
 * introducer or lender; any other value is shown as Lender. It is not a role: the firm role (Admin, Operator,
 * Auditor) is what the server checks and what the badge and the sidebar say.
 */
export function perspectiveLabel(stored: string | null): string {
  if (stored === 'borrower') return 'Borrower';
  if (stored === 'introducer') return 'Introducer';
  return 'Lender';
}
