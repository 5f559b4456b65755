/**
 * Log exports as CSV (csv-stringify: UTF-8 with BOM, header row, formula-like cells defused) or Excel
 * (exceljs streaming writer: one sheet, bold header, frozen first row). At most LOG_EXPORT_MAX rows;
 * when more matched, the EXPORT_TRUNCATED_HEADER response header says `true` (and the last CSV line /
 * the sheet's last row say so in words).
 */
import { PassThrough } from 'node:stream';
import { EXPORT_TRUNCATED_HEADER, type ExportFormat, languageFromHeader, type LocalizedText, LOG_EXPORT_MAX } from '@iot/contract';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defuseFormula } from '../audit/csv.js';

export type Cell = string | number | boolean | null;

/** One exported column: header in both languages and the cell of a row. */
export interface ExportColumn<R> {
  header: LocalizedText;
  value: (row: R) => Cell;
  /** Excel column width, characters. */
  width?: number;
}

export interface ExportRequest<R> {
  request: FastifyRequest;
  reply: FastifyReply;
  format: ExportFormat;
  /** File name without extension, e.g. `heartbeat-log`. */
  name: string;
  columns: readonly ExportColumn<R>[];
  /** Up to LOG_EXPORT_MAX + 1 rows: one more than the cap means "truncated". */
  rows: readonly R[];
}

const TRUNCATED_NOTE: LocalizedText = {
  'zh-CN': `仅导出前 ${LOG_EXPORT_MAX} 条，请缩小查询范围`,
  'en-US': `Only the first ${LOG_EXPORT_MAX} rows were exported; narrow the filters`,
};

/** Sets the download headers and returns the body (a CSV string or an xlsx stream). */
export function sendExport<R>({ request, reply, format, name, columns, rows }: ExportRequest<R>): string | PassThrough {
  const language = languageFromHeader(request.headers['accept-language']);
  const truncated = rows.length > LOG_EXPORT_MAX;
  const kept = truncated ? rows.slice(0, LOG_EXPORT_MAX) : rows;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  reply.header(EXPORT_TRUNCATED_HEADER, String(truncated));
  reply.header('content-disposition', `attachment; filename="${name}-${stamp}.${format}"`);
  const headers = columns.map((column) => column.header[language]);
  const table = kept.map((row) => columns.map((column) => column.value(row)));
  if (truncated) table.push([TRUNCATED_NOTE[language], ...columns.slice(1).map(() => null)]);
  if (format === 'csv') {
    reply.type('text/csv; charset=utf-8');
    return stringify([headers, ...table], { bom: true, cast: { string: defuseFormula, boolean: (value) => String(value) } });
  }
  reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const stream = new PassThrough();
  void writeWorkbook(stream, name, headers, columns.map((c) => c.width ?? 18), table).catch((error) => stream.destroy(error));
  return stream;
}

/** Streams one sheet to `stream` (rows committed as they are written, so memory stays flat). */
async function writeWorkbook(stream: PassThrough, name: string, headers: string[], widths: number[], table: Cell[][]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = headers.map((header, index) => ({ header, width: widths[index] }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for (const [index, cells] of table.entries()) {
    sheet.addRow(cells).commit();
    if (index % 5000 === 4999) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await workbook.commit();
}
