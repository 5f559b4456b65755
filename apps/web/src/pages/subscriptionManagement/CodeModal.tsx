/** Add or edit a customer code (name, contact, enabled; the code itself is generated unless given). */
import { type CustomerCodeRecord, subscriptionEndpoints as api } from '@iot/contract';
import { Form, Input, Modal, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { maxChars } from '../../components/formRules';

interface Values { customerCode?: string; name: string; contact?: string; enabled: boolean }

/** The modal; `record` absent: a new code. */
export function CodeModal({ record, open, onClose, onSaved }: { record?: CustomerCodeRecord; open: boolean; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('subscription');
  const [form] = Form.useForm<Values>();
  const save = useApiMutation({
    form,
    mutationFn: (values: Values) => call(api.saveCustomerCode, {
      body: { id: record?.id, customerCode: values.customerCode?.trim() || undefined, name: values.name, contact: values.contact ?? '', enabled: values.enabled },
    }),
    success: t('saved'), invalidate: [api.customerCodes], onSuccess: () => { onSaved(); onClose(); },
  });
  useEffect(() => {
    if (open) form.setFieldsValue(record ? { customerCode: record.customerCode, name: record.name, contact: record.contact, enabled: record.enabled } : { enabled: true });
  }, [open, record, form]);

  return (
    <Modal open={open} title={record ? t('editCode') : t('addCode')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={save.isPending}
      onOk={() => form.submit()} onCancel={onClose} afterClose={() => form.resetFields()} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Form.Item htmlFor="code-customerCode" name="customerCode" label={t('customerCode')} extra={record ? undefined : t('codeGenerated')}
          rules={[maxChars(40), { pattern: /^[A-Za-z0-9_-]{4,40}$/, message: t('codeInvalid') }]}>
          <Input id="code-customerCode" />
        </Form.Item>
        <Form.Item htmlFor="code-name" name="name" label={t('name')} rules={[{ required: true, whitespace: true }, maxChars(64)]}>
          <Input id="code-name" />
        </Form.Item>
        <Form.Item htmlFor="code-contact" name="contact" label={t('contact')} rules={[maxChars(128)]}><Input id="code-contact" /></Form.Item>
        <Form.Item name="enabled" label={t('enabled')} valuePropName="checked"><Switch /></Form.Item>
      </Form>
    </Modal>
  );
}
