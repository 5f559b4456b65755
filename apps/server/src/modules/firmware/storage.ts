/**
 * Where firmware packages live: one small interface (PackageStore) with a disk implementation under
 * `DATA_DIR/firmware`. An S3-compatible store can replace it by implementing the same four calls
 * (docs/protocol.md "Package storage"): `write` streams an upload while hashing it, `read` serves a
 * byte range for one otaChunk, `remove` deletes. Keys are opaque, chosen by the store.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredPackage {
  key: string;
  /** bytes */
  size: number;
  /** hex SHA-256 of the bytes stored. */
  sha256: string;
}

export interface PackageStore {
  /**
   * Streams `source` into the store, computing its SHA-256 on the way. Rejects with PackageTooLarge
   * past `maxBytes` (nothing is kept) or with the source's / the disk's error.
   */
  write(source: Readable, maxBytes: number): Promise<StoredPackage>;
  /** Up to `length` bytes from `offset` (fewer at the end; empty past it). Rejects when the key is unknown. */
  read(key: string, offset: number, length: number): Promise<Buffer>;
  /** Deletes the package; a missing key is not an error. */
  remove(key: string): Promise<void>;
}

/** The upload passed `maxBytes`. */
export class PackageTooLarge extends Error {}

/** Package store in `dir` (created when missing); writes go to a temporary file renamed when complete. */
export function createDiskStore(dir: string): PackageStore {
  const ready = mkdir(dir, { recursive: true });
  const pathOf = (key: string) => {
    if (!/^[0-9a-f-]{36}\.bin$/.test(key)) throw new Error(`not a package key: ${key}`);
    return join(dir, key);
  };
  return {
    async write(source, maxBytes) {
      await ready;
      const key = `${randomUUID()}.bin`;
      const temporary = join(dir, `${key}.part`);
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new PackageTooLarge(`larger than ${maxBytes} bytes`));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, meter, createWriteStream(temporary, { flags: 'wx' }));
        await rename(temporary, pathOf(key));
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { key, size, sha256: hash.digest('hex') };
    },
    async read(key, offset, length) {
      const file = await open(pathOf(key), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await file.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      } finally {
        await file.close();
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

const stores = new Map<string, PackageStore>();

/** The disk store of a data directory (`DATA_DIR/firmware`), one instance per directory (API and gateway share it). */
export function packageStoreFor(dataDir: string): PackageStore {
  const dir = join(dataDir, 'firmware');
  let store = stores.get(dir);
  if (!store) {
    store = createDiskStore(dir);
    stores.set(dir, store);
  }
  return store;
}
