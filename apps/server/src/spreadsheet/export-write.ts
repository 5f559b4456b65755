/**
 * Writes an export file from batches of raw cells, in the worker thread (http/export.ts sends them):
 * CSV (csv-stringify: UTF-8 with BOM, header row, formula-like cells defused) or Excel (exceljs
 * streaming writer: one sheet, bold header, frozen first row). Enum values become their labels and
 * ISO times `YYYY-MM-DD HH:mm:ss` in the layout's time zone (else they stay ISO 8601 UTC): text in CSV,
 * real date cells showing that wall-clock time in Excel (Excel dates carry no zone). The bytes
 * go to `emit` as they are produced.
 */
import { PassThrough } from 'node:stream';
import type { ExportFormat } from '@iot/contract';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';

/** A cell as the main thread extracts it from a row. */
export type Cell = string | number | boolean | null;
/** A cell as written: Excel also takes dates. */
type WrittenCell = Cell | Date;

/** Everything the writer needs to know about an export, as plain data (it crosses to the worker). */
export interface ExportLayout {
  format: ExportFormat;
  /** Sheet name (Excel: at most 31 characters). */
  sheetName: string;
  /** Column headers in the caller's language. */
  headers: string[];
  /** Excel column widths, characters. */
  widths: number[];
  /** Per column: labels of its enum values in the caller's language; `time`: an ISO 8601 time. */
  columns: { labels?: Record<string, string>; time?: boolean }[];
  /** IANA zone of the times (ISO 8601 UTC without it). */
  timeZone?: string;
  /** A last line in words (e.g. "only the first N rows"). */
  note?: string;
}

/** Neutralises a cell a spreadsheet would evaluate as a formula (OWASP "CSV injection"): `'` before = + - @ tab CR. */
function defuseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** `YYYY-MM-DD HH:mm:ss` of ISO times in one zone (the sv-SE locale writes exactly that). */
function localTimes(timeZone: string): (isoText: string) => string {
  const format = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  return (isoText) => format.format(new Date(isoText));
}

/** A writer of one export: `write` each batch in order, then `end` once. */
export interface ExportWriter {
  write(rows: Cell[][]): Promise<void>;
  end(): Promise<void>;
}

/** Opens a writer of `layout` whose bytes (or CSV text) go to `emit`. */
export function exportWriter(layout: ExportLayout, emit: (chunk: Uint8Array | string) => void): ExportWriter {
  const local = layout.timeZone ? localTimes(layout.timeZone) : undefined;
  const excel = layout.format === 'xlsx';
  const cellOf = (value: Cell, index: number): WrittenCell => {
    if (value === null || value === '') return value;
    const column = layout.columns[index];
    if (column?.labels) return column.labels[String(value)] ?? value;
    if (!column?.time || !local) return value;
    const text = local(String(value));
    return excel ? new Date(`${text.replace(' ', 'T')}Z`) : text; // the wall-clock time as the cell's date
  };
  const table = (rows: Cell[][]) => rows.map((cells) => cells.map(cellOf));
  const noteRow = (): Cell[] => [layout.note ?? '', ...layout.headers.slice(1).map(() => null)];
  if (layout.format === 'csv') {
    const csv = (rows: WrittenCell[][], bom: boolean) => stringify(rows, { bom, cast: { string: defuseFormula, boolean: (value) => String(value) } });
    emit(csv([layout.headers], true));
    return {
      write: async (rows) => emit(csv(table(rows), false)),
      end: async () => { if (layout.note) emit(csv([noteRow()], false)); },
    };
  }
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => emit(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(layout.sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = layout.headers.map((header, index) => ({
    header, width: layout.widths[index], ...(layout.columns[index]?.time && local ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return {
    write: async (rows) => { for (const cells of table(rows)) sheet.addRow(cells).commit(); },
    end: async () => {
      if (layout.note) sheet.addRow(noteRow()).commit();
      sheet.commit();
      await workbook.commit();
      await new Promise<void>((resolve) => { if (stream.readableEnded) resolve(); else stream.once('end', resolve); });
    },
  };
}
