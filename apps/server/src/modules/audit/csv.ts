/**
 * System log as CSV (csv-stringify): a header row, UTF-8 with a byte-order mark so spreadsheet programs
 * read Chinese correctly, and every cell that a spreadsheet would run as a formula (starting with
 * = + - @ tab or carriage return) prefixed with an apostrophe (OWASP "CSV injection").
 */
import type { SystemLogRecord } from '@iot/contract';
import { stringify } from 'csv-stringify/sync';

/** Column key and header of the export, in order. */
export const CSV_COLUMNS = [
  { key: 'id', header: 'id' },
  { key: 'createdAt', header: 'createdAt' },
  { key: 'username', header: 'username' },
  { key: 'action', header: 'action' },
  { key: 'target', header: 'target' },
  { key: 'result', header: 'result' },
  { key: 'clientIp', header: 'clientIp' },
  { key: 'detail', header: 'detail' },
] as const;

/** Neutralises a cell a spreadsheet would evaluate as a formula. */
export function defuseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The rows as one CSV document. */
export function toCsv(rows: readonly SystemLogRecord[]): string {
  const records = rows.map((row) => ({ ...row, detail: row.detail ? JSON.stringify(row.detail) : '' }));
  return stringify(records, {
    bom: true,
    header: true,
    columns: CSV_COLUMNS.map(({ key, header }) => ({ key, header })),
    cast: { string: defuseFormula },
  });
}
