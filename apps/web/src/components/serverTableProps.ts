/** What a page gives ServerTable (ServerTable.tsx): its endpoint, columns, filters, actions and options. */
import type { Endpoint, SortOrder } from '@iot/contract';
import type { TableColumnsType } from 'antd';
import type { Key, ReactNode } from 'react';
import type { ExportFormat } from './ExportButtons';

/** Values of the search form, and the query they become. */
export type Filters = Record<string, unknown>;

export interface ServerTableProps<R> {
  /** A page endpoint (its response is a Page of R). */
  endpoint: Endpoint;
  columns: TableColumnsType<R>;
  rowKey: Extract<keyof R, string>;
  /** Form.Items of the search form (field names become query parameters). */
  filters?: ReactNode;
  /** Filter fields applied as soon as they change, without 查询 (a lock picker). */
  instant?: readonly string[];
  /** Form values when the URL names no filter. */
  initialFilters?: Filters;
  /** Maps form values to query parameters (default: as they are). */
  toQuery?: (values: Filters) => Filters;
  /** Maps the URL's query parameters back to form values (default: startTime/endTime -> `range`, the rest as they are). */
  fromQuery?: (query: Record<string, string>) => Filters;
  /** Last step before the call (and export): URL query -> API query (default: as it is). */
  toRequest?: (query: Record<string, string>) => Filters;
  /** Poll every this many ms without the loading overlay. */
  refetchInterval?: number;
  /** Export endpoint: CSV / Excel buttons downloading with the applied filters. */
  exportEndpoint?: Endpoint;
  /** Export formats offered (default CSV and Excel). */
  exportFormats?: readonly ExportFormat[];
  /** The page's actions (e.g. an "add" button), in the toolbar. */
  toolbar?: ReactNode;
  /** What an empty list offers, e.g. a link to where its rows come from (订单管理 -> 套餐). */
  empty?: ReactNode;
  /** Shown between the search form and the table (e.g. charts the same filters drive). */
  header?: ReactNode;
  /** Batch actions for the selected rows (their keys, and the rows: selection stays within the page shown); given, the rows get checkboxes. */
  batchActions?: (selected: Key[], clear: () => void, rows: R[]) => ReactNode;
  /** The server's own order without a sortField (e.g. `{ field: 'createdAt' }`, newest first), shown on that column's sorter. */
  defaultSort?: { field: string; order?: SortOrder };
  /** Which rows may be selected for the batch actions (default: all). */
  selectable?: (row: R) => boolean;
  /** False while the page still chooses part of the query (e.g. its lock picker's first lock): no request, skeleton rows. */
  enabled?: boolean;
}
