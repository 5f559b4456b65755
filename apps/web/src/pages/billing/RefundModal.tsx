/**
 * Refunding all or part of a paid order, with a reason (POST /iot/v1/wx/orderInfo/refund; ORDER_MANAGEMENT).
 * An amount above what is left is refused with a message (never lowered to it); the server checks again.
 */
import { type OrderRecord, billingEndpoints } from '@iot/contract';
import { Form, Input, InputNumber, Modal } from 'antd';
import { useMessage } from '../../components/appMessage';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { markFieldErrors } from '../../api/fieldErrors';
import { maxChars, numberRange } from '../../components/formRules';
import { toFen } from './money';

/** Fen of `order` not yet refunded nor being refunded. */
export function refundableFen(order: OrderRecord): number {
  return order.amountFen - order.refunds.filter((refund) => refund.status !== 'CLOSED').reduce((sum, refund) => sum + refund.amountFen, 0);
}

/** The modal for `order` (closed when undefined). */
export function RefundModal({ order, onClose, onDone }: { order: OrderRecord | undefined; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('billing');
  const message = useMessage();
  const [form] = Form.useForm<{ amount: number; reason: string }>();
  const [saving, setSaving] = useState(false);
  const left = order ? refundableFen(order) / 100 : 0;
  const submit = async ({ amount, reason }: { amount: number; reason: string }) => {
    if (!order) return;
    setSaving(true);
    try {
      await call(billingEndpoints.refund, { body: { outTradeNo: order.outTradeNo, amountFen: toFen(amount), reason } });
      message.success(t('refundRequested'));
      onDone();
    } catch (error) {
      // Shown by the client; the field it names is marked too.
      if (error instanceof ApiError) markFieldErrors(form, error, { 'body.amountFen': 'amount' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={order !== undefined} title={`${t('refund')} · ${order?.outTradeNo ?? ''}`} confirmLoading={saving} destroyOnHidden onCancel={onClose}
      okButtonProps={{ id: 'refund-submit', htmlType: 'submit', form: 'refund-form' }}>
      <Form form={form} id="refund-form" layout="vertical" initialValues={{ amount: left }} onFinish={(values) => void submit(values)} preserve={false}>
        <Form.Item htmlFor="refund-amount" name="amount" label={t('refundAmount')} extra={t('refundLeft', { yuan: left.toFixed(2) })} rules={[{ required: true }, ...numberRange(0.01, left, 2)]}>
          <InputNumber id="refund-amount" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item htmlFor="refund-reason" name="reason" label={t('reason')} rules={[{ required: true, whitespace: true }, maxChars(80)]}>
          <Input id="refund-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
