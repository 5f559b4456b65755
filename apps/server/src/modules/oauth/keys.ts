/**
 * RSA key pair for encrypting the password at sign-in (ARCHITECTURE.md "Tenancy and authority";
 * known-good.md: RSA-OAEP with SHA-256, since Node 20 refuses PKCS#1 v1.5 decryption).
 * The pair is created once and kept in the database so every server instance shares it.
 */
import { constants, generateKeyPairSync, privateDecrypt, randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rsaKeys } from '../../db/schema.js';

export interface KeyPair {
  id: string;
  publicPem: string;
  privatePem: string;
}

const cache = new WeakMap<Db, KeyPair>();

/** The current key pair, created on first use (2048-bit RSA, SPKI/PKCS#8 PEM). */
export async function currentKeyPair(db: Db): Promise<KeyPair> {
  const cached = cache.get(db);
  if (cached) return cached;
  let [row] = await db.select().from(rsaKeys).orderBy(desc(rsaKeys.createdAt)).limit(1);
  if (!row) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await db.insert(rsaKeys).values({ id: randomUUID(), publicPem: publicKey, privatePem: privateKey }).onConflictDoNothing();
    [row] = await db.select().from(rsaKeys).orderBy(desc(rsaKeys.createdAt)).limit(1);
  }
  if (!row) throw new Error('RSA key pair could not be stored');
  const pair = { id: row.id, publicPem: row.publicPem, privatePem: row.privatePem };
  cache.set(db, pair);
  return pair;
}

/** The key pair with `keyId`, or undefined when it is unknown. */
export async function findKeyPair(db: Db, keyId: string): Promise<KeyPair | undefined> {
  const current = await currentKeyPair(db);
  if (current.id === keyId) return current;
  const [row] = await db.select().from(rsaKeys).where(eq(rsaKeys.id, keyId)).limit(1);
  return row ? { id: row.id, publicPem: row.publicPem, privatePem: row.privatePem } : undefined;
}

/** Decrypts base64 RSA-OAEP-SHA-256 ciphertext to UTF-8; undefined when it does not decrypt. */
export function decryptPassword(pair: KeyPair, ciphertextBase64: string): string | undefined {
  try {
    const plain = privateDecrypt(
      { key: pair.privatePem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(ciphertextBase64, 'base64'),
    );
    return plain.toString('utf8');
  } catch {
    return undefined;
  }
}
