import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPassword, encryptWithForge } from './crypto';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const decrypt = (cipher: string) =>
  privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(cipher, 'base64')).toString('utf8');

describe('encryptPassword', () => {
  it('produces RSA-OAEP SHA-256 ciphertext the server can decrypt', async () => {
    expect(decrypt(await encryptPassword(pem, 'pa55wörd'))).toBe('pa55wörd');
  });

  it('falls back to node-forge (same padding, MGF1 SHA-256) where WebCrypto is missing', async () => {
    for (const password of ['pa55wörd', '密码-123456', 'x'.repeat(100)]) expect(decrypt(await encryptWithForge(pem, password))).toBe(password);
    const cipher = await encryptWithForge(pem, 'same');
    expect(cipher).not.toBe(await encryptWithForge(pem, 'same'));
    expect(Buffer.from(cipher, 'base64')).toHaveLength(256);
  });
});
