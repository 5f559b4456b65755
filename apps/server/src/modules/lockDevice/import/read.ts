/**
 * Reads an uploaded lock import file into rows of text cells keyed by column (contract IMPORT_COLUMNS):
 * an .xlsx workbook (exceljs, first sheet) when the bytes are a zip archive, else UTF-8 CSV (csv-parse;
 * a BOM is dropped). The header row names the columns in either language or by key. Errors (all 400,
 * both languages): not a spreadsheet, a required column missing, no data rows, more than IMPORT_MAX_ROWS.
 */
import { IMPORT_COLUMNS, IMPORT_HEADERS, IMPORT_MAX_ROWS, IMPORT_REQUIRED, type ImportColumn } from '@iot/contract';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { fieldError } from '../../../http/api-error.js';

/** A data row: its number in the file (header = 1) and its cells by column ('' when absent). */
export interface ImportRow {
  row: number;
  cells: Record<ImportColumn, string>;
}

const notSpreadsheet = () => fieldError('body.file', '文件不是 .xlsx 或 .csv 表格', 'The file is not an .xlsx or .csv spreadsheet');
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Header text -> column: each language's header, the key itself, case and spaces ignored. */
const HEADER_INDEX = new Map<string, ImportColumn>(IMPORT_COLUMNS.flatMap((column) => [
  [normal(column), column], [normal(IMPORT_HEADERS[column]['zh-CN']), column], [normal(IMPORT_HEADERS[column]['en-US']), column],
] as [string, ImportColumn][]));

function normal(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}

/** The cell grid of the first sheet of an .xlsx file. */
async function xlsxGrid(buffer: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw notSpreadsheet();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw notSpreadsheet();
  const grid: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => { cells[column - 1] = cell.text ?? ''; });
    grid[number - 1] = cells;
  });
  return Array.from(grid, (cells) => Array.from(cells ?? [], (cell) => cell ?? ''));
}

/** The cell grid of a CSV file (UTF-8, optional BOM); binary content is refused. */
function csvGrid(buffer: Buffer): string[][] {
  const text = buffer.toString('utf8');
  if (text.includes('\u0000') || text.includes('\uFFFD')) throw notSpreadsheet();
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
  } catch {
    throw notSpreadsheet();
  }
}

/** The file's data rows by column; wholly empty rows are skipped. */
export async function readImportFile(buffer: Buffer): Promise<ImportRow[]> {
  const grid = buffer.subarray(0, 4).equals(ZIP) ? await xlsxGrid(buffer) : csvGrid(buffer);
  const header = (grid[0] ?? []).map((cell) => HEADER_INDEX.get(normal(String(cell))));
  const missing = IMPORT_REQUIRED.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    const names = (language: 'zh-CN' | 'en-US') => missing.map((column) => IMPORT_HEADERS[column][language]).join(', ');
    throw fieldError('body.file', `表头缺少列：${names('zh-CN')}（请使用导入模板）`, `The header lacks the columns ${names('en-US')} (use the import template)`);
  }
  const rows: ImportRow[] = [];
  for (const [index, line] of grid.entries()) {
    if (index === 0 || line.every((cell) => String(cell).trim() === '')) continue;
    const cells = Object.fromEntries(IMPORT_COLUMNS.map((column) => [column, ''])) as Record<ImportColumn, string>;
    header.forEach((column, at) => { if (column) cells[column] = String(line[at] ?? '').trim(); });
    rows.push({ row: index + 1, cells });
  }
  if (rows.length === 0) throw fieldError('body.file', '文件中没有数据行', 'The file has no data rows');
  if (rows.length > IMPORT_MAX_ROWS) {
    throw fieldError('body.file', `一次最多导入 ${IMPORT_MAX_ROWS} 行（本文件 ${rows.length} 行）`, `At most ${IMPORT_MAX_ROWS} rows per file (this one has ${rows.length})`);
  }
  return rows;
}
