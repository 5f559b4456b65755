/**
 * The payment of one order: the code_url as a QR code (antd QRCode), a countdown to its
 * expiry, and the order's state followed live (polled every 2 s until final): "paid" once WeChat Pay's
 * notification (or reconciliation) has recorded it.
 */
import { TRADE_STATE_LABELS, type OrderRecord, billingEndpoints } from '@iot/contract';
import { QRCode, Result, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { useLanguage } from '../../hooks/useSession';
import { yuan } from './money';

const POLL_MS = 2000;
const OPEN = new Set(['NOTPAY', 'USERPAYING']);

/** Follows `order` until it is paid or closed. */
export function PayPanel({ order }: { order: OrderRecord }) {
  const { t } = useTranslation('billing');
  const language = useLanguage();
  const { data = order } = useApiQuery(billingEndpoints.orderInfo, { outTradeNo: order.outTradeNo }, { refetchInterval: POLL_MS });
  const open = OPEN.has(data.tradeState);
  // The demo sandbox's code_url is a path on this console's own origin: made absolute for the QR code.
  const payUrl = data.codeUrl ? new URL(data.codeUrl, window.location.href).href : undefined;
  if (data.tradeState === 'SUCCESS' || data.tradeState === 'REFUND') {
    return <Result className="pay-result" status="success" title={t('paid')} subTitle={t('paidDetail', { no: data.outTradeNo })} />;
  }
  if (!open) return <Result className="pay-result" status="warning" title={t('orderClosed')} subTitle={t('orderClosedDetail', { no: data.outTradeNo })} />;
  return (
    <Space direction="vertical" align="center" style={{ width: '100%' }}>
      <Typography.Text strong>{t('scanToPay')}</Typography.Text>
      {payUrl && <QRCode id="pay-qr" value={payUrl} size={200} />}
      <Typography.Title level={3} style={{ margin: 0 }}>{yuan(data.amountFen)}</Typography.Title>
      <Space>
        <Tag id="pay-state" color="processing">{TRADE_STATE_LABELS[data.tradeState][language]}</Tag>
        <Statistic.Timer type="countdown" value={Date.parse(data.expiresAt)} format="mm:ss" prefix={t('expiresIn')} valueStyle={{ fontSize: 14 }} />
      </Space>
      {payUrl && <Typography.Link id="pay-link" href={payUrl} target="_blank" rel="noreferrer">{t('openPayPage')}</Typography.Link>}
      <Typography.Text type="secondary" copyable={{ text: data.outTradeNo }}>{data.outTradeNo}</Typography.Text>
    </Space>
  );
}
