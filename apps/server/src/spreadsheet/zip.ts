/**
 * The zip container of an .xlsx file, read with yauzl from its central directory: every entry's
 * declared sizes are checked against ZIP_LIMITS (count, uncompressed bytes per entry and in total,
 * compression ratio) before a byte is inflated, and yauzl's validateEntrySizes stops an entry that
 * inflates to more than it declared, so a zip bomb is refused for the cost of reading its directory.
 */
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { refuse, ZIP_LIMITS } from './limits.js';

/** An opened archive: its entries by name, and a reader of one entry's text. */
export interface Archive {
  entries: Map<string, Entry>;
  /** The entry's bytes as UTF-8 text chunks, passed to `onText` as they inflate; stops when `onText` throws. */
  readText(entry: Entry, onText: (text: string) => void): Promise<void>;
  close(): void;
}

const open = (buffer: Buffer) => new Promise<ZipFile>((resolve, reject) => {
  yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => (error ? reject(refuse.notSpreadsheet()) : resolve(zip)));
});

/** Reads the central directory; throws SheetRefusal for a broken archive or one over ZIP_LIMITS. */
export async function openArchive(buffer: Buffer): Promise<Archive> {
  const zip = await open(buffer);
  try {
    if (zip.entryCount > ZIP_LIMITS.maxEntries) throw refuse.zipEntries(ZIP_LIMITS.maxEntries);
    const entries = new Map<string, Entry>();
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('error', () => reject(refuse.notSpreadsheet()));
      zip.on('end', resolve);
      zip.on('entry', (entry: Entry) => {
        total += entry.uncompressedSize;
        const mib = ZIP_LIMITS.maxEntryBytes / 1024 / 1024;
        if (entry.isEncrypted()) return reject(refuse.encrypted());
        if (entry.uncompressedSize > ZIP_LIMITS.maxEntryBytes || total > ZIP_LIMITS.maxTotalBytes) return reject(refuse.zipTooBig(mib));
        if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize > ZIP_LIMITS.maxRatio * Math.max(1, entry.compressedSize)) return reject(refuse.zipRatio(ZIP_LIMITS.maxRatio));
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.readEntry();
    });
    return { entries, readText: (entry, onText) => readText(zip, entry, onText), close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function readText(zip: ZipFile, entry: Entry, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream: Readable) => {
      if (error) return reject(refuse.notSpreadsheet());
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        try {
          onText(text);
        } catch (stop) {
          stream.destroy();
          reject(stop);
        }
      });
      // An entry that inflates to more or other than it declared, or a corrupt deflate stream.
      stream.on('error', () => reject(refuse.notSpreadsheet()));
      stream.on('end', resolve);
    });
  });
}
