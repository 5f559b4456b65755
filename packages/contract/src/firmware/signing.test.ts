import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FirmwarePackageError, fileKind, readFirmwarePrefix } from './package.js';
import { parseVendorKeys, signFirmwarePackage, verifyFirmwarePackage } from './signing.js';

const vendor = generateKeyPairSync('ed25519');
const keys = [{ keyId: 'v1', publicKey: vendor.publicKey }];
const image = createHash('sha512').update('image').digest();
const sign = (meta: Partial<{ model: string; version: string; keyId: string }> = {}, bytes: Uint8Array = image) =>
  signFirmwarePackage(bytes, { model: 'ZG-NB100', version: '2.1.0', keyId: 'v1', ...meta }, vendor.privateKey);
const problemOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof FirmwarePackageError) return error.problem;
    throw error;
  }
  return 'none';
};

describe('signed firmware packages', () => {
  it('verifies a package and returns its manifest and image', () => {
    const verified = verifyFirmwarePackage(sign(), keys, { model: 'ZG-NB100', version: 'V2.1.0' });
    expect(verified.manifest).toMatchObject({ model: 'ZG-NB100', version: '2.1.0', size: image.length, keyId: 'v1' });
    expect(Buffer.from(verified.image).equals(image)).toBe(true);
  });

  it('names each problem', () => {
    const tampered = sign();
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
    const resigned = sign();
    resigned[20] = resigned[20] === 0x31 ? 0x32 : 0x31; // a manifest byte: the signature no longer covers it
    expect(problemOf(() => verifyFirmwarePackage(image, keys))).toBe('unsigned');
    expect(problemOf(() => verifyFirmwarePackage(tampered, keys))).toBe('sha256');
    expect(problemOf(() => verifyFirmwarePackage(sign({ keyId: 'v2' }), keys))).toBe('unknownKey');
    expect(problemOf(() => verifyFirmwarePackage(sign(), []))).toBe('noKeys');
    expect(problemOf(() => verifyFirmwarePackage(sign(), keys, { model: 'ZG-NB200' }))).toBe('model');
    expect(problemOf(() => verifyFirmwarePackage(sign(), keys, { version: '2.1.1' }))).toBe('version');
    expect(['signature', 'format']).toContain(problemOf(() => verifyFirmwarePackage(resigned, keys)));
    expect(problemOf(() => verifyFirmwarePackage(sign().subarray(0, 30), keys))).toBe('format');
  });

  it('reads a prefix a piece at a time, and tells common file kinds', () => {
    const bytes = sign();
    expect(readFirmwarePrefix(bytes.subarray(0, 2))).toBeUndefined();
    expect(readFirmwarePrefix(bytes.subarray(0, 40))).toBeUndefined();
    expect(readFirmwarePrefix(bytes)?.manifest.model).toBe('ZG-NB100');
    expect(fileKind(Buffer.from('\x7fELF'))).toBe('ELF');
    expect(fileKind(Buffer.from('  <html>'))).toBe('HTML/XML');
  });

  it('parses vendor keys from configuration, refusing private keys and duplicates', () => {
    const spki = vendor.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const pkcs8 = vendor.privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    expect(parseVendorKeys(` v1:${spki} , v2:${spki}`).map((key) => key.keyId)).toEqual(['v1', 'v2']);
    expect(parseVendorKeys('')).toEqual([]);
    expect(() => parseVendorKeys(`v1:${pkcs8}`)).toThrow(/PRIVATE key/);
    expect(() => parseVendorKeys(`v1:${spki},v1:${spki}`)).toThrow(/twice/);
    expect(() => parseVendorKeys('v1:bm90IGEga2V5')).toThrow(/not a base64 SubjectPublicKeyInfo/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    expect(() => parseVendorKeys(`r:${rsa}`)).toThrow(/not Ed25519/);
  });
});
