/**
 * Exports (every log's and the system log's) as CSV or Excel, in the caller's language
 * (Accept-Language): column headers and enum labels localized, times in the operator's time zone when
 * given (`YYYY-MM-DD HH:mm:ss`, the zone named in the header), else ISO 8601 UTC. At most `max` rows
 * (default LOG_EXPORT_MAX); when more matched, the EXPORT_TRUNCATED_HEADER response header says `true`
 * (and the last CSV line / the sheet's last row say so in words).
 *
 * The file is written in a worker thread (spreadsheet/export-write.ts through app.workers, issue #31):
 * the event loop only takes each row's raw cells, BATCH rows at a time, and passes the worker's bytes
 * on to the response as they come, waiting for the client when it reads slower.
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

export interface ExportRequest<R> {
  request: FastifyRequest;
  reply: FastifyReply;
  format: ExportFormat;
  /** File name without extension, e.g. `heartbeat-log`. */
  name: string;
  columns: readonly ExportColumn<R>[];
  /** Up to `max` + 1 rows: one more than the cap means "truncated". */
  rows: readonly R[];
  /** The operator's IANA time zone (times as ISO 8601 UTC without it). */
  timeZone?: string;
  /** Row cap (default LOG_EXPORT_MAX). */
  max?: number;
}

const truncatedNote = (max: number): LocalizedText => ({
  'zh-CN': `仅导出前 ${max} 条，请缩小查询范围`,
  'en-US': `Only the first ${max} rows were exported; narrow the filters`,
});

/** Sets the download headers and returns the body: a stream the worker fills. */
export function sendExport<R>({ request, reply, format, name, columns, rows, timeZone, max = LOG_EXPORT_MAX }: ExportRequest<R>): PassThrough {
  const language = languageFromHeader(request.headers['accept-language']);
  const truncated = rows.length > max;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  reply.header(EXPORT_TRUNCATED_HEADER, String(truncated));
  reply.header('content-disposition', `attachment; filename="${name}-${stamp}.${format}"`);
  reply.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const layout: ExportLayout = {
    format, sheetName: name, timeZone, note: truncated ? truncatedNote(max)[language] : undefined,
    headers: columns.map((column) => (column.time && timeZone ? `${column.header[language]} (${timeZone})` : column.header[language])),
    widths: columns.map((column) => column.width ?? 18),
    columns: columns.map((column) => ({
      time: column.time, labels: column.labels && Object.fromEntries(Object.entries(column.labels).map(([value, label]) => [value, label[language]])),
    })),
  };
  const body = new PassThrough();
  const channel = request.server.workers.exportChannel(layout, (chunk) => body.write(chunk));
  body.on('close', () => { if (!body.writableFinished) channel.abort(); });
  void feed(channel, body, Math.min(rows.length, max), (index) => columns.map((column) => column.value(rows[index] as R, language)))
    .catch((error) => body.destroy(error));
  return body;
}

/** Sends `count` rows' cells in batches, waiting for the worker and for a slow client between them. */
async function feed(channel: ExportChannel, body: PassThrough, count: number, cellsOf: (index: number) => Cell[]): Promise<void> {
  for (let start = 0; start < count; start += BATCH) {
    const batch: Cell[][] = [];
    for (let index = start; index < Math.min(count, start + BATCH); index++) batch.push(cellsOf(index));
    await channel.send(batch);
    if (body.destroyed) return;
    if (body.writableNeedDrain) await new Promise((resolve) => { body.once('drain', resolve); body.once('close', resolve); });
  }
  await channel.end();
  body.end();
}
