/**
 * The worker thread's tasks (piscina; workers/pool.ts runs them): CPU-heavy spreadsheet work kept off
 * the event loop that answers every client.
 * - `readSheet`: an uploaded .xlsx (zip signature) or CSV file's first sheet, within limits; a refusal
 *   comes back as data ({ refusal }), since an Error's class does not survive the thread boundary.
 * - `writeExport`: writes an export from batches of cells posted on `port` ({ rows } ... { end }),
 *   acknowledging each batch ({ written }) after posting its bytes ({ chunk }), so the main thread
 *   sends the next one only then and memory stays bounded; after the last byte, { done } on the same
 *   port (the task's own answer comes on another port, which does not keep the order).
 * Compiled to apps/server/dist/spreadsheet-worker.js by scripts/server-build.mjs.
 */
import type { MessagePort } from 'node:worker_threads';
import type { LocalizedText } from '@iot/contract';
import { readCsv } from '../spreadsheet/csv-read.js';
import { type Cell, type ExportLayout, exportWriter } from '../spreadsheet/export-write.js';
import { type Sheet, type SheetLimits, SheetRefusal } from '../spreadsheet/limits.js';
import { readXlsx } from '../spreadsheet/xlsx-read.js';

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

/** The answer of readSheet: the sheet, or why the file is refused. */
export type ReadSheetResult = { sheet: Sheet } | { refusal: LocalizedText };

/** Reads the first sheet of `bytes` (.xlsx when it is a zip archive, else CSV). */
export async function readSheet({ bytes, limits }: { bytes: Uint8Array; limits: SheetLimits }): Promise<ReadSheetResult> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const isZip = ZIP_SIGNATURE.every((byte, index) => buffer[index] === byte);
    return { sheet: isZip ? await readXlsx(buffer, limits) : readCsv(buffer, limits) };
  } catch (error) {
    if (error instanceof SheetRefusal) return { refusal: error.reason };
    throw error;
  }
}

/** A message of the main thread to writeExport. */
export type ExportMessage = { rows: Cell[][] } | { end: true };
/** A message of writeExport to the main thread. */
export type ExportReply = { chunk: Uint8Array | string } | { written: number } | { done: true };

/** Writes the export of `layout` from the batches arriving on `port`; resolves after the last byte is posted. */
export async function writeExport({ layout, port }: { layout: ExportLayout; port: MessagePort }): Promise<void> {
  const post = (reply: ExportReply) => port.postMessage(reply);
  try {
    const writer = exportWriter(layout, (chunk) => post({ chunk }));
    await new Promise<void>((resolve, reject) => {
      let queue = Promise.resolve();
      port.on('message', (message: ExportMessage) => {
        queue = queue.then(async () => {
          if ('rows' in message) {
            await writer.write(message.rows);
            post({ written: message.rows.length });
          } else {
            await writer.end();
            post({ done: true });
            resolve();
          }
        }).catch(reject);
      });
      port.on('close', () => reject(new Error('export abandoned')));
    });
  } finally {
    port.close();
  }
}
