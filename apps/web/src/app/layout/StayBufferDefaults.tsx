/**
 * The data centre's default stay buffers (minutes 0..1440) in the
 * header's data-centre popover, under the time zone: what a stay booked or imported without its own
 * buffers gets. Holders of TENANT_SETTINGS change them (POST /iot/v1/tenant/settings, logged before ->
 * after); others see them read-only. Below them the switch of backup codes issued by rule
 * (`stayAutoBackupCode`, docs/stays.md "Automatic backup codes"), saved with the buffers.
 */
import { type TenantSettings, tenantEndpoints } from '@iot/contract';
import { Button, Form, InputNumber, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';

type Values = Pick<TenantSettings, 'stayBufferBeforeMinutes' | 'stayBufferAfterMinutes' | 'stayAutoBackupCode'>;

/** The two default buffers and the automatic backup codes, editable when `editable`. */
export function StayBufferDefaults({ editable }: { editable: boolean }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const { data: settings } = useApiQuery(tenantEndpoints.settings);
  useEffect(() => {
    if (settings) {
      form.setFieldsValue({
        stayBufferBeforeMinutes: settings.stayBufferBeforeMinutes, stayBufferAfterMinutes: settings.stayBufferAfterMinutes, stayAutoBackupCode: settings.stayAutoBackupCode,
      });
    }
  }, [settings, form]);
  const save = useApiMutation({
    mutationFn: (body: Values) => call(tenantEndpoints.saveSettings, { body }),
    invalidate: [tenantEndpoints.settings], form, success: t('stayBuffersSaved'),
  });
  const minutes = <InputNumber min={0} max={1440} precision={0} disabled={!editable} style={{ width: 120 }} />;
  return (
    <Form form={form} layout="vertical" className="stay-buffer-defaults" onFinish={(v) => void save.run(v)} disabled={!settings}>
      <Typography.Text strong>{t('stayBuffers')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 360 }}>{t('stayBuffersHint')}</Typography.Paragraph>
      <Space align="end" wrap>
        <Form.Item name="stayBufferBeforeMinutes" label={t('stayBufferBefore')} rules={[{ required: true }]}>{minutes}</Form.Item>
        <Form.Item name="stayBufferAfterMinutes" label={t('stayBufferAfter')} rules={[{ required: true }]}>{minutes}</Form.Item>
      </Space>
      <Form.Item htmlFor="stay-auto-backup-code" name="stayAutoBackupCode" label={t('stayAutoBackupCode')} valuePropName="checked" extra={<div style={{ maxWidth: 360 }}>{t('stayAutoBackupCodeHint')}</div>}>
        <Switch id="stay-auto-backup-code" disabled={!editable} />
      </Form.Item>
      {editable && <Form.Item><Button type="primary" htmlType="submit" id="stay-buffers-save" loading={save.isPending}>{t('save')}</Button></Form.Item>}
    </Form>
  );
}
