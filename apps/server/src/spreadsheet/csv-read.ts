/**
 * Reads a CSV file (UTF-8, optional BOM; csv-parse) as text cells and stops at the first limit
 * (SheetLimits) it passes: the row after the last allowed one, a column past the limit, a cell or a
 * record too long. Binary content (NUL, bytes that are not UTF-8) is not a spreadsheet. Throws SheetRefusal.
 */
import { isUtf8 } from 'node:buffer';
import { CsvError, parse } from 'csv-parse/sync';
import { refuse, type Sheet, SheetRefusal, type SheetLimits, type SheetRow } from './limits.js';

/** The header and data rows of the CSV file in `buffer` (wholly empty rows left out). */
export function readCsv(buffer: Buffer, limits: SheetLimits): Sheet {
  if (buffer.includes(0) || !isUtf8(buffer)) throw refuse.notSpreadsheet();
  let header: string[] | undefined;
  const rows: SheetRow[] = [];
  let number = 0;
  try {
    parse(buffer, {
      bom: true, relax_column_count: true, skip_empty_lines: false,
      max_record_size: limits.maxColumns * (limits.maxCellChars + 1),
      on_record: (record: string[]) => {
        number += 1;
        const cells = record.map((cell) => cell ?? '');
        const filled = cells.reduce((last, cell, index) => (cell.trim() === '' ? last : index), -1);
        if (filled >= limits.maxColumns) throw refuse.tooManyColumns(limits.maxColumns);
        if (cells.some((cell) => cell.length > limits.maxCellChars)) throw refuse.cellTooLong(limits.maxCellChars, number);
        if (header === undefined) header = cells;
        else if (filled >= 0) {
          rows.push({ row: number, cells });
          if (rows.length > limits.maxRows) throw refuse.tooManyRows(limits.maxRows);
        }
        return null; // kept here, not in csv-parse's result
      },
    });
  } catch (error) {
    if (error instanceof SheetRefusal) throw error;
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') throw refuse.cellTooLong(limits.maxCellChars, number + 1);
    throw refuse.notSpreadsheet();
  }
  return { header: header ?? [], rows };
}
