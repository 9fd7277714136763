import { z } from 'zod';
import { REGIONS } from './read-criteria';
import { storableText, visibleText } from './text';

/**
 * Which notifications a person wants (docs/behaviour/settings.md). Written by Settings → Preferences
 * (UserPreferences changes), obeyed by the notifications read model: a kind switched off creates nothing.
 */
export const notificationPreferences = z.strictObject({
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  smsNotifications: z.boolean(),
  dealUpdates: z.boolean(),
  agentMatches: z.boolean(),
  messageAlerts: z.boolean(),
  systemAlerts: z.boolean(),
  weeklyDigest: z.boolean(),
  marketInsights: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/** What a new account starts with: every in-app kind on, the channels this product cannot send (email, SMS) off. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emailNotifications: false,
  pushNotifications: true,
  smsNotifications: false,
  dealUpdates: true,
  agentMatches: true,
  messageAlerts: true,
  systemAlerts: true,
  weeklyDigest: false,
  marketInsights: true,
};

/** The session timeouts offered, in minutes of inactivity; 30 by default. */
export const SESSION_TIMEOUTS = [15, 30, 60, 120] as const;
export const DEFAULT_SESSION_TIMEOUT = 30;
export const sessionTimeout = z.union(
  SESSION_TIMEOUTS.map((minutes) => z.literal(minutes)) as [z.ZodLiteral<15>, z.ZodLiteral<30>, z.ZodLiteral<60>, z.ZodLiteral<120>],
  {
    error: 'sessionTimeout must be 15, 30, 60 or 120 minutes',
  },
);
export type SessionTimeout = z.infer<typeof sessionTimeout>;

/** The timezones and languages offered. */
export const TIMEZONES = ['Europe/London', 'Europe/Paris', 'America/New_York'] as const;
export const LANGUAGES = ['en', 'fr', 'de', 'es'] as const;
/** The profile's role selector. */
export const PROFILE_ROLES = ['borrower', 'broker', 'lender'] as const;

const text = (field: string, max: number) =>
  storableText({ error: `${field} must be text` })
    .trim()
    .max(max, { error: `${field} is at most ${max} characters` });
/** Names and the address: no invisible control characters either (text.ts). */
const visible = (field: string, max: number) =>
  visibleText(field, { error: `${field} must be text` })
    .trim()
    .max(max, { error: `${field} is at most ${max} characters` });

/** Settings → Profile (docs/behaviour/settings.md). Personal data: sealed with the user's key before it is stored in an event. */
export const profileInput = z.strictObject({
  firstName: visible('First name', 100).min(1, { error: 'First name is required' }),
  lastName: visible('Last name', 100).min(1, { error: 'Last name is required' }),
  email: z
    .union([z.literal(''), z.email({ error: 'Email must be an email address such as ada@example.co.uk' }).max(254)])
    .optional()
    .transform((value) => value || null),
  phone: z
    .union([
      z.literal(''),
      z
        .string()
        .trim()
        .regex(/^\+?[0-9 ()-]{7,20}$/, { error: 'Phone must be a telephone number of 7 to 20 digits, spaces or + ( ) -' }),
    ])
    .optional()
    .transform((value) => value || null),
  company: visible('Company', 200)
    .optional()
    .transform((value) => value || null),
  role: z
    .enum(PROFILE_ROLES, { error: 'Role must be borrower, broker or lender' })
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  address: visible('Address', 500)
    .optional()
    .transform((value) => value || null),
  bio: text('Bio', 2000)
    .optional()
    .transform((value) => value || null),
  timezone: z.enum(TIMEZONES, { error: 'Timezone must be Europe/London, Europe/Paris or America/New_York' }).default('Europe/London'),
  language: z.enum(LANGUAGES, { error: 'Language must be en, fr, de or es' }).default('en'),
});
export type ProfileInput = z.input<typeof profileInput>;
export type Profile = z.output<typeof profileInput>;

export const profileView = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  role: z.enum(PROFILE_ROLES).nullable(),
  address: z.string().nullable(),
  bio: z.string().nullable(),
  timezone: z.enum(TIMEZONES),
  language: z.enum(LANGUAGES),
});
export type ProfileView = z.infer<typeof profileView>;

/** Settings → Preferences: which notifications are created, and after how long idle a session ends. */
export const preferencesInput = z.strictObject({
  notifications: notificationPreferences,
  sessionTimeout,
});
export type PreferencesInput = z.infer<typeof preferencesInput>;
/** The same fields as answered: not strict, so a console keeps working when the server adds one. */
export const preferencesView = z.object(preferencesInput.shape);
export type PreferencesView = z.infer<typeof preferencesView>;

