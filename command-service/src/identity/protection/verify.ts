import { Invalid, SignInThrottle, Unauthenticated, type Protection, type ProtectionStore } from '@pf/infra';
import { hashPassword, passwordMatches, totpStep } from './secrets';

let dummyHash: Promise<string> | undefined;

/** How a second factor was given: a code of the app, or a recovery code (and how many of those are left). */
export type SecondFactor = { kind: 'code' } | { kind: 'recovery-code'; remaining: number };

/**
 * Checks a password or a code against an account's secrets, counting every wrong one (per account and per client
 * address) and refusing with 429 once too many were wrong (infra's SignInThrottle). `signedIn`: asked in Settings,
 * where a wrong answer is a 400 (a 401 would say the session had ended); at sign-in it is a 401.
 */
export class Verifier {
  constructor(
    private readonly protections: ProtectionStore,
    private readonly throttle: SignInThrottle,
  ) {}

  private refuse(signedIn: boolean, message: string): never {
    throw signedIn ? new Invalid(message) : new Unauthenticated(message);
  }

  async password(protection: Protection, password: string, client: string, signedIn: boolean, message: string): Promise<void> {
    await this.throttle.check(protection.userId, client);
    if (await passwordMatches(protection.passwordHash, password)) return;
    await this.throttle.fail(protection.userId, client);
    this.refuse(signedIn, message);
  }

  /** A 6-digit code of the secret in force (each step once), else a recovery code (each once). */
  async secondFactor(protection: Protection, code: string, client: string, signedIn: boolean): Promise<SecondFactor> {
    await this.throttle.check(protection.userId, client);
    const secret = protection.totpSecret;
    if (secret !== null) {
      const step = totpStep(secret, code);
      if (step !== null && (await this.protections.useTotpStep(protection.userId, step))) return { kind: 'code' };
      if (step === null && code.length === 10) {
        const remaining = await this.protections.useRecoveryCode(protection.userId, code);
        if (remaining !== null) return { kind: 'recovery-code', remaining };
      }
    }
    await this.throttle.fail(protection.userId, client);
    this.refuse(
      signedIn,
      'That code is not right: enter the 6-digit code your authenticator app shows now, or one of your recovery codes. A code works once',
    );
  }

  /**
   * An attempt at an email no protected account has: counted against the client address only, and as slow as a
   * wrong password (a hash is checked all the same), so the answer's timing does not tell which emails exist.
   */
  async unknownAccount(client: string, password: string): Promise<never> {
    await this.throttle.check(null, client);
    dummyHash ??= hashPassword('not the password of any account');
    await passwordMatches(await dummyHash, password);
    await this.throttle.fail(null, client);
    throw new Unauthenticated('The email or password is not right');
  }

  async succeeded(userId: string): Promise<void> {
    await this.throttle.succeed(userId);
  }
}
