/**
 * The signed firmware package (docs/protocol.md "Signed firmware packages"), format ZGFW 1.
 * Byte layout (integers big-endian):
 *
 *   0      4  magic "ZGFW"
 *   4      1  format version, 1
 *   5      1  signature algorithm, 1 = Ed25519 (RFC 8032)
 *   6      2  reserved, 0
 *   8      4  manifest length M, 2..4096
 *   12     M  manifest: UTF-8 JSON (firmwareManifest)
 *   12+M  64  signature over bytes 0 .. 12+M (header and manifest exactly as stored)
 *   76+M   N  the image; N = manifest.size and SHA-256(image) = manifest.sha256
 *
 * Nothing else may follow the image. This module only reads and writes the layout (browser-safe: the
 * console reads a chosen file's manifest); signatures are made and checked with node's crypto in
 * `@iot/contract/firmware-signing`.
 */
import { z } from 'zod';
import type { LocalizedText } from '../i18n.js';
import { OTA_MAX_PACKAGE_BYTES } from '../protocol/ota.js';
import { localized as l } from '../i18n.js';

export const FIRMWARE_MAGIC = 'ZGFW';
export const FIRMWARE_FORMAT_VERSION = 1;
export const FIRMWARE_ALGORITHM_ED25519 = 1;
/** File name extension of a signed package. */
export const FIRMWARE_PACKAGE_EXTENSION = '.zgfw';
export const FIRMWARE_HEADER_BYTES = 12;
export const FIRMWARE_SIGNATURE_BYTES = 64;
export const FIRMWARE_MANIFEST_MAX_BYTES = 4096;
/** Bytes a reader needs at most before the image starts. */
export const FIRMWARE_PREFIX_MAX_BYTES = FIRMWARE_HEADER_BYTES + FIRMWARE_MANIFEST_MAX_BYTES + FIRMWARE_SIGNATURE_BYTES;

/** What the vendor signs about an image. `version` in any form versionInput accepts. */
export const firmwareManifest = z.strictObject({
  format: z.literal(FIRMWARE_FORMAT_VERSION),
  model: z.string().min(1).max(32).regex(/^[A-Za-z0-9._-]+$/),
  version: z.string().min(1).max(64),
  /** Image bytes. */
  size: z.number().int().min(1).max(OTA_MAX_PACKAGE_BYTES),
  /** SHA-256 of the image, 64 lower-case hex digits. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Which vendor key signed it (FIRMWARE_VENDOR_KEYS names keys by this id). */
  keyId: z.string().min(1).max(64).regex(/^[A-Za-z0-9._-]+$/),
});
export type FirmwareManifest = z.infer<typeof firmwareManifest>;

/** Why a package is refused, at upload or by a lock. */
export type FirmwareProblem = 'unsigned' | 'format' | 'unknownKey' | 'signature' | 'size' | 'sha256' | 'model' | 'version' | 'noKeys';

/** The parts before the image. */
export interface FirmwarePrefix {
  manifest: FirmwareManifest;
  /** Header and manifest: the signed bytes. */
  signed: Uint8Array;
  signature: Uint8Array;
  /** Offset of the image. */
  imageOffset: number;
}

export class FirmwarePackageError extends Error {
  constructor(readonly problem: FirmwareProblem, readonly detail = '') {
    super(`${problem}${detail ? `: ${detail}` : ''}`);
    this.name = 'FirmwarePackageError';
  }
}

