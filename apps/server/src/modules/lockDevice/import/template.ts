/**
 * The lock import template (.xlsx or .csv): the header row in the caller's language (contract
 * IMPORT_HEADERS); in .xlsx the IMEI and ICCID columns are text, so a spreadsheet keeps their digits.
 * sendSheetTemplate serves every import's template (holiday calendars too).
 */
import { IMPORT_COLUMNS, IMPORT_HEADERS, languageFromHeader, type LocalizedText } from '@iot/contract';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TEXT_COLUMNS = new Set(['imei', 'iccid']);

/** Sets the download headers and returns the template's bytes. */
export function sendTemplate(request: FastifyRequest, reply: FastifyReply, format: 'csv' | 'xlsx'): Promise<string | Buffer> {
  return sendSheetTemplate(request, reply, format, {
    name: 'lock-import-template', sheet: 'locks', columns: IMPORT_COLUMNS, headers: IMPORT_HEADERS, textColumns: TEXT_COLUMNS, wide: new Set(['note', 'name']),
  });
}

/** A template to fill: its file and sheet name, columns and headers, the text columns (digits kept) and the wide ones. */
export interface SheetTemplate<C extends string> {
  name: string;
  sheet: string;
  columns: readonly C[];
  headers: Record<C, LocalizedText>;
  textColumns?: ReadonlySet<string>;
  wide?: ReadonlySet<string>;
}

/** Sets the download headers and returns an import template's bytes: the header row in the caller's language. */
export async function sendSheetTemplate<C extends string>(request: FastifyRequest, reply: FastifyReply, format: 'csv' | 'xlsx', spec: SheetTemplate<C>): Promise<string | Buffer> {
  const language = languageFromHeader(request.headers['accept-language']);
  const headers = spec.columns.map((column) => spec.headers[column][language]);
  reply.header('content-disposition', `attachment; filename="${spec.name}.${format}"`);
  if (format === 'csv') {
    reply.type('text/csv; charset=utf-8');
    return stringify([headers], { bom: true });
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(spec.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = spec.columns.map((column, index) => ({
    header: headers[index], key: column, width: spec.wide?.has(column) ? 24 : 20,
    style: spec.textColumns?.has(column) ? { numFmt: '@' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
