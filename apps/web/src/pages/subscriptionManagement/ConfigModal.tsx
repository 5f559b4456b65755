/**
 * Push configuration of a customer code: endpoint URL (https; http only for localhost), event types
 * and optionally buildings. Saving sends the signed verification request; a refusal (unreachable,
 * no challenge in the answer, a private address) shows the server's reason on the URL field, and one
 * about the code (no signing key yet) as the toast (useApiMutation's `form`).
 */
import { type CustomerCodeRecord, PUSH_EVENT_TYPES, type PushEventType, subscriptionEndpoints as api } from '@iot/contract';
import { Checkbox, Form, Input, Modal, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';

interface Values { url: string; eventTypes: PushEventType[]; buildings: string[]; enabled: boolean }

/** The modal for `record`. */
export function ConfigModal({ record, open, onClose, onSaved }: { record?: CustomerCodeRecord; open: boolean; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation('subscription');
  const [form] = Form.useForm<Values>();
  const save = useApiMutation({
    form,
    mutationFn: (values: Values) => call(api.saveConfig, { body: { customerCode: record?.customerCode ?? '', ...values, url: values.url.trim() } }),
    success: (result) => t('verified', { status: result.status, ms: result.latencyMs }),
    invalidate: [api.customerCodes],
    onSuccess: () => { onSaved(); onClose(); },
  });
  useEffect(() => {
    if (open && record) form.setFieldsValue(record.config ?? { url: '', eventTypes: ['unlock', 'alarm', 'doorState', 'commandResult', 'credentialSync'], buildings: [], enabled: true });
  }, [open, record, form]);

  return (
    <Modal open={open} width={640} title={t('configTitle', { code: record?.customerCode ?? '' })} okText={t('verifyAndSave')} cancelText={t('cancel')}
      confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} afterClose={() => form.resetFields()} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Form.Item htmlFor="config-url" name="url" label={t('endpoint')} extra={t('endpointHint')} rules={[{ required: true, whitespace: true }]}>
          <Input id="config-url" placeholder="https://example.com/iot/push" />
        </Form.Item>
        <Form.Item name="eventTypes" label={t('eventTypes')} rules={[{ required: true, type: 'array', min: 1, message: t('eventTypesRequired') }]}>
          <Checkbox.Group options={PUSH_EVENT_TYPES.map((type) => ({ value: type, label: t(`eventType.${type}`) }))} />
        </Form.Item>
        <Form.Item htmlFor="config-buildings" name="buildings" label={t('buildings')} extra={t('buildingsHint')}>
          <Select mode="tags" id="config-buildings" tokenSeparators={[',', '，']} open={false} />
        </Form.Item>
        <Form.Item name="enabled" label={t('enabled')} valuePropName="checked"><Switch /></Form.Item>
      </Form>
    </Modal>
  );
}
