/**
 * The lock import template (.xlsx or .csv): the header row in the caller's language (contract
 * IMPORT_HEADERS); in .xlsx the IMEI and ICCID columns are text, so a spreadsheet keeps their digits.
 */
import { IMPORT_COLUMNS, IMPORT_HEADERS, languageFromHeader } from '@iot/contract';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TEXT_COLUMNS = new Set(['imei', 'iccid']);

/** Sets the download headers and returns the template's bytes. */
export async function sendTemplate(request: FastifyRequest, reply: FastifyReply, format: 'csv' | 'xlsx'): Promise<string | Buffer> {
  const language = languageFromHeader(request.headers['accept-language']);
  const headers = IMPORT_COLUMNS.map((column) => IMPORT_HEADERS[column][language]);
  reply.header('content-disposition', `attachment; filename="lock-import-template.${format}"`);
  if (format === 'csv') {
    reply.type('text/csv; charset=utf-8');
    return stringify([headers], { bom: true });
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('locks', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = IMPORT_COLUMNS.map((column, index) => ({
    header: headers[index], key: column, width: column === 'note' || column === 'name' ? 24 : 20,
    style: TEXT_COLUMNS.has(column) ? { numFmt: '@' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
