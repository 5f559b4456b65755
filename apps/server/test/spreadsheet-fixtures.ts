/**
 * Spreadsheet files for the import tests and the bench: real workbooks written by exceljs's streaming
 * writer (shared or inline strings), and hand-made archives (yazl) for what no spreadsheet program
 * writes: zip bombs, a sheet of bare XML, an archive whose directory understates an entry's size.
 */
import { PassThrough } from 'node:stream';
import { imeiWithCheckDigit } from '@iot/contract';
import ExcelJS from 'exceljs';
import yazl from 'yazl';

/** An .xlsx file of `rows` (first row = header) in one sheet. */
export async function xlsxOf(rows: Iterable<(string | number | boolean)[]>, { sharedStrings = true } = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: sharedStrings, useStyles: false });
  const sheet = workbook.addWorksheet('locks');
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

/** A valid IMEI (Luhn) for row `n`, distinct per `n` below 10^6. */
export const importImei = (n: number) => imeiWithCheckDigit(`869${String(n).padStart(11, '0')}`);

/** The rows of an import file: the template's required header, then `count` lock rows (IMEIs from `first`). */
export function* importRows(count: number, first = 0, model = 'ZG-NB100'): Generator<string[]> {
  yield ['IMEI', '名称', '设备类型'];
  for (let n = first; n < first + count; n++) yield [importImei(n), `锁${n}`, model];
}

/** A zip archive of `entries` (name -> content), deflated. */
export function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name, { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

const WORKBOOK = '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="s" sheetId="1" r:id="rId1"/></sheets></workbook>';
const RELS = '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

/** A minimal workbook whose one sheet's XML is `sheetXml` (no styles, no shared strings). */
export function workbookOf(sheetXml: string): Promise<Buffer> {
  return zipOf({ 'xl/workbook.xml': WORKBOOK, 'xl/_rels/workbook.xml.rels': RELS, 'xl/worksheets/sheet1.xml': sheetXml });
}

/** A sheet's XML: `rows` of inline-string cells after `padding` (e.g. megabytes of spaces). */
export function sheetXml(rows: string[][], padding = ''): string {
  const cells = (row: string[]) => row.map((text) => `<c t="inlineStr"><is><t>${text}</t></is></c>`).join('');
  return `<worksheet><sheetData>${padding}${rows.map((row, index) => `<row r="${index + 1}">${cells(row)}</row>`).join('')}</sheetData></worksheet>`;
}

/** `archive` with the central directory's uncompressed size of entry `name` set to `size` (a lying archive). */
export function understated(archive: Buffer, name: string, size: number): Buffer {
  const copy = Buffer.from(archive);
  for (let at = copy.indexOf(0x50); at >= 0 && at + 46 <= copy.length; at = copy.indexOf(0x50, at + 1)) {
    if (copy.readUInt32LE(at) !== 0x02014b50) continue; // "PK\x01\x02": a central directory file header
    const nameLength = copy.readUInt16LE(at + 28);
    if (copy.toString('utf8', at + 46, at + 46 + nameLength) === name) copy.writeUInt32LE(size, at + 24);
  }
  return copy;
}
