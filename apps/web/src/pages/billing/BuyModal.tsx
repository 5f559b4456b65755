/** Buying a package: pick the locks, create the order (the server prices it), then pay (PayPanel). */
import { type OrderRecord, type ProductRecord, billingEndpoints } from '@iot/contract';
import { Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { markFieldErrors } from '../../api/fieldErrors';
import { useInvalidate } from '../../api/useInvalidate';
import { useLanguage } from '../../hooks/useSession';
import { LockMultiSelect } from './LockMultiSelect';
import { yuan } from './money';
import { PayPanel } from './PayPanel';

/** The modal for `product` (closed when undefined). */
export function BuyModal({ product, onClose }: { product: ProductRecord | undefined; onClose: () => void }) {
  const { t } = useTranslation('billing');
  const language = useLanguage();
  const [form] = Form.useForm<{ lockIds: number[] }>();
  const [order, setOrder] = useState<OrderRecord>();
  const [busy, setBusy] = useState(false);
  const refresh = useInvalidate(billingEndpoints.serviceSummary, billingEndpoints.orderList);
  const close = () => {
    setOrder(undefined);
    void refresh();
    onClose();
  };
  const submit = async ({ lockIds }: { lockIds: number[] }) => {
    if (!product) return;
    setBusy(true);
    try {
      setOrder(await call(billingEndpoints.createOrder, { body: { productId: product.id, lockIds } }));
    } catch (error) {
      // Shown by the client; the field it names is marked too.
      if (error instanceof ApiError) markFieldErrors(form, error);
    } finally {
      setBusy(false);
    }
  };
  const name = product ? (language === 'zh-CN' ? product.nameZh : product.nameEn) : '';
  return (
    <Modal
      open={product !== undefined} title={`${t('buy')} · ${name}`} onCancel={close} destroyOnHidden confirmLoading={busy}
      okText={t('createOrder')} onOk={() => form.submit()} okButtonProps={{ id: 'buy-submit', style: order ? { display: 'none' } : undefined }}
      cancelText={order ? t('close') : undefined}
    >
      {order ? <PayPanel order={order} /> : product && (
        <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
          <Typography.Paragraph>{yuan(product.priceFen)} · {t('covers', { locks: product.lockCount, months: product.months })}</Typography.Paragraph>
          <Form.Item name="lockIds" label={t('pickLocks')} extra={t('pickLocksHint', { count: product.lockCount, months: product.months })}
            rules={[{ required: true, type: 'array', min: 1 }]}>
            <LockMultiSelect max={product.lockCount} placeholder={t('pickLocks')} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
