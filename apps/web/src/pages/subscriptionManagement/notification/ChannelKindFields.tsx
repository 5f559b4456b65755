/**
 * The fields of a channel's kind (contract notificationChannelCreateBody): robot webhook URL and
 * signing secret (DingTalk 加签, Feishu 签名校验), the WeCom robot's key (URL optional), the webhook's
 * URL and signing secret, or SMTP host, port, TLS, login, sender and recipients. Editing, a secret left
 * empty keeps the stored one (`secretHint` shows which).
 */
import type { NotificationChannelKind } from '@iot/contract';
import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { maxChars, numberRange } from '../../../components/formRules';

/** The kind's fields; `secretHint` given: editing, secrets optional. */
export function ChannelKindFields({ kind, secretHint }: { kind: NotificationChannelKind; secretHint?: string | null }) {
  const { t } = useTranslation('notification');
  const editing = secretHint !== undefined;
  const secretRules = [{ required: !editing, whitespace: true }, { type: 'string' as const, min: 8 }, maxChars(256)];
  const keep = editing && secretHint ? t('secretKeep', { hint: secretHint }) : undefined;
  if (kind === 'email') {
    return (
      <>
        <Row gutter={16}>
          <Col span={12}><Form.Item htmlFor="channel-host" name="host" label={t('smtpHost')} rules={[{ required: true, whitespace: true }, maxChars(253)]}><Input id="channel-host" placeholder="smtp.example.com" /></Form.Item></Col>
          <Col span={6}><Form.Item htmlFor="channel-port" name="port" label={t('smtpPort')} rules={[{ required: true }, ...numberRange(1, 65_535)]}><InputNumber id="channel-port" style={{ width: '100%' }} /></Form.Item></Col>
          <Col span={6}><Form.Item name="secure" label={t('smtpSecure')} tooltip={t('smtpSecureHint')} valuePropName="checked"><Switch /></Form.Item></Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}><Form.Item htmlFor="channel-username" name="username" label={t('smtpUser')} rules={[maxChars(254)]}><Input id="channel-username" autoComplete="off" /></Form.Item></Col>
          <Col span={12}><Form.Item htmlFor="channel-password" name="password" label={t('smtpPassword')} extra={keep} rules={[maxChars(256)]}><Input.Password id="channel-password" autoComplete="new-password" /></Form.Item></Col>
        </Row>
        <Form.Item htmlFor="channel-from" name="from" label={t('mailFrom')} rules={[{ required: true, type: 'email' }]}><Input id="channel-from" placeholder="iot@example.com" /></Form.Item>
        <Form.Item htmlFor="channel-to" name="to" label={t('mailTo')} extra={t('mailToHint')}
          rules={[{ required: true, type: 'array', min: 1, max: 20 }, { type: 'array', defaultField: { type: 'email' } }]}>
          <Select id="channel-to" mode="tags" open={false} tokenSeparators={[',', '，', ';', ' ']} />
        </Form.Item>
      </>
    );
  }
  const url = {
    dingtalk: { label: t('robotUrl'), extra: t('dingtalkUrlHint') },
    feishu: { label: t('robotUrl'), extra: t('feishuUrlHint') },
    webhook: { label: t('webhookUrl'), extra: t('webhookUrlHint') },
    wecom: { label: t('wecomUrl'), extra: t('wecomUrlHint') },
  }[kind];
  const secret = {
    dingtalk: { label: t('signSecret'), extra: t('dingtalkSecretHint') },
    feishu: { label: t('signSecret'), extra: t('feishuSecretHint') },
    webhook: { label: t('webhookSecret'), extra: undefined },
    wecom: { label: t('wecomKey'), extra: t('wecomKeyHint') },
  }[kind];
  // Editing, the stored URL carries masked tokens: a robot URL left as shown is kept (not sent).
  const urlRequired = kind !== 'wecom' && !editing;
  return (
    <>
      {kind === 'wecom' && (
        <Form.Item htmlFor="channel-secret" name="secret" label={secret.label} extra={keep ?? secret.extra} rules={secretRules}><Input.Password id="channel-secret" autoComplete="new-password" /></Form.Item>
      )}
      <Form.Item htmlFor="channel-url" name="url" label={url.label} extra={url.extra} rules={[{ required: urlRequired, whitespace: true }, maxChars(2048)]}>
        <Input id="channel-url" placeholder="https://" />
      </Form.Item>
      {kind !== 'wecom' && (
        <Form.Item htmlFor="channel-secret" name="secret" label={secret.label} extra={keep ?? secret.extra} rules={secretRules}><Input.Password id="channel-secret" autoComplete="new-password" /></Form.Item>
      )}
    </>
  );
}
