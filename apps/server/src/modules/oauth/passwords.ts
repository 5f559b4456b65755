/** Password hashing: argon2id (@node-rs/argon2; about 90 ms per hash or verify on this machine). */
import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

/** argon2id hash (PHC string) of `password`. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

let decoy: Promise<string> | undefined;

/**
 * True when `password` matches `stored`. With no stored hash (unknown account) a decoy hash is
 * verified anyway so that timing does not reveal which usernames exist.
 */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  decoy ??= hashPassword('decoy-password-never-matches');
  const target = stored ?? (await decoy);
  const ok = await verify(target, password).catch(() => false);
  return ok && stored !== undefined;
}
