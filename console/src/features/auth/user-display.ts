import { ROLE_LABELS, type CurrentUserView } from '@pf/events';

/** Sidebar footer: first + last name, else email, else "User". */
export function displayName(user: CurrentUserView | undefined): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ').trim();
  return name || user?.email || 'User';
}

/** Initials of the name; "U" when there is no name. */
export function initials(user: CurrentUserView | undefined): string {
  const letters = [user?.firstName, user?.lastName]
    .map((part) => part?.trim().charAt(0) ?? '')
    .join('')
    .toUpperCase();
  return letters || 'U';
}

/**
 * The person's role in their firm, in the one set of words every screen uses (`ROLE_LABELS`, events/src/firm.ts):
 * the sidebar and the dashboard's badge say the same; "User" until the role is known.
 */
export function displayRole(user: CurrentUserView | undefined): string {
  return user?.role ? ROLE_LABELS[user.role] : 'User';
}
