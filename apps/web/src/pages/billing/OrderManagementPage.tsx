/**
 * 订单管理: the data centre's orders (GET /iot/v1/wx/orderInfo/list) with WeChat Pay's
 * trade_state, filters (state, keyword, time) in the URL, CSV / Excel export, close an unpaid order,
 * refund a paid one; refreshed every 5 s so notifications show up.
 */
import { type OrderRecord, TRADE_STATE_LABELS, TRADE_STATES, billingEndpoints } from '@iot/contract';
import { DatePicker, Form, Input, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { useInvalidate } from '../../api/useInvalidate';
import { useLanguage } from '../../hooks/useSession';
import { logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { orderColumns } from './orderColumns';
import { RefundModal } from './RefundModal';

const REFETCH_MS = 5000;

/** The order management page. */
export default function OrderManagementPage() {
  const { t } = useTranslation('billing');
  const language = useLanguage();
  const [refunding, setRefunding] = useState<OrderRecord>();
  const refresh = useInvalidate(billingEndpoints.orderList);
  const columns = useMemo(() => orderColumns(t, language, {
    close: (order) => void call(billingEndpoints.closeOrder, { body: { outTradeNo: order.outTradeNo } }).then(refresh, () => undefined),
    refund: setRefunding,
  }), [t, language, refresh]);
  const filters = (
    <>
      <Form.Item name="tradeState" htmlFor="order-state" label={t('state')}>
        <Select id="order-state" style={{ width: 140 }} options={[{ value: 'all', label: t('allStates') }, ...TRADE_STATES.map((state) => ({ value: state, label: TRADE_STATE_LABELS[state][language] }))]} />
      </Form.Item>
      <Form.Item htmlFor="order-keyword" name="keyword" label={t('keyword')}>
        <Input id="order-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="range" label={t('timeRange')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
    </>
  );
  return (
    <>
      <ServerTable<OrderRecord>
        endpoint={billingEndpoints.orderList}
        exportEndpoint={billingEndpoints.orderExport}
        columns={columns}
        rowKey="id"
        filters={filters}
        initialFilters={{ tradeState: 'all' }}
        toQuery={logQuery}
        refetchInterval={REFETCH_MS}
        empty={<span className="orders-empty">{t('noOrders')} <Link to="/renew">{t('goToPackages')}</Link></span>}
      />
      <RefundModal order={refunding} onClose={() => setRefunding(undefined)} onDone={() => { setRefunding(undefined); void refresh(); }} />
    </>
  );
}
