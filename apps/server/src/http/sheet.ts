/**
 * Reading an uploaded spreadsheet into rows keyed by column (holiday calendars), on top of
 * the worker-thread reader (app.workers.readSheet: .xlsx or UTF-8 CSV, stops at the first
 * limit). The header row names the columns in either language or by key (case and spaces ignored).
 * Errors (all 400 on `body.file`, both languages): not a spreadsheet, a limit passed (named), a
 * required column missing, no data rows.
 */
import type { LocalizedText } from '@iot/contract';
import { type Sheet, type SheetLimits, SheetRefusal } from '../spreadsheet/limits.js';
import type { Workers } from '../workers/pool.js';
import { ApiError, fieldError } from './api-error.js';

/** What a sheet must look like: its columns (keys), their headers, the required ones, the row limit. */
export interface SheetSpec<C extends string> {
  columns: readonly C[];
  headers: Record<C, LocalizedText>;
  required: readonly C[];
  maxRows: number;
}

/** A data row: its number in the file (header = 1) and its cells by column ('' when absent). */
export interface SheetRow<C extends string> {
  row: number;
  cells: Record<C, string>;
}

/** Columns a file may hold (room for the operator's own beside the template's). */
const MAX_COLUMNS = 64;
/** Characters of one cell. */
const MAX_CELL_CHARS = 2_000;
const normal = (text: string) => text.replace(/\s+/g, '').toLowerCase();

/** The reader's limits for a sheet of `spec`. */
export const sheetLimits = (spec: SheetSpec<string>): SheetLimits => ({ maxRows: spec.maxRows, maxColumns: MAX_COLUMNS, maxCellChars: MAX_CELL_CHARS });

/** The file's data rows by column, read in a worker thread; wholly empty rows are skipped (the reader leaves them out). */
export async function readSheet<C extends string>(workers: Workers, bytes: Uint8Array, spec: SheetSpec<C>): Promise<SheetRow<C>[]> {
  const sheet = await workers.readSheet(bytes, sheetLimits(spec)).catch((error: unknown) => {
    throw error instanceof SheetRefusal ? new ApiError('VALIDATION_FAILED', [{ field: 'body.file', message: error.reason }]) : error;
  });
  return rowsOfSheet(sheet, spec);
}

/** A read sheet's data rows by column (header cells matched in either language or by key). */
export function rowsOfSheet<C extends string>(sheet: Sheet, spec: SheetSpec<C>): SheetRow<C>[] {
  const index = new Map<string, C>(spec.columns.flatMap((column) => [
    [normal(column), column], [normal(spec.headers[column]['zh-CN']), column], [normal(spec.headers[column]['en-US']), column],
  ] as [string, C][]));
  const header = sheet.header.map((cell) => index.get(normal(cell)));
  const missing = spec.required.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    const names = (language: 'zh-CN' | 'en-US') => missing.map((column) => spec.headers[column][language]).join(', ');
    throw fieldError('body.file', `表头缺少列：${names('zh-CN')}（请使用导入模板）`, `The header lacks the columns ${names('en-US')} (use the import template)`);
  }
  const rows = sheet.rows.map(({ row, cells: line }) => {
    const cells = Object.fromEntries(spec.columns.map((column) => [column, ''])) as Record<C, string>;
    header.forEach((column, at) => { if (column) cells[column] = (line[at] ?? '').trim(); });
    return { row, cells };
  });
  if (rows.length === 0) throw fieldError('body.file', '文件中没有数据行', 'The file has no data rows');
  return rows;
}
