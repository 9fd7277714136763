import type { Config } from '../config';

/**
 * Who administers the installation: the one place that decides it. The platform's health and a rebuild span every
 * firm's rows and load the database they share, so a firm's own admin role (which governs that firm's members) does
 * not grant it; the accounts listed in ADMIN_USER_IDS do (none by default). An installation-wide role, when accounts
 * get one, belongs here.
 */
export function isPlatformAdmin(config: Pick<Config, 'ADMIN_USER_IDS'>, userId: string): boolean {
  return config.ADMIN_USER_IDS.includes(userId);
}
