/**
 * Exports (every log's and the system log's) as CSV or Excel, in the caller's language
 * (Accept-Language): column headers and enum labels localized, times in the given time zone (the data
 * centre's; the zone named in the header): `YYYY-MM-DD HH:mm:ss` text in CSV, real date cells
 * in Excel; ISO 8601 UTC text without a zone. At most `max` rows
 * (default LOG_EXPORT_MAX); when more matched, the EXPORT_TRUNCATED_HEADER response header says `true`
 * (and the last CSV line / the sheet's last row say so in words).
 *
 * The file is written in a worker thread (spreadsheet/export-write.ts through app.workers):
 * the event loop only takes each row's raw cells, BATCH rows at a time, and passes the worker's bytes
 * on to the response as they come. Rows come as an array,
 * or, for the logs that reach LOG_EXPORT_MAX, as pages read BATCH at a time in one snapshot
 * (ExportPages), so neither the driver nor the row mapping holds the event loop for 100,000 rows.
 */
import { PassThrough } from 'node:stream';
import { EXPORT_TRUNCATED_HEADER, type ExportFormat, type Language, languageFromHeader, type LocalizedText, LOG_EXPORT_MAX } from '@iot/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cell, ExportLayout } from '../spreadsheet/export-write.js';
import type { ExportChannel } from '../workers/pool.js';

/** Rows whose cells go to the worker in one message (a few ms of the event loop). */
const BATCH = 2_000;

/** One exported column: header in both languages and the cell of a row (in the caller's language). */
export interface ExportColumn<R> {
  header: LocalizedText;
  value: (row: R, language: Language) => Cell;
  /** Excel column width, characters. */
  width?: number;
  /** The cell is an ISO 8601 time: written in the export's time zone. */
  time?: true;
  /** The cell is an enum value (or a boolean): written as its label in the caller's language. */
  labels?: Readonly<Record<string, LocalizedText>>;
}

/** Reads rows `offset` .. `offset + limit - 1` in the export's order. */
export type PageReader<R> = (offset: number, limit: number) => Promise<readonly R[]>;
/** Runs `use` with a page reader whose reads share one snapshot (e.g. inTenant with `snapshot`); resolves when `use` does. */
export type ExportPages<R> = (use: (page: PageReader<R>) => Promise<void>) => Promise<void>;

export interface ExportRequest<R> {
  request: FastifyRequest;
  reply: FastifyReply;
  format: ExportFormat;
  /** File name without extension, e.g. `heartbeat-log`. */
  name: string;
  columns: readonly ExportColumn<R>[];
  /** Up to `max` + 1 rows (one more than the cap means "truncated"), or the pages to read them from. */
  rows: readonly R[] | ExportPages<R>;
  /** The IANA time zone times are written in (the data centre's; ISO 8601 UTC text without it). */
  timeZone?: string;
  /** Row cap (default LOG_EXPORT_MAX). */
  max?: number;
}

const truncatedNote = (max: number): LocalizedText => ({
  'zh-CN': `仅导出前 ${max} 条，请缩小查询范围`,
  'en-US': `Only the first ${max} rows were exported; narrow the filters`,
});

/**
 * Sets the download headers and returns the body, a stream the worker fills. With pages, the first
 * read (one row past `max`) decides EXPORT_TRUNCATED_HEADER before the headers go; a failure before
 * then rejects (the caller answers with an error), a later one cuts the stream.
 */
export async function sendExport<R>({ request, reply, format, name, columns, rows, timeZone, max = LOG_EXPORT_MAX }: ExportRequest<R>): Promise<PassThrough> {
  const language = languageFromHeader(request.headers['accept-language']);
  const cellsOf = (row: R) => columns.map((column) => column.value(row, language));
  const layout = (truncated: boolean): ExportLayout => ({
    format, sheetName: name, timeZone, note: truncated ? truncatedNote(max)[language] : undefined,
    headers: columns.map((column) => (column.time && timeZone ? `${column.header[language]} (${timeZone})` : column.header[language])),
    widths: columns.map((column) => column.width ?? 18),
    columns: columns.map((column) => ({
      time: column.time, labels: column.labels && Object.fromEntries(Object.entries(column.labels).map(([value, label]) => [value, label[language]])),
    })),
  });
  const body = new PassThrough();
  // Heard even before Fastify pipes the body (an error then would otherwise end the process).
  body.on('error', (error) => request.log.warn({ err: error }, 'export cut off'));
  let decide: (truncated: boolean) => void = () => {};
  /** Writes the file from `cells` (rows start .. start + limit - 1 as cells) once truncation is known. */
  const write = async (truncated: boolean, cells: (start: number, limit: number) => Promise<Cell[][]>) => {
    decide(truncated);
    const channel = request.server.workers.exportChannel(layout(truncated), (chunk) => body.write(chunk));
    body.on('close', () => { if (!body.writableFinished) channel.abort(); });
    await feed(channel, body, max, cells);
  };
  const truncated = await new Promise<boolean>((resolve, reject) => {
    decide = resolve;
    const run = typeof rows === 'function'
      ? rows(async (page) => write((await page(max, 1)).length > 0, async (start, limit) => (await page(start, limit)).map(cellsOf)))
      : write(rows.length > max, async (start, limit) => rows.slice(start, start + limit).map(cellsOf));
    run.catch((error: unknown) => {
      reject(error); // before the headers: the caller's error answer
      body.destroy(error as Error); // after: the download breaks off
    });
  });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  reply.header(EXPORT_TRUNCATED_HEADER, String(truncated));
  reply.header('content-disposition', `attachment; filename="${name}-${stamp}.${format}"`);
  reply.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  return body;
}

/**
 * Sends rows 0 .. max - 1 (fewer when `cells` runs out) to the worker BATCH at a time, each after the
 * worker wrote the one before, then ends the file and the body. It does not wait for a slow client
 * (the body buffers the file, at most one export's size): a page reader's snapshot is not held for it.
 */
async function feed(channel: ExportChannel, body: PassThrough, max: number, cells: (start: number, limit: number) => Promise<Cell[][]>): Promise<void> {
  for (let start = 0; start < max; start += BATCH) {
    const limit = Math.min(BATCH, max - start);
    const batch = await cells(start, limit);
    if (batch.length > 0) await channel.send(batch);
    if (body.destroyed) return; // the client went away
    if (batch.length < limit) break;
  }
  await channel.end();
  body.end();
}
