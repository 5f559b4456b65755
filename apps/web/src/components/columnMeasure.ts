/**
 * What ServerTable measures in the page for its columns (columnFit.tsx): the pinned actions column's
 * buttons, the table's inner width, and the width a narrowed column's cells turned out to need; and the
 * measuring row antd adds, kept out of keyboard reach.
 */
import { type RefObject, useLayoutEffect, useState } from 'react';
import { CELL_PADDING } from './columnFit';

/**
 * Width in px the pinned-right column of the table inside `ref` needs for its widest cell (its
 * buttons as drawn, plus padding), measured after each render; undefined before the first rows are
 * drawn. Only grows while the table is shown, so paging does not make the columns jump.
 */
export function useEndColumnWidth(ref: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const cells = ref.current?.querySelectorAll<HTMLElement>('.ant-table-tbody .ant-table-cell-fix-end') ?? [];
    let widest = 0;
    for (const cell of cells) for (const child of cell.children) widest = Math.max(widest, (child as HTMLElement).scrollWidth);
    const next = Math.ceil(widest) + CELL_PADDING + 2;
    if (widest > 0 && next > (width ?? 0)) setWidth(next);
  });
  return width;
}

/** Inner width (without padding) of the element of `ref`, px, following resizes; undefined before it is drawn. */
export function useInnerWidth(ref: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      setWidth(Math.floor(element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * Per column key, the width in px its narrowed (wrapping) cells need in the table inside `ref`: where a
 * cell's content is wider than the cell (a tag, an IMEI or a word wider than estimated: lines break at
 * spaces only), the cell's width plus what sticks out. Measured after each render; only grows, so the
 * columns settle after one more render (nothing slides under the next column).
 */
export function useWrapFloors(ref: RefObject<HTMLElement | null>): Record<string, number> {
  const [floors, setFloors] = useState<Record<string, number>>({});
  useLayoutEffect(() => {
    const cells = ref.current?.querySelectorAll<HTMLElement>('.ant-table-tbody .cell-wrap[data-column]') ?? [];
    let next: Record<string, number> | undefined;
    for (const cell of cells) {
      const over = cell.scrollWidth - cell.clientWidth;
      const key = cell.dataset.column;
      const td = cell.closest('td');
      if (over <= 1 || !key || !td) continue;
      const need = Math.ceil(td.getBoundingClientRect().width + over) + 2;
      if (need > ((next ?? floors)[key] ?? 0)) next = { ...(next ?? floors), [key]: need };
    }
    if (next) setFloors(next);
  });
  return floors;
}

/**
 * Makes the table's hidden measuring row inert after each render: antd draws every column title a
 * second time in that aria-hidden row, the select-all checkbox too, which keyboard focus could then
 * reach unseen (axe: aria-hidden-focus).
 */
export function useInertMeasureRow(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    for (const row of ref.current?.querySelectorAll<HTMLElement>('.ant-table-measure-row') ?? []) row.inert = true;
  });
}

/**
 * Makes a table's horizontally scrolling body reachable by keyboard after each render (tabindex 0 and
 * the table's name while it scrolls, none once it fits): a body that scrolls with no focusable cell in
 * sight cannot be scrolled without a mouse (axe: scrollable-region-focusable, 订单管理 in CI).
 */
export function useFocusableScroll(ref: RefObject<HTMLElement | null>, label: string): void {
  useLayoutEffect(() => {
    for (const body of ref.current?.querySelectorAll<HTMLElement>('.ant-table-body, .ant-table-content') ?? []) {
      const scrolls = body.scrollWidth > body.clientWidth + 1;
      if (scrolls && body.tabIndex !== 0) {
        body.tabIndex = 0;
        body.setAttribute('role', 'region');
        body.setAttribute('aria-label', label);
      } else if (!scrolls && body.hasAttribute('tabindex')) {
        body.removeAttribute('tabindex');
        body.removeAttribute('role');
        body.removeAttribute('aria-label');
      }
    }
  });
}

/**
 * Gives the sticky header's columns (antd `sticky`: the header is a table of its own) the widths `widths`
 * (px, in column order, the selection column first) after each render, before the browser paints. rc-table
 * sizes that header from the body's column widths as its ResizeObserver last reported them: after a
 * change of the fit (the first rows, the pinned buttons measured, a resize) the header kept the old
 * widths for a frame, its titles wrapped differently and the body moved under it (a layout shift).
 */
export function useHeaderWidths(ref: RefObject<HTMLElement | null>, widths: readonly number[]): void {
  useLayoutEffect(() => {
    const cols = ref.current?.querySelectorAll<HTMLTableColElement>('.ant-table-header colgroup > col') ?? [];
    widths.forEach((width, i) => {
      const col = cols[i];
      if (col && col.style.width !== `${width}px`) col.style.width = `${width}px`;
    });
  });
}