/** Common file kinds by their first bytes, so a refusal can say what was uploaded instead. */
const KNOWN_KINDS: [string, (b: Uint8Array) => boolean][] = [
  ['ELF', (b) => b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46],
  ['PE (Windows)', (b) => b[0] === 0x4d && b[1] === 0x5a],
  ['PNG', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['ZIP', (b) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04],
  ['gzip', (b) => b[0] === 0x1f && b[1] === 0x8b],
  ['PDF', (b) => b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46],
  ['HTML/XML', (b) => /^(\uFEFF)?\s*</.test(new TextDecoder().decode(b.subarray(0, 64)))],
];

/** The kind of a file that is not a package ('' when unknown). */
export function fileKind(bytes: Uint8Array): string {
  return KNOWN_KINDS.find(([, test]) => test(bytes))?.[0] ?? '';
}

/**
 * Reads header, manifest and signature from the first bytes of a package. Returns undefined while
 * `bytes` is too short to tell (a streaming reader waits for more); throws FirmwarePackageError
 * (`unsigned`: no ZGFW header; `format`: a header or manifest that does not parse) otherwise.
 * `complete`: no more bytes will come (a short file is then `format`).
 */
export function readFirmwarePrefix(bytes: Uint8Array, complete = false): FirmwarePrefix | undefined {
  const need = (n: number) => {
    if (bytes.length >= n) return true;
    if (complete) throw new FirmwarePackageError('format', 'truncated');
    return false;
  };
  const magicLength = Math.min(bytes.length, 4);
  if (new TextDecoder().decode(bytes.subarray(0, magicLength)) !== FIRMWARE_MAGIC.slice(0, magicLength)) {
    throw new FirmwarePackageError('unsigned', fileKind(bytes));
  }
  if (!need(FIRMWARE_HEADER_BYTES)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(4) !== FIRMWARE_FORMAT_VERSION) throw new FirmwarePackageError('format', `format version ${view.getUint8(4)}`);
  if (view.getUint8(5) !== FIRMWARE_ALGORITHM_ED25519) throw new FirmwarePackageError('format', `signature algorithm ${view.getUint8(5)}`);
  const length = view.getUint32(8);
  if (length < 2 || length > FIRMWARE_MANIFEST_MAX_BYTES) throw new FirmwarePackageError('format', 'manifest length');
  const imageOffset = FIRMWARE_HEADER_BYTES + length + FIRMWARE_SIGNATURE_BYTES;
  if (!need(imageOffset)) return undefined;
  let manifest: FirmwareManifest;
  try {
    manifest = firmwareManifest.parse(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(FIRMWARE_HEADER_BYTES, FIRMWARE_HEADER_BYTES + length))));
  } catch {
    throw new FirmwarePackageError('format', 'manifest');
  }
  return {
    manifest,
    signed: bytes.slice(0, FIRMWARE_HEADER_BYTES + length),
    signature: bytes.slice(FIRMWARE_HEADER_BYTES + length, imageOffset),
    imageOffset,
  };
}

/** Header and manifest bytes of `manifest` (what is signed). */
export function firmwareSignedPart(manifest: FirmwareManifest): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(manifest));
  const out = new Uint8Array(FIRMWARE_HEADER_BYTES + json.length);
  out.set(new TextEncoder().encode(FIRMWARE_MAGIC), 0);
  const view = new DataView(out.buffer);
  view.setUint8(4, FIRMWARE_FORMAT_VERSION);
  view.setUint8(5, FIRMWARE_ALGORITHM_ED25519);
  view.setUint32(8, json.length);
  out.set(json, FIRMWARE_HEADER_BYTES);
  return out;
}


/** A refusal in both languages; `detail` is the detected file kind (unsigned) or what differs. */
export function firmwareProblemMessage(problem: FirmwareProblem, detail = ''): LocalizedText {
  switch (problem) {
    case 'unsigned': return detail
      ? l(`这是 ${detail} 文件，不是厂商签名的固件包（${FIRMWARE_PACKAGE_EXTENSION}，ZGFW 格式）`, `This is a ${detail} file, not a vendor-signed firmware package (${FIRMWARE_PACKAGE_EXTENSION}, ZGFW format)`)
      : l(`未签名：文件不是厂商签名的固件包（${FIRMWARE_PACKAGE_EXTENSION}，ZGFW 格式）`, `Unsigned: the file is not a vendor-signed firmware package (${FIRMWARE_PACKAGE_EXTENSION}, ZGFW format)`);
    case 'format': return l(`固件包格式错误（${detail}）`, `The firmware package is malformed (${detail})`);
    case 'unknownKey': return l(`固件包由未配置的厂商密钥 ${detail} 签名`, `The package is signed by vendor key ${detail}, which is not configured`);
    case 'signature': return l('签名校验失败：固件包不是厂商签发的，或已被篡改', 'The signature does not verify: the package was not issued by the vendor, or was altered');
    case 'size': return l(`镜像大小与清单不符（${detail}）`, `The image size does not match the manifest (${detail})`);
    case 'sha256': return l('镜像的 SHA-256 与清单不符：镜像已被篡改', 'The image SHA-256 does not match the manifest: the image was altered');
    case 'model': return l(`清单中的型号 ${detail} 与所选设备类型不符`, `The manifest is for model ${detail}, not the chosen device type`);
    case 'version': return l(`清单中的版本 ${detail} 与填写的版本不符`, `The manifest says version ${detail}, not the version entered`);
    case 'noKeys': return l('未配置厂商公钥（FIRMWARE_VENDOR_KEYS），不能接收固件', 'No vendor public key is configured (FIRMWARE_VENDOR_KEYS); firmware cannot be accepted');
  }
}
