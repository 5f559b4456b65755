/**
 * Reads an uploaded lock import file into rows of text cells keyed by column (contract IMPORT_COLUMNS):
 * the first sheet of an .xlsx workbook, or UTF-8 CSV, parsed in a worker thread that stops at the first
 * limit (app.workers.readSheet: IMPORT_MAX_ROWS data rows, IMPORT_MAX_COLUMNS columns,
 * IMPORT_MAX_CELL_CHARS characters a cell, the .xlsx archive's sizes and ratio), so a file far over a
 * limit is refused about as fast as one at it. The header row names the columns in either language or
 * by key. Errors (all 400 on body.file, both languages): not a spreadsheet, a limit passed (named), a
 * required column missing, no data rows.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { IMPORT_COLUMNS, IMPORT_HEADERS, IMPORT_MAX_ROWS, IMPORT_REQUIRED, type ImportColumn } from '@iot/contract';
import { ApiError, fieldError } from '../../../http/api-error.js';
import type { SheetLimits } from '../../../spreadsheet/limits.js';
import { SheetRefusal } from '../../../spreadsheet/limits.js';
import type { Workers } from '../../../workers/pool.js';

/** A data row: its number in the file (header = 1) and its cells by column ('' when absent). */
export interface ImportRow {
  row: number;
  cells: Record<ImportColumn, string>;
}

/** Rows mapped between two turns of the event loop (10,000 rows held it ~20 ms at once under load). */
const YIELD_EVERY = 2_000;
/** Columns a file may use (the template has 9; room for the operator's own). */
const IMPORT_MAX_COLUMNS = 64;
/** Characters of one cell (the longest field, the note, allows fewer: the row's check says so). */
const IMPORT_MAX_CELL_CHARS = 2_000;
const LIMITS: SheetLimits = { maxRows: IMPORT_MAX_ROWS, maxColumns: IMPORT_MAX_COLUMNS, maxCellChars: IMPORT_MAX_CELL_CHARS };

/** Header text -> column: each language's header, the key itself, case and spaces ignored. */
const HEADER_INDEX = new Map<string, ImportColumn>(IMPORT_COLUMNS.flatMap((column) => [
  [normal(column), column], [normal(IMPORT_HEADERS[column]['zh-CN']), column], [normal(IMPORT_HEADERS[column]['en-US']), column],
] as [string, ImportColumn][]));

function normal(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}

/** The file's data rows by column; wholly empty rows are skipped. */
export async function readImportFile(workers: Workers, bytes: Uint8Array): Promise<ImportRow[]> {
  const sheet = await workers.readSheet(bytes, LIMITS).catch((error: unknown) => {
    throw error instanceof SheetRefusal ? new ApiError('VALIDATION_FAILED', [{ field: 'body.file', message: error.reason }]) : error;
  });
  const header = sheet.header.map((cell) => HEADER_INDEX.get(normal(cell)));
  const missing = IMPORT_REQUIRED.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    const names = (language: 'zh-CN' | 'en-US') => missing.map((column) => IMPORT_HEADERS[column][language]).join(', ');
    throw fieldError('body.file', `表头缺少列：${names('zh-CN')}（请使用导入模板）`, `The header lacks the columns ${names('en-US')} (use the import template)`);
  }
  const rows: ImportRow[] = [];
  for (const [index, { row, cells: line }] of sheet.rows.entries()) {
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    const cells = Object.fromEntries(IMPORT_COLUMNS.map((column) => [column, ''])) as Record<ImportColumn, string>;
    header.forEach((column, at) => { if (column) cells[column] = (line[at] ?? '').trim(); });
    rows.push({ row, cells });
  }
  if (rows.length === 0) throw fieldError('body.file', '文件中没有数据行', 'The file has no data rows');
  return rows;
}
