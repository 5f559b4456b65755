/**
 * Secret fields of command data (protocol.SECRET_DOWNLINK_FIELDS, i.e. password digits) in the
 * `commands.data` column: stored as `{ masked: '******', enc: 'v1.…' }` (masked: one `*` per
 * character, so a masked payload has the size of the real one; enc: crypto/secret-box.ts). Shown
 * masked everywhere; opened only when the downlink is built (reveal).
 */
import { protocol } from '@iot/contract';
import type { SecretBox } from '../../crypto/secret-box.js';

type Data = Record<string, unknown>;
/** A secret field as stored. */
interface StoredSecret {
  masked: string;
  enc: string;
}

const SECRET_FIELDS: readonly string[] = protocol.SECRET_DOWNLINK_FIELDS;

function isStoredSecret(value: unknown): value is StoredSecret {
  return typeof value === 'object' && value !== null && typeof (value as StoredSecret).enc === 'string' && typeof (value as StoredSecret).masked === 'string';
}

/** `******` of the same length as `value`. */
export const maskOf = (value: string) => '*'.repeat(value.length);

/** The data to store: every secret field sealed (with its mask); other fields as they are. */
export function protect(data: Data, box: SecretBox): Data {
  const out: Data = { ...data };
  for (const field of SECRET_FIELDS) {
    const value = out[field];
    if (typeof value === 'string') out[field] = { masked: maskOf(value), enc: box.seal(value) } satisfies StoredSecret;
  }
  return out;
}

/** Stored data as shown to operators and logs: secret fields replaced by their mask. */
export function masked(data: Data): Data {
  const out: Data = { ...data };
  for (const field of SECRET_FIELDS) {
    const value = out[field];
    if (isStoredSecret(value)) out[field] = value.masked;
    else if (typeof value === 'string') out[field] = maskOf(value);
  }
  return out;
}

/** Stored data as sent to the lock: secret fields decrypted. Throws when a secret cannot be opened. */
export function reveal(data: Data, box: SecretBox): Data {
  const out: Data = { ...data };
  for (const field of SECRET_FIELDS) {
    const value = out[field];
    if (isStoredSecret(value)) out[field] = box.open(value.enc);
  }
  return out;
}
