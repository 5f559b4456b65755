/**
 * Add or edit a notification channel: name, kind (fixed once created), message language, enabled, and
 * the kind's fields (ChannelKindFields). The server's refusals (a private address, plain http, a bad
 * e-mail) show on their fields. Editing, the stored URL is shown masked: left as shown it is kept, and
 * a secret or password left empty is kept too.
 */
import { type BodyOf, LANGUAGES, NOTIFICATION_CHANNEL_KINDS, type NotificationChannelKind, type NotificationChannelRecord, notificationEndpoints as api } from '@iot/contract';
import { Col, Form, Input, Modal, Row, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useApiMutation } from '../../../api/useApiMutation';
import { maxChars } from '../../../components/formRules';
import { ChannelKindFields } from './ChannelKindFields';

interface Values {
  kind: NotificationChannelKind; name: string; language: (typeof LANGUAGES)[number]; enabled: boolean;
  url?: string; secret?: string; host?: string; port?: number; secure?: boolean; username?: string; password?: string; from?: string; to?: string[];
}

/** The body without its id: a create body whose secrets the form requires, an update body's may be left out. */
type Fields = BodyOf<typeof api.channel.update> extends infer B ? (B extends unknown ? Omit<B, 'id'> : never) : never;

const blankToUndefined = (value?: string) => (value?.trim() ? value.trim() : undefined);

/** Values -> the create or update body (only the kind's fields; kept secrets and the masked URL left out). */
function bodyOf(values: Values, record?: NotificationChannelRecord): Fields {
  const common = { name: values.name.trim(), language: values.language, enabled: values.enabled };
  if (values.kind === 'email') {
    return {
      ...common, kind: 'email', host: values.host?.trim() ?? '', port: values.port ?? 465, secure: values.secure ?? true,
      username: values.username?.trim() ?? '', password: values.password || undefined, from: values.from?.trim() ?? '', to: values.to ?? [],
    };
  }
  const url = blankToUndefined(values.url);
  return { ...common, kind: values.kind, url: record && url === record.url ? undefined : url, secret: blankToUndefined(values.secret) };
}

/** Form values of a stored channel. */
function valuesOf(record: NotificationChannelRecord): Values {
  const { kind, name, language, enabled } = record;
  return { kind, name, language, enabled, url: record.url ?? undefined, ...(record.email ?? {}) };
}

/** The modal; `record` absent: a new channel. */
export function ChannelModal({ record, open, onClose }: { record?: NotificationChannelRecord; open: boolean; onClose(): void }) {
  const { t } = useTranslation('notification');
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) ?? record?.kind ?? 'dingtalk';
  const save = useApiMutation({
    form,
    mutationFn: (values: Values) => (record
      ? call(api.channel.update, { body: { id: record.id, ...bodyOf(values, record) } })
      : call(api.channel.create, { body: bodyOf(values) as BodyOf<typeof api.channel.create> })),
    success: t('saved'), invalidate: [api.channel.list], onSuccess: onClose,
  });
  useEffect(() => {
    if (open) form.setFieldsValue(record ? valuesOf(record) : { kind: 'dingtalk', language: 'zh-CN', enabled: true, port: 465, secure: true });
  }, [open, record, form]);

  return (
    <Modal open={open} width={640} title={record ? t('editChannel') : t('addChannel')} okText={t('ok')} cancelText={t('cancel')}
      confirmLoading={save.isPending} onOk={() => form.submit()} onCancel={onClose} afterClose={() => form.resetFields()} forceRender>
      <Form form={form} layout="vertical" onFinish={(values) => void save.run(values)} autoComplete="off">
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item htmlFor="channel-kind" name="kind" label={t('kind')} rules={[{ required: true }]}>
              <Select id="channel-kind" disabled={Boolean(record)} options={NOTIFICATION_CHANNEL_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}><Form.Item htmlFor="channel-name" name="name" label={t('name')} rules={[{ required: true, whitespace: true }, maxChars(64)]}><Input id="channel-name" /></Form.Item></Col>
        </Row>
        <ChannelKindFields kind={kind} secretHint={record ? record.secretHint : undefined} />
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item htmlFor="channel-language" name="language" label={t('language')}>
              <Select id="channel-language" options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}><Form.Item name="enabled" label={t('enabled')} valuePropName="checked"><Switch /></Form.Item></Col>
        </Row>
      </Form>
    </Modal>
  );
}
