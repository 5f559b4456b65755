/**
 * Password encryption for sign-in and password changes: RSA-OAEP with SHA-256 (MGF1 SHA-256) under
 * the server's SPKI PEM public key, matching `crypto.privateDecrypt({ oaepHash: 'sha256' })`; returns
 * base64 ciphertext. WebCrypto when the page is a secure context (https, localhost); otherwise (plain
 * http on a LAN name) node-forge's pure-JS RSA-OAEP, loaded by dynamic import only then.
 * HTTPS is still recommended (docs/deploy.md).
 */

/** Thrown when neither WebCrypto nor the node-forge fallback can be used. */
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

/** RSA-OAEP SHA-256 with node-forge (no secure context needed; forge seeds from crypto.getRandomValues). */
export async function encryptWithForge(publicKeyPem: string, plain: string): Promise<string> {
  let forge: typeof import('node-forge');
  try {
    forge = (await import('node-forge')).default;
  } catch (error) {
    throw new CryptoUnavailableError(`RSA fallback not loaded: ${String(error)}`);
  }
  const key = forge.pki.publicKeyFromPem(publicKeyPem);
  const cipher = key.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', { md: forge.md.sha256.create(), mgf1: { md: forge.md.sha256.create() } });
  return forge.util.encode64(cipher);
}

/** Encrypts `plain` with RSA-OAEP SHA-256 under an SPKI PEM key; base64 result. */
export async function encryptPassword(publicKeyPem: string, plain: string): Promise<string> {
  const subtle = globalThis.isSecureContext === false ? undefined : globalThis.crypto?.subtle;
  if (!subtle) return encryptWithForge(publicKeyPem, plain);
  const key = await subtle.importKey('spki', pemToDer(publicKeyPem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = await subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
  return toBase64(cipher);
}
