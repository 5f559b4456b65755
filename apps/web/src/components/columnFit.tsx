/**
 * Column fitting for ServerTable: every column gets a width in px (its own, else one
 * estimated from its title and the text of its cells on the page shown), cells cut what does not fit with an ellipsis and show the whole value in
 * a tooltip on hover (only when cut), and the table's `scroll.x` is the sum of the widths. A pinned-right
 * column (the row actions) is as wide as its widest buttons, measured in the page (useEndColumnWidth). With these the
 * columns keep their widths at 1366 px, a pinned column never squeezes the others, and what does not
 * fit scrolls horizontally. A column opts out of the ellipsis with `ellipsis: false` (progress bars,
 * action buttons: pinned columns never ellipsise).
 *
 * Given the width the table has (at 1366 px the column an operator watches slid under the
 * pinned 操作 column), columns first give up room before anything scrolls: the widest text columns
 * narrow (not below their title, WRAP_MIN nor their widest unbreakable piece) and their text wraps at
 * spaces onto more lines instead of being cut, so every column stays in sight and every value shows in
 * full; IMEIs and codes never break (fitColumns). The page's measurements are in columnMeasure.ts.
 */
import type { TableColumnsType } from 'antd';
import { isValidElement, type MouseEvent, type ReactNode } from 'react';
import { foldWidths } from './columnFold';

/** Narrowest and widest estimated column, px (a wider value is cut, with its tooltip). */
const MIN_WIDTH = 72;
const MAX_WIDTH = 280;
/** A cell's horizontal padding (8 px each side at the default density) and some slack, px; the sorter icon, px. */
const PADDING = 26;
const SORTER = 24;
/** The row-selection column, px. */
export const SELECTION_WIDTH = 48;
/** A pinned-right column (actions) before its buttons were measured, px. */
const END_GUESS = 160;
/** Horizontal padding of a cell at the largest density, both sides, px. */
export const CELL_PADDING = 2 * 16;
/** A bold header's width over the same text's regular width. */
const TITLE_BOLD = 1.12;

/** A column narrowed to fit the table wraps its text; it does not narrow below this, px. */
const WRAP_MIN = 88;

/** Estimated width of `text` in px at 14 px: CJK characters are square, digits and Latin letters about half as wide. */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(char) ? 14 : /[A-Z]/.test(char) ? 9 : 7.5;
  return Math.ceil(width);
}

type Column<R> = TableColumnsType<R>[number];

/** Plain text of a title (string or number), else ''. */
const titleText = (title: unknown) => (typeof title === 'string' || typeof title === 'number' ? String(title) : '');

/**
 * A cell component that draws its own text (a translated state, a device's answer) says that text for the
 * width estimate as a static `cellText(props)` (e.g. `CommandResult.cellText`): without it the column was
 * sized by its raw value or its title alone, and 下发日志's 结果 was cut at 1920 px.
 */
export interface DrawsCellText<P> {
  cellText: (props: P) => string;
}

/** The text inside a rendered cell (strings, numbers, elements' children and `text`, a component's `cellText`), or undefined where a component draws its own. */
function nodeText(node: unknown): string | undefined {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map((part) => nodeText(part) ?? '').join('');
  if (isValidElement(node)) {
    const drawn = (node.type as Partial<DrawsCellText<unknown>>).cellText;
    if (typeof drawn === 'function') return `${drawn(node.props)}  `;
    const props = node.props as { children?: unknown; text?: unknown };
    const inner = [nodeText(props.text), nodeText(props.children)].filter((part) => part !== undefined);
    // A tag or badge adds a few pixels around its text.
    return inner.length > 0 ? `${inner.join('')}  ` : undefined;
  }
  return undefined;
}

/**
 * Estimated width of the widest piece of `text` no line may break inside, px: a run of Latin letters,
 * digits and signs between spaces (an IMEI, a code, a version, an English word); a CJK character stands
 * alone (lines break between them).
 */
export function tokenWidth(text: string): number {
  return text.split(/[\s\u2e80-\u9fff\uff00-\uffef]+/).reduce((widest, token) => Math.max(widest, textWidth(token)), /[\u2e80-\u9fff\uff00-\uffef]/.test(text) ? 14 : 0);
}

/** Plain text of a cell for measuring: the text the render draws, else the raw value. */
function cellText<R>(column: Column<R>, record: R, index: number): string {
  const path = 'dataIndex' in column ? column.dataIndex : undefined;
  const value = typeof path === 'string' || typeof path === 'number' ? (record as Record<string, unknown>)[path] : undefined;
  const shown = nodeText(column.render ? column.render(value, record, index) : value);
  if (shown !== undefined) return shown;
  return typeof value === 'string' || typeof value === 'number' ? `${value}  ` : '';
}

const textsByRecords = new WeakMap<readonly unknown[], Map<unknown, Map<string, string[]>>>();

/**
 * Plain texts of the column's cells on the page shown, rendered once per page of records: the table
 * fits its columns again after each measurement (its width, the pinned column, wrapped cells), and each
 * render of a cell may translate and format times. Cached per records array, render function and
 * field (two columns sharing a render function over different fields never share texts).
 */
