/**
 * Columns fitted to the table they sit in (columnFit.tsx, columnFold.ts), for ServerTable and for a
 * plain antd Table of a page: measures the element of `box` (its inner width, the pinned actions'
 * buttons, cells that needed more room) and returns the columns with widths and the table's `scroll.x`.
 * A body that scrolls sideways takes keyboard focus (useFocusableScroll). `ready` is false until the box's width is
 * known (the render of the box's mount, before the browser paints it): draw the table only then. A table drawn with
 * its natural widths first measured them into antd's sticky header (rc-table's MeasureCell reads each column's width
 * as it mounts), and the header followed the fitted widths only a frame after the body, its titles wrapping onto a
 * second line: the body moved down 22 px after the first paint (Lighthouse CLS 0.096 on 门锁信息). Later changes of the
 * fit reach that header in the same frame too (useHeaderWidths).
 * `selection`: the rows have checkboxes (give the table `rowSelection.columnWidth: SELECTION_WIDTH`).
 * `view`: what the rows are a page of (filter, sort, page; undefined while they are still the previous view's): the
 * columns are fitted to the view's first rows and keep their widths while live updates or polling refresh them
 * (useFitRecords).
 */
import type { TableColumnsType } from 'antd';
import { type RefObject, useMemo, useRef } from 'react';
import { fitColumns, SELECTION_WIDTH } from './columnFit';
import { useTranslation } from 'react-i18next';
import { useEndColumnWidth, useFocusableScroll, useHeaderWidths, useInertMeasureRow, useInnerWidth, useWrapFloors } from './columnMeasure';

export function useFittedColumns<R>(box: RefObject<HTMLElement | null>, columns: TableColumnsType<R>, shownRecords: readonly R[] | undefined, selection = false, view?: string): { columns: TableColumnsType<R>; scrollX: number; ready: boolean } {
  const records = useFitRecords(view, shownRecords);
  const endWidth = useEndColumnWidth(box);
  const available = useInnerWidth(box);
  const wrapFloors = useWrapFloors(box);
  useInertMeasureRow(box);
  useFocusableScroll(box, useTranslation().t('tableScroll'));
  // Measured once per page of rows (not at every render of a list refreshed every few seconds).
  const fitted = useMemo(() => fitColumns(columns, records ?? [], selection, endWidth, available, wrapFloors), [columns, records, selection, endWidth, available, wrapFloors]);
  useHeaderWidths(box, [...(selection ? [SELECTION_WIDTH] : []), ...fitted.columns.map((column) => column.width as number)]);
  return { ...fitted, ready: available !== undefined };
}

/**
 * The records to fit the columns to: the first non-empty `records` of `view`, kept while the same view's rows are
 * refreshed; without `view`, the records shown. A refit on every refresh of a live list (门锁警告: a new alarm every
 * few seconds) re-estimated every column from the new rows, and the header and every row moved sideways and in
 * height under the operator's eyes (a layout shift of 0.08 each time). A value wider than its kept column is cut
 * with its tooltip, or wraps and is measured (useWrapFloors), as on any page.
 */
function useFitRecords<R>(view: string | undefined, records: readonly R[] | undefined): readonly R[] | undefined {
  const kept = useRef<{ view: string; records: readonly R[] }>(undefined);
  if (view === undefined) return records; // no view, or rows of the previous view shown while the new one loads
  if (records && (kept.current?.view !== view || kept.current.records.length === 0)) kept.current = { view, records };
  return kept.current?.view === view ? kept.current.records : records;
}
