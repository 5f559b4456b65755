import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPassword } from './crypto';

describe('encryptPassword', () => {
  it('produces RSA-OAEP SHA-256 ciphertext the server can decrypt', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const cipher = await encryptPassword(pem, 'pa55wörd');
    const plain = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(cipher, 'base64'),
    );
    expect(plain.toString('utf8')).toBe('pa55wörd');
  });
});
