/**
 * "离线密码 / Offline code" of 密码管理 (POST /iot/v1/offlineCode, needs LOCK_OFFLINE_CODE):
 * a lock (any, sleeping or not: no downlink), a kind with its window in the data centre's zone, and the
 * recipient; the answer shows the code large and copyable with its validity, this once.
 */
import { MAX_DAILY_DAYS, MAX_HOURLY_HOURS, OFFLINE_CODE_KINDS, offlineCodeEndpoints, type OfflineCodeIssueBody, type OfflineCodeIssued, type OfflineCodeKind } from '@iot/contract';
import { Alert, Button, DatePicker, Descriptions, Form, Input, InputNumber, Modal, Radio, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { fromPicker } from '../../lib/timeZone';
import { LockSelect } from '../../components/LockSelect';
import { validityText } from '../../components/credential/shared';

interface Values {
  lockId: number;
  recipientName: string;
  recipientMobile: string;
  window: { kind: OfflineCodeKind; start?: Dayjs; hours?: number; dates?: [Dayjs, Dayjs]; fromHour?: number; toHour?: number };
}

const FIELDS = { 'body.window.firstDate': 'window.dates', 'body.window.lastDate': 'window.dates' };

/** The request body of the form's values (start truncated to its hour in the data centre's zone). */
function bodyOf(v: Values): OfflineCodeIssueBody {
  const w = v.window;
  const start = () => fromPicker((w.start as Dayjs).minute(0).second(0).millisecond(0)).format();
  const window: OfflineCodeIssueBody['window'] = w.kind === 'oneTime' ? { kind: 'oneTime', start: start() }
    : w.kind === 'hourly' ? { kind: 'hourly', start: start(), hours: w.hours as number }
      : { kind: 'daily', firstDate: (w.dates as [Dayjs, Dayjs])[0].format('YYYY-MM-DD'), lastDate: (w.dates as [Dayjs, Dayjs])[1].format('YYYY-MM-DD'), fromHour: w.fromHour as number, toHour: w.toHour as number };
  return { lockId: v.lockId, recipientName: v.recipientName, recipientMobile: v.recipientMobile, window };
}

/** The dialog; `lockId` preselects the page's lock. */
export function OfflineCodeModal({ open, lockId, onClose }: { open: boolean; lockId?: number; onClose(): void }) {
  const { t } = useTranslation(['offlineCode', 'credential']);
  const [form] = Form.useForm<Values>();
  const [issued, setIssued] = useState<OfflineCodeIssued>();
  const kind = Form.useWatch(['window', 'kind'], form);
  const issue = useApiMutation({
    mutationFn: (body: OfflineCodeIssueBody) => call(offlineCodeEndpoints.issue, { body }),
    invalidate: [offlineCodeEndpoints.list], form, fields: FIELDS, onSuccess: setIssued,
  });
  const again = () => { setIssued(undefined); form.resetFields(['recipientName', 'recipientMobile']); };
  const footer = issued
    ? <Space><Button onClick={again}>{t('another')}</Button><Button type="primary" onClick={onClose}>{t('close')}</Button></Space>
    : <Space><Button onClick={onClose}>{t('close')}</Button><Button type="primary" loading={issue.isPending} onClick={() => form.submit()}>{t('issue')}</Button></Space>;
  return (
    <Modal open={open} title={t('title')} onCancel={onClose} footer={footer} forceRender className="offline-code-modal" width={560}
      afterClose={() => { setIssued(undefined); form.resetFields(); }} afterOpenChange={(opened) => opened && form.setFieldsValue({ lockId })}>
      {issued ? <IssuedCode issued={issued} /> : (
        <Form form={form} layout="vertical" initialValues={{ window: { kind: 'oneTime', hours: 24, fromHour: 9, toHour: 18 } }} onFinish={(v) => void issue.run(bodyOf(v))} autoComplete="off">
          <Typography.Paragraph type="secondary">{t('hint')}</Typography.Paragraph>
          <Form.Item htmlFor="offline-lock" name="lockId" label={t('lock')} rules={[{ required: true }]}><LockSelect byId id="offline-lock" block /></Form.Item>
          <Form.Item htmlFor="offline-kind" name={['window', 'kind']} label={t('kind')}>
            <Radio.Group id="offline-kind" options={OFFLINE_CODE_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
          </Form.Item>
          {kind !== 'daily' && (
            <Space align="start" wrap>
              <Form.Item htmlFor="offline-start" name={['window', 'start']} label={t('start')} rules={[{ required: true }]}>
                <DatePicker id="offline-start" showTime={{ format: 'HH' }} format="YYYY-MM-DD HH:00" />
              </Form.Item>
              {kind === 'hourly' && (
                <Form.Item htmlFor="offline-hours" name={['window', 'hours']} label={t('hours')} rules={[{ required: true }]}>
                  <InputNumber id="offline-hours" min={1} max={MAX_HOURLY_HOURS} precision={0} />
                </Form.Item>
              )}
            </Space>
          )}
          {kind === 'daily' && (
            <Space align="start" wrap>
              <Form.Item htmlFor="offline-dates" name={['window', 'dates']} label={t('dates')} rules={[{ required: true }]} extra={`≤ ${MAX_DAILY_DAYS}`}>
                <DatePicker.RangePicker id="offline-dates" />
              </Form.Item>
              <Form.Item htmlFor="offline-from" name={['window', 'fromHour']} label={t('fromHour')} rules={[{ required: true }]}><InputNumber id="offline-from" min={0} max={23} precision={0} /></Form.Item>
              <Form.Item htmlFor="offline-to" name={['window', 'toHour']} label={t('toHour')} rules={[{ required: true }]}><InputNumber id="offline-to" min={1} max={24} precision={0} /></Form.Item>
            </Space>
          )}
          <Space align="start" wrap>
            <Form.Item htmlFor="offline-name" name="recipientName" label={t('recipientName')} rules={[{ required: true, whitespace: true, max: 50 }]}><Input id="offline-name" /></Form.Item>
            <Form.Item htmlFor="offline-mobile" name="recipientMobile" label={t('recipientMobile')} rules={[{ required: true, pattern: /^1[3-9]\d{9}$/ }]}><Input id="offline-mobile" inputMode="tel" maxLength={11} /></Form.Item>
          </Space>
        </Form>
      )}
    </Modal>
  );
}

/** The code, large and copyable, with its lock, kind and validity. */
function IssuedCode({ issued }: { issued: OfflineCodeIssued }) {
  const { t } = useTranslation(['offlineCode', 'credential']);
  return (
    <>
      <Alert type="success" showIcon title={t('issued')} description={t('codeOnce')} />
      <Typography.Title level={1} copyable={{ text: issued.code }} className="offline-code-digits" style={{ letterSpacing: 6, textAlign: 'center', margin: '24px 0', fontFamily: 'monospace' }}>
        {issued.code}
      </Typography.Title>
      <Descriptions column={1} size="small" bordered items={[
        { key: 'lock', label: t('lock'), children: issued.lockName },
        { key: 'kind', label: t('kind'), children: `${t(`kindShort.${issued.kind}`)}${issued.kind === 'oneTime' ? ` · ${t('oneTimeNote')}` : ''}` },
        { key: 'validity', label: t('validity'), children: <span className="offline-code-validity">{validityText(t, issued.validFrom, issued.validTo)}{issued.fromHour !== null && <><br />{t('dailyHours', { from: issued.fromHour, to: issued.toHour })}</>}</span> },
        { key: 'recipient', label: t('recipient'), children: `${issued.recipientName} · ${issued.recipientMobile}` },
      ]} />
    </>
  );
}