/** Agent response times offered, in hours. */
export const RESPONSE_TIMES = [1, 4, 24, 48] as const;
/** The Agent defaults sample values (buyToLet as the spec writes it; criteria text says "buy-to-let"). */
export const DEFAULT_PROPERTY_TYPES = ['residential', 'buyToLet', 'commercial', 'bridging'] as const;

const poundsField = (field: string) =>
  z
    .number({ error: `${field} must be a number of pounds` })
    .int({ error: `${field} must be whole pounds` })
    .min(1000, { error: `${field} is at least £1,000` })
    .max(100_000_000, { error: `${field} is at most £100,000,000` });

/** Settings → Agent Defaults (docs/behaviour/settings.md): pre-fill Create Agent, whose criteria feed the negotiator. */
const agentDefaultsFields = z.strictObject({
  minLoanAmount: poundsField('Minimum loan amount'),
  maxLoanAmount: poundsField('Maximum loan amount'),
  preferredLTV: z
    .number({ error: 'Preferred LTV must be a number' })
    .min(1, { error: 'Preferred LTV is at least 1%' })
    .max(100, { error: 'Preferred LTV is at most 100%' }),
  preferredTerm: z
    .number({ error: 'Preferred term must be a number of years' })
    .int({ error: 'Preferred term must be whole years' })
    .min(1, { error: 'Preferred term is at least 1 year' })
    .max(40, { error: 'Preferred term is at most 40 years' }),
  propertyTypes: z
    .array(z.enum(DEFAULT_PROPERTY_TYPES, { error: 'Property types must be residential, buyToLet, commercial or bridging' }))
    .max(4),
  regions: z.array(z.enum(REGIONS, { error: 'Regions must be london, manchester, birmingham, bristol or leeds' })).max(5),
  responseTime: z.union([z.literal(1), z.literal(4), z.literal(24), z.literal(48)], {
    error: 'Response time must be 1, 4, 24 or 48 hours',
  }),
  autoNegotiate: z.boolean({ error: 'autoNegotiate must be true or false' }),
});
export const agentDefaultsInput = agentDefaultsFields.refine((d) => d.minLoanAmount <= d.maxLoanAmount, {
  error: 'Minimum loan amount must not exceed the maximum loan amount',
  path: ['minLoanAmount'],
});
export type AgentDefaults = z.infer<typeof agentDefaultsInput>;
/** The defaults in force; `saved` is false while they are the spec's samples (Create Agent is then left blank). */
export const agentDefaultsView = agentDefaultsFields.extend({ saved: z.boolean() });
export type AgentDefaultsView = z.infer<typeof agentDefaultsView>;

/** Sample defaults. */
export const DEFAULT_AGENT_DEFAULTS: AgentDefaults = {
  minLoanAmount: 50_000,
  maxLoanAmount: 500_000,
  preferredLTV: 75,
  preferredTerm: 25,
  propertyTypes: ['residential'],
  regions: ['london'],
  responseTime: 24,
  autoNegotiate: true,
};

/** Settings → Security: one signed-in session, with the device it was opened on and when it was last used. */
export const sessionView = z.object({
  id: z.string(),
  device: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  expiresAt: z.string(),
  isCurrent: z.boolean(),
});
export type SessionView = z.infer<typeof sessionView>;
export const sessionListView = z.array(sessionView);

export const sessionParams = z.object({ id: z.uuid({ error: 'Session id must be a UUID' }) });

/** Delete Account asks for the word DELETE, so a stray click deletes nothing. */
export const deleteAccountInput = z.strictObject({
  confirm: z.literal('DELETE', { error: 'Type DELETE to confirm' }),
  /**
   * The only admin of a firm with other members names the member who becomes admin in their place; without one
   * their deletion is refused (409), as any other way of leaving is (docs/decisions/departures.md).
   */
  successor: z.uuid({ error: 'successor must be the id of a member of your firm' }).optional(),
});

/**
 * Personal data as stored in an event: AES-256-GCM under the user's own key (crypto-shredding). Deleting the
 * key makes every sealed value of that user unreadable, while the event, its hash and its place in the stream
 * stay, so counterparties' history remains verifiable.
 */
export const sealed = z.object({
  alg: z.literal('A256GCM'),
  iv: z.string(),
  tag: z.string(),
  ciphertext: z.string(),
});
export type Sealed = z.infer<typeof sealed>;

/** What a session revocation or an account deletion answers: the id of what ended. */
export const endedView = z.object({ id: z.string() });
