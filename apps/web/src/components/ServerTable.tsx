/**
 * Reusable server-side list: a search form (filters), a paginated antd Table fed by a contract page
 * endpoint (`current`, `size` + filters), optional polling. Pages supply only columns and filters.
 */
import { PAGE_SIZE_DEFAULT, type Endpoint, type Page, type QueryOf } from '@iot/contract';
import { Button, Form, Table, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/useApiQuery';
import { ExportButtons, type ExportFormat } from './ExportButtons';

type Filters = Record<string, unknown>;

export interface ServerTableProps<R> {
  /** A page endpoint (its response is a Page of R). */
  endpoint: Endpoint;
  columns: TableColumnsType<R>;
  rowKey: Extract<keyof R, string>;
  /** Form.Items of the search form (field names become query parameters). */
  filters?: ReactNode;
  initialFilters?: Filters;
  /** Maps form values to query parameters (default: as they are). */
  toQuery?: (values: Filters) => Filters;
  /** Poll every this many ms without the loading overlay. */
  refetchInterval?: number;
  /** Export endpoint: CSV / Excel buttons downloading with the applied filters. */
  exportEndpoint?: Endpoint;
  /** Export formats offered (default CSV and Excel). */
  exportFormats?: readonly ExportFormat[];
  /** Extra actions (e.g. an "add" button), right-aligned in the search row. */
  toolbar?: ReactNode;
}

/** A paginated server-side table with a search form. */
export function ServerTable<R extends object>(props: ServerTableProps<R>) {
  const { endpoint, columns, rowKey, filters, initialFilters = {}, toQuery = (values) => values, refetchInterval, exportEndpoint, exportFormats, toolbar } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<Filters>();
  const [applied, setApplied] = useState<Filters>(initialFilters);
  const [paging, setPaging] = useState({ current: 1, size: PAGE_SIZE_DEFAULT });
  const query = { ...toQuery(applied), current: paging.current, size: paging.size } as QueryOf<Endpoint>;
  const { data } = useApiQuery(endpoint, query, { refetchInterval, keepPrevious: true });
  const page = data as Page<R> | undefined;

  const search = (values: Filters) => {
    setApplied(values);
    setPaging((current) => ({ ...current, current: 1 }));
  };

  return (
    <div className="page-card">
      {filters && (
        <Form form={form} layout="inline" initialValues={initialFilters} onFinish={search} style={{ marginBottom: 16, rowGap: 8 }}>
          {filters}
          <Form.Item>
            <Button type="primary" htmlType="submit">{t('search')}</Button>
          </Form.Item>
          <Form.Item>
            <Button onClick={() => { form.resetFields(); search(initialFilters); }}>{t('reset')}</Button>
          </Form.Item>
          {exportEndpoint && <Form.Item><ExportButtons endpoint={exportEndpoint} query={toQuery(applied)} formats={exportFormats} /></Form.Item>}
          {toolbar && <Form.Item style={{ marginInlineStart: 'auto', marginInlineEnd: 0 }}>{toolbar}</Form.Item>}
        </Form>
      )}
      <Table<R>
        rowKey={rowKey}
        columns={columns}
        dataSource={page?.records ?? []}
        size="middle"
        scroll={{ x: 'max-content' }}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: page?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('total', { total: page?.totalCapped ? `${total}+` : total }),
          onChange: (current, size) => setPaging({ current: size === paging.size ? current : 1, size }),
        }}
      />
    </div>
  );
}
