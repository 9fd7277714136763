import type pg from 'pg';
import {
  DEFAULT_AGENT_DEFAULTS,
  DEFAULT_NOTIFICATION_PREFERENCES,
  type AgentDefaults,
  type AgentDefaultsView,
  type NotificationPreferences,
  type PreferencesInput,
  type Profile,
  type ProfileView,
  type SessionTimeout,
} from '@pf/events';

/**
 * The account beside its events: the users table holds the current profile, preferences and agent defaults
 * (what sign-in, the sidebar and the session check read), written together with the events that record each
 * change (user-{id} stream). Identity is not rebuilt from events: its personal data in events is sealed, and
 * is meant to become unreadable when the account is deleted.
 */
export class AccountStore {
  constructor(private readonly pool: pg.Pool) {}

  async profile(userId: string): Promise<ProfileView | null> {
    const result = await this.pool.query<{
      first_name: ProfileView['firstName'];
      last_name: ProfileView['lastName'];
      email: ProfileView['email'];
      phone: ProfileView['phone'];
      company: ProfileView['company'];
      role: ProfileView['role'];
      address: ProfileView['address'];
      bio: ProfileView['bio'];
      timezone: ProfileView['timezone'];
      language: ProfileView['language'];
    }>('select first_name, last_name, email, phone, company, role, address, bio, timezone, language from users where id = $1', [userId]);
    const row = result.rows[0];
    if (!row) return null;
    return {
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      company: row.company,
      role: row.role,
      address: row.address,
      bio: row.bio,
      timezone: row.timezone,
      language: row.language,
    };
  }

  async saveProfile(userId: string, profile: Profile): Promise<void> {
    await this.pool.query(
      `update users set first_name = $2, last_name = $3, email = $4, phone = $5, company = $6, role = $7, address = $8,
         bio = $9, timezone = $10, language = $11 where id = $1`,
      [
        userId,
        profile.firstName,
        profile.lastName,
        profile.email,
        profile.phone,
        profile.company,
        profile.role,
        profile.address,
        profile.bio,
        profile.timezone,
        profile.language,
      ],
    );
  }

  async preferences(userId: string): Promise<PreferencesInput> {
    const result = await this.pool.query<{
      notification_preferences: NotificationPreferences | null;
      session_timeout_minutes: SessionTimeout;
    }>('select notification_preferences, session_timeout_minutes from users where id = $1', [userId]);
    const row = result.rows[0];
    return {
      notifications: { ...DEFAULT_NOTIFICATION_PREFERENCES, ...(row?.notification_preferences ?? {}) },
      sessionTimeout: row?.session_timeout_minutes ?? 30,
    };
  }

  async savePreferences(userId: string, preferences: PreferencesInput): Promise<void> {
    await this.pool.query('update users set notification_preferences = $2, session_timeout_minutes = $3 where id = $1', [
      userId,
      JSON.stringify(preferences.notifications),
      preferences.sessionTimeout,
    ]);
  }

  async agentDefaults(userId: string): Promise<AgentDefaultsView> {
    const result = await this.pool.query<{ agent_defaults: AgentDefaults | null }>('select agent_defaults from users where id = $1', [
      userId,
    ]);
    const saved = result.rows[0]?.agent_defaults ?? null;
    return { ...(saved ?? DEFAULT_AGENT_DEFAULTS), saved: saved !== null };
  }

  async saveAgentDefaults(userId: string, defaults: AgentDefaults): Promise<void> {
    await this.pool.query('update users set agent_defaults = $2 where id = $1', [userId, JSON.stringify(defaults)]);
  }

  /** Display names ("Ada Lovelace") of these users; a deleted account has none. */
  async displayNames(userIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (userIds.length === 0) return names;
    const result = await this.pool.query<{ id: string; first_name: string | null; last_name: string | null }>(
      'select id, first_name, last_name from users where id = any($1::uuid[])',
      [userIds.filter((id) => /^[0-9a-f-]{36}$/i.test(id))],
    );
    for (const row of result.rows) names.set(row.id, displayName(row.first_name, row.last_name));
    return names;
  }

  /** Deletes the account: its row, sessions, devices and key (the last by cascade; see PersonalDataVault.shred). */
  async delete(userId: string): Promise<void> {
    await this.pool.query('delete from users where id = $1', [userId]);
  }
}

export function displayName(firstName: string | null, lastName: string | null): string {
  return [firstName, lastName].filter(Boolean).join(' ') || 'Unnamed operator';
}
