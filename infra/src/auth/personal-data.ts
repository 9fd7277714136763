import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Sealed } from '@pf/events';

/**
 * Crypto-shredding (DESIGN.md "Accounts"): each user's personal data in events is sealed with AES-256-GCM under
 * a key of their own, kept in `user_keys` beside the account and never in an event. Deleting the key is
 * deleting the data: the sealed events stay in their streams (and in the hash chain, which covers the sealed
 * bytes), but nothing can open them any more.
 */
export class PersonalDataVault {
  constructor(private readonly pool: pg.Pool | pg.PoolClient) {}

  private async key(userId: string, create: boolean): Promise<Buffer | null> {
    if (create) {
      await this.pool.query('insert into user_keys (user_id, key) values ($1, $2) on conflict (user_id) do nothing', [
        userId,
        randomBytes(32),
      ]);
    }
    const found = await this.pool.query<{ key: Buffer }>('select key from user_keys where user_id = $1', [userId]);
    return found.rows[0]?.key ?? null;
  }

  async seal(userId: string, value: unknown): Promise<Sealed> {
    const key = (await this.key(userId, true))!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    // The user id is authenticated with the data, so a sealed value cannot be passed off as another user's.
    cipher.setAAD(Buffer.from(userId));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return {
      alg: 'A256GCM',
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
  }

  /** The sealed value, or null when the user's key is gone (shredded). */
  async open(userId: string, sealed: Sealed): Promise<unknown> {
    const key = await this.key(userId, false);
    if (!key) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  }

  /** Deletes the user's key: everything sealed under it becomes unreadable. */
  async shred(userId: string): Promise<void> {
    await this.pool.query('delete from user_keys where user_id = $1', [userId]);
  }
}
