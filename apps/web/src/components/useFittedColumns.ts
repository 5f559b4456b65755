/**
 * Columns fitted to the table they sit in (columnFit.tsx, columnFold.ts), for ServerTable and for a
 * plain antd Table of a page: measures the element of `box` (its inner width, the pinned actions'
 * buttons, cells that needed more room) and returns the columns with widths and the table's `scroll.x`.
 * A body that scrolls sideways takes keyboard focus (useFocusableScroll).
 * `selection`: the rows have checkboxes (give the table `rowSelection.columnWidth: SELECTION_WIDTH`).
 */
import type { TableColumnsType } from 'antd';
import { type RefObject, useMemo } from 'react';
import { fitColumns } from './columnFit';
import { useTranslation } from 'react-i18next';
import { useEndColumnWidth, useFocusableScroll, useInertMeasureRow, useInnerWidth, useWrapFloors } from './columnMeasure';

export function useFittedColumns<R>(box: RefObject<HTMLElement | null>, columns: TableColumnsType<R>, records: readonly R[] | undefined, selection = false): { columns: TableColumnsType<R>; scrollX: number } {
  const endWidth = useEndColumnWidth(box);
  const available = useInnerWidth(box);
  const wrapFloors = useWrapFloors(box);
  useInertMeasureRow(box);
  useFocusableScroll(box, useTranslation().t('tableScroll'));
  // Measured once per page of rows (not at every render of a list refreshed every few seconds).
  return useMemo(() => fitColumns(columns, records ?? [], selection, endWidth, available, wrapFloors), [columns, records, selection, endWidth, available, wrapFloors]);
}
