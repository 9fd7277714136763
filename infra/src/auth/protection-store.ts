import { createHash } from 'node:crypto';
import type pg from 'pg';
import { Conflict } from '../errors';

/** A protected account's secrets as stored (docs/decisions/sign-in-secrets.md). */
export interface Protection {
  userId: string;
  email: string;
  passwordHash: string;
  totpSecret: string | null;
  totpPendingSecret: string | null;
  recoveryCodesLeft: number;
}

type Row = {
  user_id: string;
  email: string;
  password_hash: string;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  recovery_codes_left: number;
};

const COLUMNS = 'user_id, email, password_hash, totp_secret, totp_pending_secret, cardinality(recovery_code_hashes) as recovery_codes_left';

const toProtection = (row: Row): Protection => ({
  userId: row.user_id,
  email: row.email,
  passwordHash: row.password_hash,
  totpSecret: row.totp_secret,
  totpPendingSecret: row.totp_pending_secret,
  recoveryCodesLeft: row.recovery_codes_left,
});

/** Recovery codes are random (50 bits each), so a plain SHA-256 is enough; case and dashes do not count. */
export const recoveryCodeHash = (code: string) => createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase()).digest('hex');

/**
 * The secrets of protected accounts: the table beside `users` (deleted with it), written together with the
 * events that record each change on user-{id} (command-service/src/identity/protection). Hashes and the TOTP
 * secret stay here: no event, feed, export or push carries them.
 */
export class ProtectionStore {
  constructor(private readonly pool: pg.Pool) {}

  async of(userId: string): Promise<Protection | null> {
    const result = await this.pool.query<Row>(`select ${COLUMNS} from account_protection where user_id = $1`, [userId]);
    return result.rows[0] ? toProtection(result.rows[0]) : null;
  }

  async byEmail(email: string): Promise<Protection | null> {
    const result = await this.pool.query<Row>(`select ${COLUMNS} from account_protection where email = $1`, [email.toLowerCase()]);
    return result.rows[0] ? toProtection(result.rows[0]) : null;
  }

  /** The first password names the sign-in email, which no other protected account may have. */
  async setPassword(userId: string, passwordHash: string, email?: string): Promise<void> {
    try {
      if (email === undefined) {
        await this.pool.query('update account_protection set password_hash = $2, updated_at = now() where user_id = $1', [
          userId,
          passwordHash,
        ]);
        return;
      }
      await this.pool.query(
        `insert into account_protection (user_id, email, password_hash) values ($1, $2, $3)
         on conflict (user_id) do update set email = excluded.email, password_hash = excluded.password_hash, updated_at = now()`,
        [userId, email.toLowerCase(), passwordHash],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new Conflict('Another account already signs in with this email');
      throw error;
    }
  }

  async setPendingTotp(userId: string, secret: string): Promise<void> {
    await this.pool.query('update account_protection set totp_pending_secret = $2 where user_id = $1', [userId, secret]);
  }

  /** The pending secret becomes the one in force, its confirming step used, with new recovery codes (hashed). */
  async enableTotp(userId: string, step: number, recoveryCodeHashes: readonly string[]): Promise<void> {
    await this.pool.query(
      `update account_protection set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_last_step = $2,
         recovery_code_hashes = $3, updated_at = now() where user_id = $1`,
      [userId, step, recoveryCodeHashes],
    );
  }

  async disableTotp(userId: string): Promise<void> {
    await this.pool.query(
      `update account_protection set totp_secret = null, totp_pending_secret = null, totp_last_step = null,
         recovery_code_hashes = '{}', updated_at = now() where user_id = $1`,
      [userId],
    );
  }

  /** Records a TOTP time step as used; false when it (or a later one) was used already: a code works once. */
  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const result = await this.pool.query(
      `update account_protection set totp_last_step = $2
       where user_id = $1 and (totp_last_step is null or totp_last_step < $2)`,
      [userId, step],
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** Spends a recovery code: the number left, or null when it was not one of them (or was spent already). */
  async useRecoveryCode(userId: string, code: string): Promise<number | null> {
    const hash = recoveryCodeHash(code);
    const result = await this.pool.query<{ left: number }>(
      `update account_protection set recovery_code_hashes = array_remove(recovery_code_hashes, $2)
       where user_id = $1 and $2 = any(recovery_code_hashes)
       returning cardinality(recovery_code_hashes) as left`,
      [userId, hash],
    );
    return result.rows[0]?.left ?? null;
  }
}
