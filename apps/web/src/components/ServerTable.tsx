/**
 * The one list component (ProTable-like, built on antd): a collapsible search form, a
 * toolbar (refresh, density, column settings, export, the page's actions), a paginated antd Table fed
 * by a contract page endpoint (`current`, `size` + filters), optional polling and row selection with
 * batch actions (`batchActions`, `selectable`). Columns with `sorter: true` sort on the server: their
 * key (or dataIndex) is sent as `sortField` with `sortOrder` (ascend | descend; the endpoint's query
 * declares them with the contract's `sortFields`); `defaultSort` names the order the server keeps without
 * a sortField (a log's time, newest first), shown on its column so the order is visible. Applied filters, sorting and paging live in
 * the URL (`?keyword=..&sortField=name&sortOrder=ascend&current=2`; a `tab` is kept), so a reload, a link or the back button
 * restores the view (the high-volume logs open on a recent range and page deep by cursor: keysetPaging.ts); a new search, sort or page size starts again at page 1 and clears the selection. Columns keep
 * their widths and cut long values with a tooltip, or, when the table is too narrow for them, narrow and wrap
 * before anything scrolls under the pinned actions (columnFit.tsx); the first column (the key) stays fixed while
 * the others scroll horizontally under a header and a scroll bar that stay in sight (antd `sticky`); a list found empty says so
 * (its actions stay in the toolbar just above, once: a second 新增 button in the empty state made every "click 新增"
 * ambiguous for assistive technology and browser tests); until the first rows have arrived, skeleton rows stand in their place. Pages supply columns and filters.
 */
