/**
 * What an uploaded spreadsheet may hold, and how a refusal is said (one request must never
 * stall everyone): the readers (csv-read.ts, xlsx-read.ts) stop at the first limit they pass, so a
 * file of 200,000 rows or a zip bomb costs about what a file at the limit costs. A refusal carries its
 * message in both languages, naming the limit; it crosses from the worker thread as plain data.
 */
import type { LocalizedText } from '@iot/contract';
import { localized } from '@iot/contract';

/** Limits of one sheet. */
export interface SheetLimits {
  /** Data rows (rows after the header with at least one non-empty cell). */
  maxRows: number;
  /** Columns holding a value (1-based index of the rightmost one). */
  maxColumns: number;
  /** Characters of one cell. */
  maxCellChars: number;
}

/** Limits of the zip container of an .xlsx file (declared sizes checked before anything is inflated). */
export const ZIP_LIMITS = {
  /** Entries (files) in the archive; a workbook has 10-20. */
  maxEntries: 500,
  /** Uncompressed bytes of one entry. */
  maxEntryBytes: 64 * 1024 * 1024,
  /** Uncompressed bytes of all entries together. */
  maxTotalBytes: 128 * 1024 * 1024,
  /** Uncompressed / compressed bytes of an entry larger than 1 MiB (deflate's own limit is about 1032). */
  maxRatio: 200,
} as const;

/** A data row: its number in the file (the header is row 1) and its cells by column index ('' when absent). */
export interface SheetRow {
  row: number;
  cells: string[];
}

/** The first sheet of a file: its header row and its data rows (wholly empty rows left out). */
export interface Sheet {
  header: string[];
  rows: SheetRow[];
}

/** The reason a file is refused, in both languages (the caller names the upload's field). */
export class SheetRefusal extends Error {
  constructor(readonly reason: LocalizedText) {
    super(reason['en-US']);
  }
}

const refusal = (zh: string, en: string) => new SheetRefusal(localized(zh, en));

/** The refusals, each naming its limit. */
export const refuse = {
  notSpreadsheet: () => refusal('文件不是 .xlsx 或 .csv 表格', 'The file is not an .xlsx or .csv spreadsheet'),
  tooManyRows: (max: number) => refusal(`一次最多导入 ${max} 行（本文件超过 ${max} 行）`, `At most ${max} rows per file (this one has more than ${max})`),
  tooManyColumns: (max: number) => refusal(`表格最多 ${max} 列`, `A sheet may have at most ${max} columns`),
  cellTooLong: (max: number, row?: number) => (row === undefined
    ? refusal(`有单元格超过 ${max} 个字符`, `A cell exceeds ${max} characters`)
    : refusal(`第 ${row} 行有单元格超过 ${max} 个字符`, `A cell of row ${row} exceeds ${max} characters`)),
  zipEntries: (max: number) => refusal(`.xlsx 文件内含文件过多（最多 ${max} 个）`, `The .xlsx archive holds too many files (at most ${max})`),
  zipTooBig: (maxMiB: number) => refusal(`.xlsx 文件解压后过大（单个文件最多 ${maxMiB} MiB）`, `The .xlsx archive unpacks too large (at most ${maxMiB} MiB per file)`),
  zipRatio: (max: number) => refusal(`.xlsx 文件压缩比异常（超过 ${max} 倍），疑似压缩炸弹`, `The .xlsx archive is compressed more than ${max} times: a zip bomb`),
  encrypted: () => refusal('.xlsx 文件已加密，请先取消密码保护', 'The .xlsx file is encrypted; remove its password first'),
};
