/**
 * Reads the first sheet of an .xlsx workbook (ECMA-376 SpreadsheetML) as text cells, streaming, and
 * stops at the first limit (SheetLimits) it passes: the archive is checked first (zip.ts), then the
 * sheet's XML is parsed as it inflates (saxes: no DTD, no entity expansion), and the shared strings
 * are read last, keeping only those the kept rows use. Cell text: shared and inline strings (phonetic
 * runs left out), formula results, booleans as true/false, numbers as JavaScript writes them
 * (861234500000001, not 8.61234500000001E+14). Throws SheetRefusal.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { refuse, type Sheet, type SheetLimits, type SheetRow } from './limits.js';
import { type Archive, openArchive } from './zip.js';

type Cell = string | { shared: number };

/** Column index (0-based) of a cell reference such as `AB12`; undefined when it has none. */
function columnOf(reference: string | undefined): number | undefined {
  const letters = /^([A-Z]{1,3})\d*$/.exec(reference ?? '')?.[1];
  if (!letters) return undefined;
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** `name` without its namespace prefix (`x:row` -> `row`). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Parses `entry` of `archive` as XML, calling the handlers; a handler may throw to stop. */
async function parseXml(archive: Archive, name: string, on: { open(tag: SaxesTagPlain): void; close(tag: SaxesTagPlain): void; text(text: string): void }) {
  const entry = archive.entries.get(name);
  if (!entry) throw refuse.notSpreadsheet();
  const parser = new SaxesParser();
  let failure: unknown;
  parser.on('opentag', (tag) => on.open(tag as SaxesTagPlain));
  parser.on('closetag', (tag) => on.close(tag as SaxesTagPlain));
  parser.on('text', (text) => on.text(text));
  parser.on('cdata', (text) => on.text(text));
  parser.on('error', (error) => { failure ??= error; });
  await archive.readText(entry, (chunk) => {
    parser.write(chunk);
    if (failure) throw refuse.notSpreadsheet();
  });
  parser.close();
  if (failure) throw refuse.notSpreadsheet();
}

/** The part names of the first sheet and of the shared strings (xl/workbook.xml and its relationships). */
async function partsOf(archive: Archive): Promise<{ sheet: string; sharedStrings?: string }> {
  let firstSheet: string | undefined;
  await parseXml(archive, 'xl/workbook.xml', {
    open(tag) {
      if (local(tag.name) === 'sheet' && firstSheet === undefined) firstSheet = Object.entries(tag.attributes).find(([key]) => /(^|:)id$/.test(key))?.[1];
    },
    close() {}, text() {},
  });
  const targets = new Map<string, string>();
  let sharedStrings: string | undefined;
  const resolve = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`);
  await parseXml(archive, 'xl/_rels/workbook.xml.rels', {
    open(tag) {
      const { Id, Target, Type } = tag.attributes as Record<string, string | undefined>;
      if (local(tag.name) !== 'Relationship' || !Id || !Target) return;
      targets.set(Id, resolve(Target));
      if (Type?.endsWith('/sharedStrings')) sharedStrings = resolve(Target);
    },
    close() {}, text() {},
  });
  const sheet = firstSheet === undefined ? undefined : targets.get(firstSheet);
  if (!sheet) throw refuse.notSpreadsheet();
  return { sheet, sharedStrings };
}

/** The header and the data rows of `sheet`, shared strings as indices. */
async function readRows(archive: Archive, name: string, limits: SheetLimits) {
  const rows: { row: number; cells: Cell[] }[] = [];
  let header: Cell[] = [];
  let row: { row: number; cells: Cell[]; filled: boolean } | undefined;
  let cell: { column: number; type: string; text: string; inValue: boolean } | undefined;
  let ignored = 0; // depth inside <f> (formula) or <rPh> (phonetic run): their text is not the cell's
  let lastRow = 0;
  let lastColumn = -1;
  await parseXml(archive, name, {
    open(tag) {
      const tagName = local(tag.name);
      const attributes = tag.attributes as Record<string, string | undefined>;
      if (tagName === 'row') {
        lastRow = Number(attributes.r) > 0 ? Number(attributes.r) : lastRow + 1;
        lastColumn = -1;
        row = { row: lastRow, cells: [], filled: false };
      } else if (tagName === 'c' && row) {
        lastColumn = columnOf(attributes.r) ?? lastColumn + 1;
        cell = { column: lastColumn, type: attributes.t ?? 'n', text: '', inValue: false };
      } else if (cell && (tagName === 'v' || tagName === 't')) cell.inValue = true;
      else if (tagName === 'f' || tagName === 'rPh') ignored += 1;
    },
    text(text) {
      if (!cell?.inValue || ignored > 0) return;
      cell.text += text;
      if (cell.text.length > limits.maxCellChars) throw refuse.cellTooLong(limits.maxCellChars, row?.row ?? lastRow);
    },
    close(tag) {
      const tagName = local(tag.name);
      if (tagName === 'f' || tagName === 'rPh') ignored -= 1;
      else if ((tagName === 'v' || tagName === 't') && cell) cell.inValue = false;
      else if (tagName === 'c' && cell && row) {
        const value = cellValue(cell.type, cell.text);
        if (value !== '') {
          if (cell.column >= limits.maxColumns) throw refuse.tooManyColumns(limits.maxColumns);
          row.cells[cell.column] = value;
          row.filled = true;
        }
        cell = undefined;
      } else if (tagName === 'row' && row) {
        if (row.row === 1) header = row.cells;
        else if (row.filled) {
          rows.push(row);
          if (rows.length > limits.maxRows) throw refuse.tooManyRows(limits.maxRows);
        }
        row = undefined;
      }
    },
  });
  return { header, rows };
}

/** A cell's value: its text, or the index of its shared string. */
function cellValue(type: string, text: string): Cell {
  if (type === 's') return text.trim() === '' ? '' : { shared: Number(text) };
  if (type === 'b') return text === '1' ? 'true' : text === '0' ? 'false' : text;
  if (type === 'n' && text.trim() !== '') return Number.isFinite(Number(text)) ? String(Number(text)) : text;
  return text;
}

/** The wanted shared strings (by index), reading no further than the last one wanted. */
async function sharedStrings(archive: Archive, name: string | undefined, wanted: Set<number>, limits: SheetLimits): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  if (!name || wanted.size === 0) return found;
  let last = 0;
  for (const index of wanted) last = Math.max(last, index);
  let index = -1;
  let text: string | undefined;
  let ignored = 0;
  const done = new Error('done');
  try {
    await parseXml(archive, name, {
      open(tag) {
        const tagName = local(tag.name);
        if (tagName === 'si') { index += 1; text = wanted.has(index) ? '' : undefined; }
        else if (tagName === 'rPh') ignored += 1;
      },
      text(chunk) {
        if (text === undefined || ignored > 0) return;
        text += chunk;
        if (text.length > limits.maxCellChars) throw refuse.cellTooLong(limits.maxCellChars);
      },
      close(tag) {
        const tagName = local(tag.name);
        if (tagName === 'rPh') ignored -= 1;
        else if (tagName === 'si') {
          if (text !== undefined) found.set(index, text);
          if (index >= last) throw done;
        }
      },
    });
  } catch (error) {
    if (error !== done) throw error;
  }
  return found;
}

/** The first sheet of the .xlsx file in `buffer`; throws SheetRefusal. */
export async function readXlsx(buffer: Buffer, limits: SheetLimits): Promise<Sheet> {
  const archive = await openArchive(buffer);
  try {
    const parts = await partsOf(archive);
    const { header, rows } = await readRows(archive, parts.sheet, limits);
    const wanted = new Set<number>();
    for (const cells of [header, ...rows.map((r) => r.cells)]) for (const cell of cells) if (typeof cell === 'object') wanted.add(cell.shared);
    const strings = await sharedStrings(archive, parts.sharedStrings, wanted, limits);
    const text = (cells: Cell[]) => Array.from(cells, (cell) => (cell === undefined ? '' : typeof cell === 'object' ? strings.get(cell.shared) ?? '' : cell));
    const data: SheetRow[] = rows.map((r) => ({ row: r.row, cells: text(r.cells) })).filter((r) => r.cells.some((cell) => cell.trim() !== ''));
    return { header: text(header), rows: data };
  } finally {
    archive.close();
  }
}
