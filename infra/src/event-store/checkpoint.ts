import { createHash, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from './hash-chain';

/**
 * Signed checkpoints of the streams' heads (docs/behaviour/history.md). A hash chain shows that nothing was changed *unless*
 * someone rewrote a whole stream from the changed event on, head included. A checkpoint, signed with a key
 * the database never sees and kept somewhere else, pins each stream's head at a moment: a later rewrite of
 * anything before it changes the hash stored at the checkpointed version, which the CLI reports.
 */
export const checkpointHead = z.object({
  stream: z.string(),
  version: z.number().int().nonnegative(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type CheckpointHead = z.infer<typeof checkpointHead>;

export const signedCheckpoint = z.object({
  format: z.literal('pf-checkpoint/1'),
  createdAt: z.string(),
  heads: z.array(checkpointHead),
  /** SHA-256 over the canonical heads, so one line can be published (a ticket, an email, a newspaper). */
  root: z.string(),
  /** SHA-256 of the signing public key (DER), to tell keys apart. */
  keyId: z.string(),
  /** Ed25519 over the canonical encoding of everything above, base64. */
  signature: z.string(),
});
export type SignedCheckpoint = z.infer<typeof signedCheckpoint>;

const keyIdOf = (publicKey: KeyObject) =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');

function signedPart(checkpoint: Omit<SignedCheckpoint, 'signature'>): Buffer {
  return Buffer.from(canonicalJson(checkpoint));
}

export function generateSigningKeys(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function signCheckpoint(heads: readonly CheckpointHead[], privateKeyPem: string, createdAt: Date): SignedCheckpoint {
  const sorted = [...heads].sort((a, b) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0));
  const root = createHash('sha256').update(canonicalJson(sorted)).digest('hex');
  const keyId = keyIdOf(createPublicKey(privateKeyPem));
  const unsigned = { format: 'pf-checkpoint/1' as const, createdAt: createdAt.toISOString(), heads: sorted, root, keyId };
  return { ...unsigned, signature: sign(null, signedPart(unsigned), privateKeyPem).toString('base64') };
}

/** Whether the checkpoint is exactly what the holder of the key signed (its heads, root and time untouched). */
export function checkpointSignatureHolds(checkpoint: SignedCheckpoint, publicKeyPem: string): boolean {
  const { signature, ...unsigned } = checkpoint;
  const publicKey = createPublicKey(publicKeyPem);
  if (keyIdOf(publicKey) !== checkpoint.keyId) return false;
  const root = createHash('sha256').update(canonicalJson(checkpoint.heads)).digest('hex');
  return root === checkpoint.root && verify(null, signedPart(unsigned), publicKey, Buffer.from(signature, 'base64'));
}

export interface CheckpointMismatch {
  readonly stream: string;
  readonly version: number;
  readonly reason: string;
}

/**
 * Holds the store as it is now to a checkpoint: each checkpointed stream must still have, at the checkpointed
 * version, the event with the checkpointed hash. `hashAt` answers the stored hash at a version (null: none).
 */
export async function compareWithCheckpoint(
  checkpoint: SignedCheckpoint,
  hashAt: (stream: string, version: number) => Promise<string | null | undefined>,
): Promise<CheckpointMismatch[]> {
  const mismatches: CheckpointMismatch[] = [];
  for (const head of checkpoint.heads) {
    const stored = await hashAt(head.stream, head.version);
    if (stored === undefined) {
      mismatches.push({
        stream: head.stream,
        version: head.version,
        reason: `Event ${head.version} of ${head.stream}, signed in the checkpoint of ${checkpoint.createdAt}, is no longer stored`,
      });
    } else if (stored !== head.hash) {
      mismatches.push({
        stream: head.stream,
        version: head.version,
        reason: `Event ${head.version} of ${head.stream} no longer has the hash signed in the checkpoint of ${checkpoint.createdAt}: the stream was rewritten up to or before it`,
      });
    }
  }
  return mismatches;
}
