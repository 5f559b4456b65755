/**
 * Password encryption for sign-in: RSA-OAEP with SHA-256 under the server's SPKI PEM public key
 * (WebCrypto; needs a secure context: https or localhost). Returns base64 ciphertext.
 */

/** Thrown when WebCrypto is unavailable (plain http on a non-localhost host). */
export class CryptoUnavailableError extends Error {}

function pemToDer(pem: string): ArrayBuffer {
  const base64 = pem.replace(/-----(BEGIN|END) [^-]+-----/g, '').replace(/\s+/g, '');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Encrypts `plain` with RSA-OAEP SHA-256 under an SPKI PEM key; base64 result. */
export async function encryptPassword(publicKeyPem: string, plain: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new CryptoUnavailableError('WebCrypto unavailable');
  const key = await subtle.importKey('spki', pemToDer(publicKeyPem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = await subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
  return toBase64(cipher);
}
