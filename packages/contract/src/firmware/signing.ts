/**
 * Signing and checking ZGFW firmware packages (package.ts) with Ed25519 from node's crypto (node only:
 * imported as `@iot/contract/firmware-signing` by the server, the simulated locks and the vendor's
 * signing tool, never by the browser). The platform and each lock check the same things: a ZGFW header,
 * a vendor key they trust named by the manifest's keyId, the signature over header and manifest, the
 * image's size and SHA-256, the model and the version.
 *
 * Vendor public keys are configuration: `FIRMWARE_VENDOR_KEYS` = `keyId:key,keyId:key`, each key the
 * base64 of its SubjectPublicKeyInfo DER (`openssl pkey -pubout -outform DER | base64`). A private key
 * there is refused. The demo key pair (DEMO_VENDOR_KEY_ID) is public knowledge: demo and tests only.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { normaliseVersion } from '../version.js';
import {
  FirmwarePackageError, type FirmwareManifest, type FirmwarePrefix, firmwareManifest, firmwareSignedPart, readFirmwarePrefix,
} from './package.js';

export interface VendorKey {
  keyId: string;
  publicKey: KeyObject;
}

/** Key id of the demo vendor key (DEMO=on and tests; refused with DEMO=off). */
export const DEMO_VENDOR_KEY_ID = 'zg-demo';
/** The demo vendor public key (SPKI DER, base64). Its private half lives with the simulator (apps/simulator/src/vendor.ts). */
export const DEMO_VENDOR_PUBLIC_KEY = 'MCowBQYDK2VwAyEAi0N/Tgh07xjgy6eA/U2P3UjKd89+8Lh380+FjZLLy4g=';

/** DER prefix of an Ed25519 PKCS#8 private key, base64: what must never be configured as a public key. */
const PRIVATE_KEY_PREFIX = 'MC4CAQAwBQYDK2Vw';

/** Parses one public key (SPKI DER base64); throws a readable Error for a private key or anything else. */
export function vendorPublicKey(keyId: string, base64: string): VendorKey {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(keyId)) throw new Error(`vendor key id "${keyId.slice(0, 64)}": letters, digits, . _ - (at most 64)`);
  if (base64.startsWith(PRIVATE_KEY_PREFIX)) throw new Error(`vendor key ${keyId} is a PRIVATE key: configure only public keys`);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
  } catch {
    throw new Error(`vendor key ${keyId} is not a base64 SubjectPublicKeyInfo (DER)`);
  }
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error(`vendor key ${keyId} is ${publicKey.asymmetricKeyType}, not Ed25519`);
  return { keyId, publicKey };
}

/** Parses `keyId:base64,keyId:base64` (empty: none); throws naming the bad entry. */
export function parseVendorKeys(text: string): VendorKey[] {
  const keys = text.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    const colon = entry.indexOf(':');
    if (colon < 1) throw new Error('expected keyId:base64 pairs separated by commas');
    return vendorPublicKey(entry.slice(0, colon), entry.slice(colon + 1));
  });
  const ids = keys.map((key) => key.keyId);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw new Error(`vendor key ${twice} is listed twice`);
  return keys;
}

/** The demo vendor key as a VendorKey. */
export const demoVendorKey = (): VendorKey => vendorPublicKey(DEMO_VENDOR_KEY_ID, DEMO_VENDOR_PUBLIC_KEY);

/**
 * Builds a signed package of `image` (the vendor's side). `privateKey`: an Ed25519 KeyObject or its
 * PKCS#8 DER in base64.
 */
export function signFirmwarePackage(image: Uint8Array, meta: { model: string; version: string; keyId: string }, privateKey: KeyObject | string): Buffer {
  const key = typeof privateKey === 'string' ? createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' }) : privateKey;
  const manifest: FirmwareManifest = firmwareManifest.parse({
    format: 1, model: meta.model, version: meta.version, size: image.length, sha256: createHash('sha256').update(image).digest('hex'), keyId: meta.keyId,
  });
  const signed = firmwareSignedPart(manifest);
  return Buffer.concat([signed, sign(null, signed, key), image]);
}

/** Checks the signature of a read prefix with the trusted keys; throws FirmwarePackageError. */
export function checkFirmwareSignature(prefix: FirmwarePrefix, keys: readonly VendorKey[]): VendorKey {
  if (keys.length === 0) throw new FirmwarePackageError('noKeys');
  const key = keys.find((candidate) => candidate.keyId === prefix.manifest.keyId);
  if (!key) throw new FirmwarePackageError('unknownKey', prefix.manifest.keyId);
  let genuine = false;
  try {
    genuine = verify(null, prefix.signed, key.publicKey, prefix.signature);
  } catch {
    genuine = false;
  }
  if (!genuine) throw new FirmwarePackageError('signature');
  return key;
}

/**
 * Checks what the manifest says against the image actually received (size, SHA-256) and, when given,
 * the model and version it must be (versions compared in canonical form); throws FirmwarePackageError.
 */
export function checkFirmwareManifest(manifest: FirmwareManifest, image: { size: number; sha256: string }, expected: { model?: string; version?: string } = {}): void {
  if (image.size !== manifest.size) throw new FirmwarePackageError('size', `${image.size} ≠ ${manifest.size}`);
  if (image.sha256 !== manifest.sha256) throw new FirmwarePackageError('sha256');
  if (expected.model !== undefined && manifest.model !== expected.model) throw new FirmwarePackageError('model', manifest.model);
  const version = normaliseVersion(manifest.version);
  if (!version) throw new FirmwarePackageError('format', 'manifest version');
  if (expected.version !== undefined && version !== normaliseVersion(expected.version)) throw new FirmwarePackageError('version', manifest.version);
}

/** A whole package in memory (a lock after its download): every check; returns the manifest and the image. */
export function verifyFirmwarePackage(bytes: Uint8Array, keys: readonly VendorKey[], expected: { model?: string; version?: string } = {}) {
  const prefix = readFirmwarePrefix(bytes, true) as FirmwarePrefix;
  const key = checkFirmwareSignature(prefix, keys);
  const image = bytes.subarray(prefix.imageOffset);
  checkFirmwareManifest(prefix.manifest, { size: image.length, sha256: createHash('sha256').update(image).digest('hex') }, expected);
  return { manifest: prefix.manifest, image, keyId: key.keyId };
}
