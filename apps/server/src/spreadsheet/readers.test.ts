/**
 * The bounded spreadsheet readers: cells read as exceljs reads them (shared, inline and rich
 * strings, numbers, booleans, formula results, sparse columns, empty rows left out), and each limit
 * stops the read with a refusal naming it: rows, columns, cell length, and the archive's entry count,
 * sizes, compression ratio and honesty about its sizes; XML entities are not expanded.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sheetXml, understated, workbookOf, xlsxOf, zipOf } from '../../test/spreadsheet-fixtures.js';
import { readCsv } from './csv-read.js';
import { type SheetLimits, SheetRefusal } from './limits.js';
import { readXlsx } from './xlsx-read.js';

const LIMITS: SheetLimits = { maxRows: 100, maxColumns: 10, maxCellChars: 50 };
const refusalOf = async (read: () => unknown) => {
  try {
    await read();
  } catch (error) {
    if (error instanceof SheetRefusal) return error.reason['en-US'];
    throw error;
  }
  return 'read';
};

describe('the .xlsx reader', () => {
  it('reads the cells exceljs reads, by row number, leaving out empty rows', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('locks');
    sheet.addRow(['IMEI', '名称', '设备类型', 'flag']);
    sheet.addRow([861234500000001, { richText: [{ text: '一' }, { text: '号', font: { bold: true } }] }, 'ZG-NB100', true]);
    sheet.addRow([]);
    sheet.getCell('A4').value = '861234500000019';
    sheet.getCell('C4').value = { formula: 'CONCAT("ZG-","NB200")', result: 'ZG-NB200' };
    sheet.getCell('D4').value = 2.5;
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const read = await readXlsx(file, LIMITS);
    expect(read.header).toEqual(['IMEI', '名称', '设备类型', 'flag']);
    expect(read.rows).toEqual([
      { row: 2, cells: ['861234500000001', '一号', 'ZG-NB100', 'true'] },
      { row: 4, cells: ['861234500000019', '', 'ZG-NB200', '2.5'] },
    ]);
    const streamed = await readXlsx(await xlsxOf([['IMEI'], ['861234500000001'], [''], ['x']], { sharedStrings: false }), LIMITS);
    expect(streamed.rows).toEqual([{ row: 2, cells: ['861234500000001'] }, { row: 4, cells: ['x'] }]);
  });

  it('stops at the first row, column or cell over its limit', async () => {
    const rows = (n: number) => [['IMEI'], ...Array.from({ length: n }, (_, i) => [String(i)])];
    expect((await readXlsx(await xlsxOf(rows(100)), LIMITS)).rows).toHaveLength(100);
    expect(await refusalOf(async () => readXlsx(await xlsxOf(rows(100_000)), LIMITS))).toBe('At most 100 rows per file (this one has more than 100)');
    expect(await refusalOf(async () => readXlsx(await xlsxOf([['a'], [...Array(10).fill(''), 'eleventh']]), LIMITS))).toBe('A sheet may have at most 10 columns');
    expect(await refusalOf(async () => readXlsx(await xlsxOf([['a'], ['x'.repeat(51)]]), LIMITS))).toBe('A cell exceeds 50 characters'); // a shared string: read after the rows
    expect(await refusalOf(async () => readXlsx(await xlsxOf([['a'], ['x'.repeat(51)]], { sharedStrings: false }), LIMITS))).toBe('A cell of row 2 exceeds 50 characters');
  });

  it('refuses zip bombs from the archive\'s directory, and archives that understate a size', async () => {
    const spaces = (mib: number) => ' '.repeat(mib * 1024 * 1024);
    expect(await refusalOf(async () => readXlsx(await workbookOf(sheetXml([['IMEI']], spaces(30))), LIMITS))).toBe('The .xlsx archive is compressed more than 200 times: a zip bomb');
    expect(await refusalOf(async () => readXlsx(await workbookOf(sheetXml([['IMEI']], spaces(65))), LIMITS))).toBe('The .xlsx archive unpacks too large (at most 64 MiB per file)');
    const lying = understated(await workbookOf(sheetXml([['IMEI'], ['1']], spaces(1))), 'xl/worksheets/sheet1.xml', 1000);
    expect(await refusalOf(() => readXlsx(lying, LIMITS))).toBe('The file is not an .xlsx or .csv spreadsheet');
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`junk/${i}.txt`, 'x']));
    expect(await refusalOf(async () => readXlsx(await zipOf(many), LIMITS))).toBe('The .xlsx archive holds too many files (at most 500)');
  });

  it('refuses what is not a workbook, and XML entities are never expanded', async () => {
    const notSpreadsheet = 'The file is not an .xlsx or .csv spreadsheet';
    expect(await refusalOf(() => readXlsx(Buffer.from('504b030400000000', 'hex'), LIMITS))).toBe(notSpreadsheet);
    expect(await refusalOf(async () => readXlsx(await zipOf({ 'a.txt': 'x' }), LIMITS))).toBe(notSpreadsheet);
    const laughs = `<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${sheetXml([['&b;']])}`;
    expect(await refusalOf(async () => readXlsx(await workbookOf(laughs), LIMITS))).toBe(notSpreadsheet);
  });
});

describe('the CSV reader', () => {
  it('reads records with their numbers (a BOM dropped, empty rows left out) and stops at each limit', async () => {
    expect(readCsv(Buffer.from('\uFEFFIMEI,名称\n1,"a,b"\n,\n2,c\n'), LIMITS)).toEqual({ header: ['IMEI', '名称'], rows: [{ row: 2, cells: ['1', 'a,b'] }, { row: 4, cells: ['2', 'c'] }] });
    const lines = (n: number) => Buffer.from(['IMEI', ...Array.from({ length: n }, (_, i) => String(i))].join('\n'));
    expect(readCsv(lines(100), LIMITS).rows).toHaveLength(100);
    expect(await refusalOf(() => readCsv(lines(200_000), LIMITS))).toBe('At most 100 rows per file (this one has more than 100)');
    expect(await refusalOf(() => readCsv(Buffer.from(`a\n${',x'.repeat(10)}`), LIMITS))).toBe('A sheet may have at most 10 columns');
    expect(await refusalOf(() => readCsv(Buffer.from(`a\n${'x'.repeat(51)}`), LIMITS))).toBe('A cell of row 2 exceeds 50 characters');
    expect(await refusalOf(() => readCsv(Buffer.from(`a\n"${'x'.repeat(600)}`), LIMITS))).toMatch(/exceeds 50 characters|not an .xlsx/);
    expect(await refusalOf(() => readCsv(Buffer.from([0x61, 0x0a, 0xff, 0xfe]), LIMITS))).toBe('The file is not an .xlsx or .csv spreadsheet');
    expect(await refusalOf(() => readCsv(Buffer.from('a\n\u0000'), LIMITS))).toBe('The file is not an .xlsx or .csv spreadsheet');
  });
});
