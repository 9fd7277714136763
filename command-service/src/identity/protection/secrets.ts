import { randomInt } from 'node:crypto';
import argon2 from 'argon2';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { RECOVERY_CODES } from '@pf/events';

/**
 * The secrets of sign-in protection (docs/decisions/sign-in-secrets.md). Passwords are hashed with argon2id
 * (the `argon2` package: OWASP's first choice for password storage), with its defaults of 64 MiB, 3 passes and
 * 4 lanes, above OWASP's minimum of 19 MiB and 2 passes; the hash string carries its own salt and parameters.
 */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

export async function passwordMatches(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps; a 160-bit secret (RFC 4226). */
const PERIOD_SECONDS = 30;
const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: 'Property Finance', label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new secret, its otpauth:// URI and that URI as a QR code (SVG, drawn inline: the page runs no extra script). */
export async function newTwoFactorSecret(label: string): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const uri = totpOf(secret, label).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, uri, qrSvg };
}

/**
 * The time step a 6-digit code belongs to, or null when it is not the code of this step or of one step either
 * side (a phone's clock a little off). The caller records the step as used, so the same code cannot be replayed.
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/** Recovery codes: 10 characters of RFC 4648 base32 each (50 bits), shown as XXXXX-XXXXX. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const code = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}
