import type { CurrentUserView } from '@pf/events';

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

/** The user type in capitalised text, falling back to "User". */
export function displayUserType(user: CurrentUserView | undefined): string {
  const type = user?.userType?.trim();
  return type ? type.charAt(0).toUpperCase() + type.slice(1) : 'User';
}
