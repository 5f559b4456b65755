/**
 * Exports (every log's and the system log's) as CSV (csv-stringify: UTF-8 with BOM, header row,
 * formula-like cells defused) or Excel (exceljs streaming writer: one sheet, bold header, frozen first
 * row), in the caller's language (Accept-Language): column headers and enum labels localized, times in
 * the given time zone (the data centre's, issue #24; the zone named in the header): `YYYY-MM-DD
 * HH:mm:ss` text in CSV, real date cells (that wall-clock time, formatted `yyyy-mm-dd hh:mm:ss`) in
 * Excel; ISO 8601 UTC text without a zone. At most `max` rows (default LOG_EXPORT_MAX); when more matched, the EXPORT_TRUNCATED_HEADER
 * response header says `true` (and the last CSV line / the sheet's last row say so in words).
 */
import { PassThrough } from 'node:stream';
import { EXPORT_TRUNCATED_HEADER, type ExportFormat, type Language, languageFromHeader, type LocalizedText, LOG_EXPORT_MAX } from '@iot/contract';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Cell = string | number | boolean | null;

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

/** Neutralises a cell a spreadsheet would evaluate as a formula (OWASP "CSV injection"): `'` before = + - @ tab CR. */
export function defuseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD HH:mm:ss` of an ISO time in `timeZone` (the sv-SE locale writes exactly that). */
function localTime(isoText: string, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  return format.format(new Date(isoText));
}

/** An Excel date cell showing `isoText`'s wall-clock time in `timeZone` (Excel dates carry no zone). */
function wallClockDate(isoText: string, timeZone: string): Date {
  const [date, time] = localTime(isoText, timeZone).split(' ') as [string, string];
  return new Date(`${date}T${time}Z`);
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
  /** The IANA time zone times are written in (the data centre's; ISO 8601 UTC text without it). */
  timeZone?: string;
  /** Row cap (default LOG_EXPORT_MAX). */
  max?: number;
}

const truncatedNote = (max: number): LocalizedText => ({
  'zh-CN': `仅导出前 ${max} 条，请缩小查询范围`,
  'en-US': `Only the first ${max} rows were exported; narrow the filters`,
});

/** Sets the download headers and returns the body (a CSV string or an xlsx stream). */
export function sendExport<R>({ request, reply, format, name, columns, rows, timeZone, max = LOG_EXPORT_MAX }: ExportRequest<R>): string | PassThrough {
  const language = languageFromHeader(request.headers['accept-language']);
  const truncated = rows.length > max;
  const kept = truncated ? rows.slice(0, max) : rows;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  reply.header(EXPORT_TRUNCATED_HEADER, String(truncated));
  reply.header('content-disposition', `attachment; filename="${name}-${stamp}.${format}"`);
  const headers = columns.map((column) => (column.time && timeZone ? `${column.header[language]} (${timeZone})` : column.header[language]));
  const cell = (column: ExportColumn<R>, row: R): Cell | Date => {
    const value = column.value(row, language);
    if (value === null || value === '') return value;
    if (column.labels) return column.labels[String(value)]?.[language] ?? value;
    if (!column.time || !timeZone) return value;
    return format === 'xlsx' ? wallClockDate(String(value), timeZone) : localTime(String(value), timeZone);
  };
  const table: (Cell | Date)[][] = kept.map((row) => columns.map((column) => cell(column, row)));
  if (truncated) table.push([truncatedNote(max)[language], ...columns.slice(1).map(() => null)]);
  if (format === 'csv') {
    reply.type('text/csv; charset=utf-8');
    return stringify([headers, ...table], { bom: true, cast: { string: defuseFormula, boolean: (value) => String(value) } });
  }
  reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const stream = new PassThrough();
  const layout = columns.map((c) => ({ width: c.width ?? 18, date: c.time !== undefined && timeZone !== undefined }));
  void writeWorkbook(stream, name, headers, layout, table).catch((error) => stream.destroy(error));
  return stream;
}

/** Streams one sheet to `stream` (rows committed as they are written, so memory stays flat). */
async function writeWorkbook(stream: PassThrough, name: string, headers: string[], layout: { width: number; date: boolean }[], table: (Cell | Date)[][]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = headers.map((header, index) => ({
    header, width: layout[index]?.width, ...(layout[index]?.date ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const [index, cells] of table.entries()) {
    sheet.addRow(cells).commit();
    if (index % 5000 === 4999) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await workbook.commit();
}
