/**
 * The create dialog of 登录账号's API keys: name, scope (only authority keys the signed-in account
 * holds here; the server refuses more with ESCALATION), expiry (default in 90 days; picked in the data
 * centre's zone, lib/timeZone.ts) and optional client
 * networks (CIDR, one per line). On success the key is handed to `onCreated`, which shows it once.
 */
import { AUTHORITIES, apiKeyEndpoints, ACCOUNT_TYPE_ADMIN, type Authority, type ResponseOf } from '@iot/contract';
import { DatePicker, Form, Input, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { fromPicker, inZone, toPicker } from '../../lib/timeZone';
import { useLanguage, useUserInfo } from '../../hooks/useSession';
import { maxChars } from '../../components/formRules';
import { authorityTitle } from './apiKeyColumns';

interface Values {
  name: string;
  authorities: Authority[];
  expiresAt: Dayjs;
  networks?: string;
}

export interface ApiKeyModalProps {
  open: boolean;
  onClose(): void;
  onCreated(secret: ResponseOf<typeof apiKeyEndpoints.create>): void;
}

/** The create-key dialog. */
export function ApiKeyModal({ open, onClose, onCreated }: ApiKeyModalProps) {
  const { t } = useTranslation('apiKey');
  const language = useLanguage();
  const [form] = Form.useForm<Values>();
  const { data: info } = useUserInfo();
  const held = info?.type === ACCOUNT_TYPE_ADMIN ? AUTHORITIES : (info?.authorities ?? []);
  const create = useApiMutation({
    form,
    fields: { 'body.allowedNetworks': 'networks' },
    mutationFn: (values: Values) => call(apiKeyEndpoints.create, { body: {
      name: values.name.trim(), authorities: values.authorities, expiresAt: fromPicker(values.expiresAt).toISOString(),
      allowedNetworks: (values.networks ?? '').split(/[\s,]+/).filter(Boolean),
    } }),
    success: t('created'),
    invalidate: [apiKeyEndpoints.list],
    onSuccess: (secret) => {
      onClose();
      onCreated(secret);
    },
  });
  return (
    <Modal open={open} title={t('create')} okText={t('ok')} cancelText={t('cancel')} confirmLoading={create.isPending} onOk={() => form.submit()} onCancel={onClose} afterClose={() => form.resetFields()} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void create.run(values)} autoComplete="off" initialValues={{ expiresAt: toPicker(inZone().add(90, 'day').endOf('day')) }}>
        <Form.Item htmlFor="api-key-name" name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('nameRequired') }, maxChars(64)]}>
          <Input id="api-key-name" placeholder={t('namePlaceholder')} />
        </Form.Item>
        <Form.Item htmlFor="api-key-authorities" name="authorities" label={t('authorities')} extra={t('authoritiesHint')} rules={[{ required: true, message: t('authoritiesRequired') }]}>
          <Select id="api-key-authorities" mode="multiple" allowClear optionFilterProp="label" options={held.map((key) => ({ value: key, label: authorityTitle(key, language) }))} />
        </Form.Item>
        <Form.Item name="expiresAt" label={t('expiresAt')} rules={[{ required: true, message: t('expiresRequired') }]}>
          <DatePicker showTime disabledDate={(day) => day.isBefore(toPicker(), 'day')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="networks" label={t('allowedNetworks')} extra={t('networksHint')}>
          <Input.TextArea rows={2} placeholder="203.0.113.0/24, 2001:db8::/32" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
