/** Columns of the order list (订单管理): state and refund tags from the contract's labels, amounts in yuan. */
import { type Language, type OrderRecord, orderStateText, REFUND_STATUS_LABELS, type TradeState } from '@iot/contract';
import { Button, Popconfirm, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { yuan } from './money';
import { refundableFen } from './RefundModal';
import { formatTime } from '../../lib/timeZone';

const COLORS: Record<TradeState, string> = {
  NOTPAY: 'default', USERPAYING: 'processing', SUCCESS: 'success', REFUND: 'warning', CLOSED: 'default', REVOKED: 'default', PAYERROR: 'error',
};
const time = (value: string | null) => formatTime(value);

export interface OrderActions {
  close(order: OrderRecord): void;
  refund(order: OrderRecord): void;
}

/** The columns in the current language. */
export function orderColumns(t: TFunction, language: Language, actions: OrderActions): TableColumnsType<OrderRecord> {
  return [
    { title: t('outTradeNo'), dataIndex: 'outTradeNo', fixed: 'left', render: (no: string) => <span className="order-no">{no}</span> },
    { title: t('description'), dataIndex: 'description' },
    { title: t('amount'), dataIndex: 'amountFen', align: 'right', render: yuan },
    { title: t('state'), dataIndex: 'tradeState', render: (state: TradeState, order) => <Tag className="order-state" data-state={state} color={COLORS[state]}>{orderStateText(order, language)}</Tag> },
    { title: t('refunded'), dataIndex: 'refundedFen', align: 'right', render: (fen: number) => (fen ? yuan(fen) : '—') },
    {
      title: t('refunds'), dataIndex: 'refunds', render: (_: unknown, order) => (
        <Space direction="vertical" size={2}>
          {order.refunds.map((refund) => (
            <Tooltip key={refund.id} title={`${refund.reason} · ${refund.outRefundNo}`}>
              <span>{yuan(refund.amountFen)} <Tag className="refund-state">{REFUND_STATUS_LABELS[refund.status][language]}</Tag></span>
            </Tooltip>
          ))}
        </Space>
      ),
    },
    { title: t('locks'), dataIndex: 'lockIds', align: 'right', render: (ids: number[], order) => `${ids.length} × ${order.months}` },
    { title: t('createdAt'), dataIndex: 'createdAt', render: time },
    { title: t('successTime'), dataIndex: 'successTime', render: time },
    { title: t('transactionId'), dataIndex: 'transactionId', render: (id: string | null) => id ?? '—' },
    { title: t('createdBy'), dataIndex: 'createdBy' },
    {
      title: t('actions'), key: 'actions', fixed: 'right', render: (_: unknown, order) => (
        <Space>
          {(order.tradeState === 'NOTPAY' || order.tradeState === 'USERPAYING') && (
            <Popconfirm title={t('closeConfirm')} onConfirm={() => actions.close(order)}><Button size="small">{t('closeOrder')}</Button></Popconfirm>
          )}
          {(order.tradeState === 'SUCCESS' || order.tradeState === 'REFUND') && refundableFen(order) > 0 && (
            <Button size="small" className="order-refund" onClick={() => actions.refund(order)}>{t('refund')}</Button>
          )}
        </Space>
      ),
    },
  ];
}
