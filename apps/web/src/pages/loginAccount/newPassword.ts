/**
 * A new password for the account API, sent exactly like at sign-in: RSA-OAEP under a fresh key from
 * /oauth/key (login/crypto.ts), with that key's id.
 */
import { authEndpoints } from '@iot/contract';
import { call } from '../../api/client';
import { encryptPassword } from '../../lib/crypto';

/** Encrypts `plain` for `password` + `keyId` body fields. */
export async function encryptNewPassword(plain: string): Promise<{ password: string; keyId: string }> {
  const key = await call(authEndpoints.publicKey, { background: true });
  return { password: await encryptPassword(key.publicKey, plain), keyId: key.keyId };
}