import { PAGE_SIZE_DEFAULT, SORT_ORDERS, type Endpoint, type Page, type QueryOf, type SortOrder } from '@iot/contract';
import { Button, Empty, Form, Table } from 'antd';
import { type Key, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { useApiQuery } from '../api/useApiQuery';
import { SELECTION_WIDTH } from './columnFit';
import { ExportButtons } from './ExportButtons';
import { isKeysetList, pagerTotal, useKeysetCursors, wantsRecentRange, withRecentRange } from './keysetPaging';
import { logFormValues } from './logFilters';
import { SkeletonRows } from './Skeleton';
import { type Density, TableToolbar } from './TableToolbar';
import type { Filters, ServerTableProps } from './serverTableProps';
import { sortShown, toParams } from './tableView';
import { useFittedColumns } from './useFittedColumns';

const PAGE_PARAM = 'tab'; // the page's own URL state (the tab the table sits in): no filter, kept by searches, paging and reset
const VIEW = new Set(['current', 'size', 'sortField', 'sortOrder', PAGE_PARAM]);
const TABLE_VIEW = 'serverTableView'; // history state of a URL the table navigated to (search, page, sort, 重置)

/** A paginated server-side table with a search form, its state in the URL. */
export function ServerTable<R extends object>(props: ServerTableProps<R>) {
  const { endpoint, columns, rowKey, filters, initialFilters = {}, toQuery = (values) => values, fromQuery = logFormValues, refetchInterval } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<Filters>();
  const [params, setParams] = useSearchParams();
  const [filtersOpen, setFiltersOpen] = useState(true);
  const [density, setDensity] = useState<Density>('middle');
  const [hidden, setHidden] = useState<string[]>([]);
  const [selected, setSelected] = useState<Key[]>([]);
  const box = useRef<HTMLDivElement>(null);

  const urlQuery = useMemo(() => Object.fromEntries([...params].filter(([key]) => !VIEW.has(key))), [params]);
  const filtered = Object.keys(urlQuery).length > 0;
  // Form values (from the URL, else the initial ones) -> query, each render: toQuery may add page state (a picked lock).
  const applied = toParams(toQuery(filtered ? fromQuery(urlQuery) : initialFilters));
  const current = Number(params.get('current')) || 1;
  const size = Number(params.get('size')) || PAGE_SIZE_DEFAULT;
  const sortField = params.get('sortField') ?? undefined;
  const sortParam = params.get('sortOrder');
  const sortOrder = sortField ? (SORT_ORDERS.find((order) => order === sortParam) ?? 'descend') : undefined;
  const request = props.toRequest ? props.toRequest(applied) : applied;
  const keyset = isKeysetList(endpoint);
  const view = JSON.stringify([request, sortField, sortOrder, size]);
  const cursors = useKeysetCursors(keyset, view);
  const cursor = cursors.cursorOf(current);
  const { data, refetch, isFetching, isError, isPlaceholderData } = useApiQuery(endpoint, { ...request, sortField, sortOrder, current, size, cursor } as QueryOf<Endpoint>, { refetchInterval, keepPrevious: true, enabled: props.enabled });
  const page = data as Page<R> | undefined;
  if (page && !isPlaceholderData) cursors.remember(page);
  // A log list without a range or a lock starts on the recent range (keysetPaging.ts), when it opens and when a menu, tab or
  // link brings it back bare; a view the table made (查询 with no range: all time) is marked in its history entry and kept.
  // The form appears once the URL holds the range (a later render), so nothing typed is reset by it.
  const location = useLocation();
  const presetPending = keyset && (location.state as Filters | null)?.[TABLE_VIEW] !== true && wantsRecentRange(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per history entry that asks for it
  useEffect(() => { if (presetPending) setParams(withRecentRange(params), { replace: true }); }, [presetPending, location.key]);
  const firstLoad = !page && !isError;

  // The URL changed (back button, link): the form shows it before it is painted (a layout effect: no late reset of typing).
  const paramsText = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a URL change (paramsText) resets the form
  useLayoutEffect(() => {
    form.resetFields();
    if (filtered) form.setFieldsValue(fromQuery(urlQuery));
  }, [paramsText]);

  type View = { current: number; size: number; sortField?: string; sortOrder?: SortOrder };
  const navigate = (query: Filters, view: View) => {
    const next = toParams({ ...query, [PAGE_PARAM]: params.get(PAGE_PARAM) });
    if (view.current > 1) next.current = String(view.current);
    if (view.size !== PAGE_SIZE_DEFAULT) next.size = String(view.size);
    if (view.sortField && view.sortOrder) Object.assign(next, { sortField: view.sortField, sortOrder: view.sortOrder });
    setSelected([]);
    setParams(next, { state: { [TABLE_VIEW]: true } });
  };
  const sorting = { sortField, sortOrder };
  const search = (values: Filters) => navigate(toQuery(values), { current: 1, size, ...sorting });
  const kept = new URLSearchParams(params.has(PAGE_PARAM) ? { [PAGE_PARAM]: params.get(PAGE_PARAM) ?? '' } : {});
  const reset = () => setParams(keyset ? withRecentRange(kept) : kept, { state: { [TABLE_VIEW]: true } });

  const keyed = useMemo(() => columns.map((column, index) => ({ ...column, key: String(column.key ?? ('dataIndex' in column ? column.dataIndex : undefined) ?? index) })), [columns]);
  const selection = props.batchActions !== undefined;
  const shown = useMemo(() => keyed.filter((column) => !hidden.includes(column.key))
    .map((column, index) => (index === 0 && !column.fixed ? { ...column, fixed: 'left' as const } : column))
    .map((column) => (column.sorter ? { ...column, ...sortShown(column.key, sortField, sortOrder, props.defaultSort) } : column)),
  [keyed, hidden, sortField, sortOrder, props.defaultSort]);
  const fitted = useFittedColumns(box, shown, page?.records, selection, isPlaceholderData ? undefined : `${view}:${current}`);
  const clear = () => setSelected([]);

  return (
    <div className={`page-card server-table${firstLoad ? ' server-table-loading' : ''}`} ref={box}>
      {filters && !presetPending && (
        <Form form={form} layout="inline" initialValues={initialFilters} onFinish={search} className="table-filters"
          onValuesChange={(changed) => { if (props.instant?.some((field) => field in changed)) form.submit(); }} hidden={!filtersOpen}>
          {filters}
          <Form.Item>
            <Button type="primary" htmlType="submit">{t('search')}</Button>
          </Form.Item>
          <Form.Item>
            <Button onClick={reset}>{t('reset')}</Button>
          </Form.Item>
        </Form>
      )}
      {props.header}
      <TableToolbar onRefresh={() => void refetch()} refreshing={isFetching} density={density} onDensity={setDensity}
        columns={keyed.map((column) => ({ key: column.key, title: column.title as ReactNode }))} hidden={hidden} onHidden={setHidden}>
        {filters && <Button type="link" onClick={() => setFiltersOpen((open) => !open)}>{filtersOpen ? t('collapseFilters') : t('expandFilters')}</Button>}
        {props.batchActions && selected.length > 0 && props.batchActions(selected, clear, (page?.records ?? []).filter((row) => selected.includes(row[rowKey] as Key)))}
        {props.exportEndpoint && <ExportButtons endpoint={props.exportEndpoint} query={request} formats={props.exportFormats} />}
        {props.toolbar}
      </TableToolbar>
      {/* Drawn once the box's width is known (useFittedColumns `ready`) and its first rows are here: with its fitted widths from
          the first paint. A header drawn before the rows was fitted to its titles alone and moved sideways when they came. */}
      {firstLoad && <div aria-busy="true"><div className="skeleton-head" /><SkeletonRows /></div>}
      {fitted.ready && !firstLoad && <Table<R>
        rowKey={rowKey}
        columns={fitted.columns}
        dataSource={page?.records ?? []}
        size={density}
        scroll={{ x: fitted.scrollX }}
        // Rows of the previous view (another filter, page or sort) stay in place under a spinner until the new ones come.
        loading={isPlaceholderData && isFetching}
        tableLayout="fixed"
        sticky
        rowSelection={props.batchActions ? {
          selectedRowKeys: selected, onChange: setSelected, fixed: true, columnWidth: SELECTION_WIDTH,
          getCheckboxProps: props.selectable ? (row: R) => ({ disabled: !props.selectable?.(row) }) : undefined,
        } : undefined}
        onChange={(_pagination, _filters, sorter, extra) => {
          if (extra.action !== 'sort' || Array.isArray(sorter)) return;
          const order = sorter.order ?? undefined;
          navigate(applied, { current: 1, size, sortField: order ? String(sorter.columnKey) : undefined, sortOrder: order });
        }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE}>{page && props.empty}</Empty> }}
        pagination={page ? {
          current,
          pageSize: size,
          total: pagerTotal(page, current, size),
          showSizeChanger: true,
          showTotal: () => t('total', { total: page.totalCapped ? `${page.total}+` : page.total }),
          onChange: (next, nextSize) => navigate(applied, { current: nextSize === size ? next : 1, size: nextSize, ...sorting }),
        } : false}
      />}
    </div>
  );
}
