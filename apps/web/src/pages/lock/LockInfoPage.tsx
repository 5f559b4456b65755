/**
 * 门锁信息: the live lock list (GET /iot/v1/lockDevice/list), keyword search, online and low-battery filters (in the URL),
 * refetched every 5 s in the background while open.
 */
import { lockEndpoints, type LockRecord } from '@iot/contract';
import { Checkbox, Form, Input, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerTable } from '../../components/ServerTable';
import { lockColumns } from './columns';

const REFETCH_MS = 5000;

/** Maps the form's `online` choice ('all' | 'true' | 'false') to the query. */
function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : undefined;
  const online = values.online === 'true' || values.online === 'false' ? values.online : undefined;
  const lowBattery = values.lowBattery === true || values.lowBattery === 'true' ? 'true' : undefined;
  return { keyword: keyword || undefined, online, lowBattery };
}

/** The lock information page. */
export default function LockInfoPage() {
  const { t } = useTranslation('lock');
  const columns = useMemo(() => lockColumns(t), [t]);
  const filters = (
    <>
      <Form.Item name="keyword" label={t('keyword')}>
        <Input id="lock-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
      </Form.Item>
      <Form.Item name="online" label={t('status')}>
        <Select
          style={{ width: 120 }}
          options={[
            { value: 'all', label: t('common:all') },
            { value: 'true', label: t('online') },
            { value: 'false', label: t('offline') },
          ]}
        />
      </Form.Item>
      <Form.Item name="lowBattery" valuePropName="checked" getValueProps={(value) => ({ checked: value === true || value === 'true' })}>
        <Checkbox>{t('lowBattery')}</Checkbox>
      </Form.Item>
    </>
  );
  return (
    <ServerTable<LockRecord>
      endpoint={lockEndpoints.list}
      columns={columns}
      rowKey="id"
      filters={filters}
      initialFilters={{ online: 'all' }}
      toQuery={toQuery}
      refetchInterval={REFETCH_MS}
    />
  );
}