function cellTexts<R>(column: Column<R>, records: readonly R[]): string[] {
  let byRender = textsByRecords.get(records);
  // A page whose columns are built anew at each render brings new render functions each time: start over.
  if (!byRender || byRender.size > 64) {
    byRender = new Map();
    textsByRecords.set(records, byRender);
  }
  const byField = byRender.get(column.render) ?? new Map<string, string[]>();
  if (!byRender.has(column.render)) byRender.set(column.render, byField);
  const field = String('dataIndex' in column ? column.dataIndex : column.key);
  let texts = byField.get(field);
  if (!texts) {
    texts = records.map((record, index) => cellText(column, record, index));
    byField.set(field, texts);
  }
  return texts;
}

/**
 * The column's width: its own, else the wider of its title (plus the sorter) and its widest cell on
 * the page shown, between MIN_WIDTH and MAX_WIDTH.
 */
export function columnWidth<R>(column: Column<R>, records: readonly R[] = []): number {
  if (typeof column.width === 'number') return column.width;
  // The header is bold (about a tenth wider) with the largest cell padding: an English title such as
  // "Amount" was cut at the narrowest width.
  const title = Math.ceil(textWidth(titleText(column.title)) * TITLE_BOLD) + (CELL_PADDING - PADDING) + (column.sorter ? SORTER : 0);
  const cells = cellTexts(column, records).reduce((widest, text) => Math.max(widest, textWidth(text)), 0);
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, Math.max(title, cells) + PADDING));
}

/** The widest unbreakable piece of the column's cells on the page shown (tokenWidth) plus the padding, px; 0 without records. */
function tokenFloor<R>(column: Column<R>, records: readonly R[]): number {
  const widest = cellTexts(column, records).reduce((most, text) => Math.max(most, tokenWidth(text.trim())), 0);
  return widest > 0 ? widest + PADDING : 0;
}

/**
 * A cell's content cut with an ellipsis (CSS, no measuring while it renders: a list refreshed every
 * 2 s draws hundreds of cells); on hover, when it is cut, the whole text shows as the cell's tooltip.
 */
function Cut({ children }: { children: ReactNode }) {
  const hover = (event: MouseEvent<HTMLSpanElement>) => {
    const cell = event.currentTarget;
    cell.title = cell.scrollWidth > cell.clientWidth ? (nodeText(children) ?? '').trim() : '';
  };
  // biome-ignore lint/a11y/noStaticElementInteractions: the hover only sets the native tooltip of a cut value; nothing to operate
  return <span className="cell-cut" onMouseEnter={hover}>{children}</span>;
}

/**
 * Columns with widths (measured on `records`, the page shown) and ellipsis (see the module comment) and
 * the scroll width they need; `selection`: the rows have checkboxes (their column counts in the width);
 * `available`: the table's width, px, when known (columns narrow and wrap to fit it first);
 * `measuredFloors`: per column key, the width its narrowed cells were seen to need in the page
 * (useWrapFloors: a tag or a token wider than estimated), px.
 *
 * A column narrows (its own width or the estimated one) only down to its floor: its title's widest word, WRAP_MIN,
 * its `minWidth` (a column of structured text that turns into a tower of lines below it) and its widest unbreakable piece (tokenWidth), so an IMEI, a code or an English word never breaks inside;
 * a column of such ids keeps its width and stays on one line. Lines break at spaces only
 * (`.cell-wrap`). What still does not fit scrolls, folding at a column's edge (columnFold.ts): nothing
 * is drawn half under the pinned column.
 */
export function fitColumns<R>(columns: TableColumnsType<R>, records: readonly R[], selection: boolean, endWidth?: number, available?: number, measuredFloors: Readonly<Record<string, number>> = {}): { columns: TableColumnsType<R>; scrollX: number } {
  const pinned = (column: Column<R>) => column.fixed === 'right' || column.fixed === 'end';
  const natural = columns.map((column) => (pinned(column) ? (typeof column.width === 'number' ? column.width : (endWidth ?? END_GUESS)) : columnWidth(column, records)));
  // Text columns (not pinned, not drawing their own content) may narrow and wrap.
  const shrinkable = columns.map((column) => !pinned(column) && !column.fixed && column.ellipsis !== false);
  // A narrowed column's title wraps at its spaces too ("信号强度 (dBm)"): its widest word in bold is its floor.
  const titleFloor = (column: Column<R>) => Math.ceil(tokenWidth(titleText(column.title)) * TITLE_BOLD) + CELL_PADDING + (column.sorter ? SORTER : 0);
  const floors = columns.map((column, i) => Math.min(natural[i] ?? 0,
    Math.max(WRAP_MIN, column.minWidth ?? 0, titleFloor(column), tokenFloor(column, records), measuredFloors[String(column.key)] ?? 0)));
  const room = available === undefined ? undefined : available - (selection ? SELECTION_WIDTH : 0);
  const widths = room === undefined ? natural : foldWidths(natural, floors, shrinkable, columns.map(pinned), room);
  const fitted = columns.map((column, i): Column<R> => {
    const width = widths[i] as number;
    if (pinned(column) || column.ellipsis === false) return { ...column, width };
    const render = column.render;
    const wrap = width < (natural[i] ?? 0);
    return {
      ...column, width, ellipsis: wrap ? false : { showTitle: false },
      render: (value: unknown, record: R, index: number) => {
        const shown = render ? render(value, record, index) : value;
        if (shown === null || shown === undefined || shown === '') return shown as ReactNode;
        return wrap ? <span className="cell-wrap" data-column={String(column.key)}>{shown as ReactNode}</span> : <Cut>{shown as ReactNode}</Cut>;
      },
    };
  });
  const scrollX = fitted.reduce((sum, column) => sum + (column.width as number), selection ? SELECTION_WIDTH : 0);
  return { columns: fitted, scrollX };
}
