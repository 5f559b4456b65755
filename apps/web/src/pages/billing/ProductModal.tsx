/** Creating or editing a package (POST /iot/v1/wx/product/save; platform administrators: packages are shared by every data centre). Price typed in yuan, sent in fen. */
import { type ProductRecord, billingEndpoints } from '@iot/contract';
import { Form, Input, InputNumber, Modal, Switch } from 'antd';
import { useMessage } from '../../components/appMessage';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { markFieldErrors } from '../../api/fieldErrors';
import { toFen } from './money';
import { numberRange } from '../../components/formRules';

type Values = Omit<ProductRecord, 'id' | 'priceFen'> & { priceYuan: number };

/** `product`: null for a new one, undefined when closed. */
export function ProductModal({ product, onClose, onDone }: { product: ProductRecord | null | undefined; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('billing');
  const message = useMessage();
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<Values>();
  const submit = async ({ priceYuan, ...values }: Values) => {
    setSaving(true);
    try {
      await call(billingEndpoints.productSave, { body: { ...values, ...(product ? { id: product.id } : {}), priceFen: toFen(priceYuan) } });
      message.success(t('saved'));
      onDone();
    } catch (error) {
      // Shown by the client; the field it names is marked too.
      if (error instanceof ApiError) markFieldErrors(form, error, { 'body.priceFen': 'priceYuan' });
    } finally {
      setSaving(false);
    }
  };
  const initial = product ? { ...product, priceYuan: product.priceFen / 100 } : { lockCount: 1, months: 12, enabled: true };
  const text = (name: keyof Values, max: number, required = true) => (
    <Form.Item name={name} label={t(name)} rules={[{ required, max, whitespace: true }]}><Input id={`product-${name}`} /></Form.Item>
  );
  return (
    <Modal open={product !== undefined} title={product ? t('editPackage') : t('addPackage')} confirmLoading={saving} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(values) => void submit(values)} preserve={false}>
        {text('nameZh', 64)}
        {text('nameEn', 64)}
        {text('descriptionZh', 500, false)}
        {text('descriptionEn', 500, false)}
        <Form.Item htmlFor="product-priceYuan" name="priceYuan" label={t('priceYuan')} rules={[{ required: true }, ...numberRange(0.01, 1_000_000, 2)]}><InputNumber id="product-priceYuan" /></Form.Item>
        <Form.Item htmlFor="product-lockCount" name="lockCount" label={t('lockCount')} rules={[{ required: true }, ...numberRange(1, 500)]}><InputNumber id="product-lockCount" /></Form.Item>
        <Form.Item htmlFor="product-months" name="months" label={t('months')} rules={[{ required: true }, ...numberRange(1, 120)]}><InputNumber id="product-months" /></Form.Item>
        <Form.Item name="enabled" label={t('enabled')} valuePropName="checked"><Switch /></Form.Item>
      </Form>
    </Modal>
  );
}
