/**
 * A firmware upload checked as a vendor-signed ZGFW package (contract firmware/package.ts)
 * while it streams: the inspector reads header, manifest and signature from the first bytes (refusing a
 * file that is no package at once, before the rest is stored) and hashes the image as it passes, so no
 * step holds the event loop for the whole file. After the upload the signature is checked with the
 * configured vendor keys and the manifest against the image and the form (model, version). Every
 * refusal is a 400 naming the field, in Chinese and English; the caller then removes the stored bytes.
 */
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import {
  FIRMWARE_PREFIX_MAX_BYTES, FirmwarePackageError, type FirmwarePrefix, type FirmwareProblem, firmwareProblemMessage, readFirmwarePrefix,
} from '@iot/contract';
import { checkFirmwareManifest, checkFirmwareSignature, type VendorKey } from '@iot/contract/firmware-signing';
import { ApiError } from '../../http/api-error.js';

/** Which form field a problem is about. */
const FIELD_OF: Partial<Record<FirmwareProblem, string>> = { model: 'body.model', version: 'body.version' };

/** The 400 of a package problem. */
export function packageRefusal(error: FirmwarePackageError): ApiError {
  return new ApiError('VALIDATION_FAILED', [{ field: FIELD_OF[error.problem] ?? 'body.file', message: firmwareProblemMessage(error.problem, error.detail) }]);
}

/** Passes the bytes through unchanged; reads the package's prefix and hashes its image on the way. */
export class PackageInspector extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private prefix: FirmwarePrefix | undefined;
  private readonly image = createHash('sha256');
  private imageBytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      if (this.prefix) this.hashImage(chunk);
      else this.readHead(chunk);
      done(null, chunk);
    } catch (error) {
      done(error instanceof FirmwarePackageError ? packageRefusal(error) : (error as Error));
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.prefix) this.readHead(Buffer.alloc(0), true);
      done();
    } catch (error) {
      done(error instanceof FirmwarePackageError ? packageRefusal(error) : (error as Error));
    }
  }

  private readHead(chunk: Buffer, complete = false): void {
    this.head.push(chunk);
    this.headBytes += chunk.length;
    const bytes = Buffer.concat(this.head);
    this.head = [bytes];
    const prefix = readFirmwarePrefix(bytes.subarray(0, FIRMWARE_PREFIX_MAX_BYTES), complete || this.headBytes >= FIRMWARE_PREFIX_MAX_BYTES);
    if (!prefix) return;
    this.prefix = prefix;
    this.head = [];
    this.hashImage(bytes.subarray(prefix.imageOffset));
  }

  private hashImage(bytes: Buffer): void {
    this.image.update(bytes);
    this.imageBytes += bytes.length;
  }

  /** After the stream ended: the prefix and the image's size and SHA-256. */
  result(): { prefix: FirmwarePrefix; image: { size: number; sha256: string } } {
    if (!this.prefix) throw packageRefusal(new FirmwarePackageError('format', 'truncated'));
    return { prefix: this.prefix, image: { size: this.imageBytes, sha256: this.image.digest('hex') } };
  }
}

/**
 * Checks an inspected upload: signed by a configured vendor key, image as the manifest says, manifest
 * for `expected` model and version. Returns the key id; throws the 400 otherwise.
 */
export function verifyUpload(inspected: ReturnType<PackageInspector['result']>, keys: readonly VendorKey[], expected: { model: string; version: string }): string {
  try {
    const key = checkFirmwareSignature(inspected.prefix, keys);
    checkFirmwareManifest(inspected.prefix.manifest, inspected.image, expected);
    return key.keyId;
  } catch (error) {
    if (error instanceof FirmwarePackageError) throw packageRefusal(error);
    throw error;
  }
}
