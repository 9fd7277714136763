import { z } from 'zod';

/**
 * Sign-in protection (docs/behaviour/sign-in.md, docs/decisions/sign-in-secrets.md): a password, then two-factor
 * authentication by an authenticator app (TOTP, RFC 6238) with single-use recovery codes. The events say what
 * changed, never a secret: the password's hash, the TOTP secret and the recovery codes' hashes are kept beside
 * the account, out of the event store, its feed and its exports.
 */

/** At least 12 characters (OWASP ASVS 5.0 V6.2: at least 8, 15 recommended); at most 128, so hashing stays bounded. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
/** How many recovery codes two-factor authentication starts with. */
export const RECOVERY_CODES = 10;

const password = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(PASSWORD_MIN, { error: `${field} must be at least ${PASSWORD_MIN} characters` })
    .max(PASSWORD_MAX, { error: `${field} must be at most ${PASSWORD_MAX} characters` });

const signInEmail = z
  .email({ error: 'Email must be an email address such as ada@example.co.uk' })
  .max(254, { error: 'Email must be at most 254 characters' })
  .transform((email) => email.toLowerCase());

/** A 6-digit code from the authenticator app, or a recovery code (spaces and dashes ignored). */
export const authenticationCode = z
  .string({ error: 'Enter the code from your authenticator app' })
  .transform((code) => code.replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .min(1, { error: 'Enter the code from your authenticator app' })
      .regex(/^(\d{6}|[A-Za-z0-9]{10})$/, {
        error: 'The code is the 6 digits your authenticator app shows, or a 10-character recovery code',
      }),
  );

/**
 * Settings → Security → Change Password. The first password also names the email to sign in with (the account
 * has no other name a new browser could find it by); a change asks for the current password.
 */
export const changePasswordInput = z
  .strictObject({
    email: signInEmail.optional(),
    current: z
      .string()
      .max(PASSWORD_MAX, { error: `Current password must be at most ${PASSWORD_MAX} characters` })
      .optional(),
    password: password('New password'),
    confirm: z.string({ error: 'Confirm your new password' }),
  })
  .refine((input) => input.password === input.confirm, { error: 'The passwords do not match', path: ['confirm'] });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

export const enableTwoFactorInput = z.strictObject({ code: authenticationCode });
/** Turning two-factor off asks for a code (or a recovery code) or the password. */
export const disableTwoFactorInput = z
  .strictObject({ code: authenticationCode.optional(), password: z.string().max(PASSWORD_MAX).optional() })
  .refine((input) => input.code !== undefined || (input.password ?? '') !== '', {
    error: 'Enter a code from your authenticator app, or your password',
  });

/** Signing in to a protected account: email and password, then the code when two-factor is on. */
export const signInInput = z.strictObject({
  email: signInEmail,
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(PASSWORD_MAX),
  code: authenticationCode.optional(),
});
export type SignInInput = z.input<typeof signInInput>;

/** `code-required`: the password was right and two-factor is on; ask again with the code. */
export const signInView = z.object({ status: z.enum(['signed-in', 'code-required']) });
export type SignInView = z.infer<typeof signInView>;

/** Settings → Security: how this account signs in. `provider`: through OpenID Connect (no password here). */
export const securityView = z.object({
  signIn: z.enum(['guest', 'provider']),
  email: z.string().nullable(),
  password: z.boolean(),
  twoFactor: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type SecurityView = z.infer<typeof securityView>;

/** The first step of turning two-factor on: a new secret, as text and as the otpauth:// URI a QR code carries. */
export const twoFactorSetupView = z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() });
export type TwoFactorSetupView = z.infer<typeof twoFactorSetupView>;

/** Shown once, when two-factor is turned on; only their hashes are kept. */
export const recoveryCodesView = z.object({ codes: z.array(z.string()) });
export type RecoveryCodesView = z.infer<typeof recoveryCodesView>;

/**
 * Changes to a person's sign-in protection (user-{userId}), decided in command-service/src/identity/protection:
 * the route has checked the secret (password, code) before it asks; the decider keeps the order of things (no
 * second factor without a password, nothing on a deleted account).
 */
export const protectionCommand = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ChangePassword'), userId: z.string() }),
  z.object({ type: z.literal('EnableTwoFactor'), userId: z.string(), recoveryCodes: z.number().int() }),
  z.object({ type: z.literal('DisableTwoFactor'), userId: z.string(), confirmedWith: z.enum(['code', 'recovery-code', 'password']) }),
  z.object({ type: z.literal('UseRecoveryCode'), userId: z.string(), remaining: z.number().int() }),
]);
export type ProtectionCommand = z.infer<typeof protectionCommand>;
