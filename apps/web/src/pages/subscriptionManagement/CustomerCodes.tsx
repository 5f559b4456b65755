/**
 * The customer codes of 订阅管理: one row per code with its signing key hints, endpoint, subscribed
 * events and health over 24 h (success rate, p95 latency, last success, failure streak; a paused
 * endpoint is red with a one-click resume), and the actions: edit, generate key (shown once),
 * configure push, send a test event. Polls every 5 s so retries and drains are seen as they happen.
 */
import { type CustomerCodeRecord, subscriptionEndpoints as api } from '@iot/contract';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Modal, Space, Table } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { useFittedColumns } from '../../components/useFittedColumns';
import { CodeModal } from './CodeModal';
import { codeColumns } from './codeColumns';
import { ConfigModal } from './ConfigModal';
import { DemoReceiver } from './DemoReceiver';
import { showSecret } from './showSecret';
import { useLanguage } from '../../hooks/useSession';

const REFETCH_MS = 5000;

/** The customer-code table with its modals. */
export function CustomerCodes() {
  const { t } = useTranslation('subscription');
  const [modal, modalHolder] = Modal.useModal();
  const codes = useApiQuery(api.customerCodes, {}, { refetchInterval: REFETCH_MS });
  const refresh = useInvalidate(api.customerCodes, api.deliveries);
  const [editing, setEditing] = useState<{ record?: CustomerCodeRecord; open: boolean }>({ open: false });
  const [configuring, setConfiguring] = useState<{ record?: CustomerCodeRecord; open: boolean }>({ open: false });

  const invalidate = [api.customerCodes, api.deliveries];
  const generateKey = useApiMutation({
    mutationFn: (customerCode: string) => call(api.generateKey, { body: { customerCode } }), invalidate,
    success: t('keyGenerated'), onSuccess: (key) => showSecret(modal, t, key),
  });
  const sendTest = useApiMutation({ mutationFn: (customerCode: string) => call(api.sendTest, { body: { customerCode } }), success: t('testQueued'), invalidate });
  const resume = useApiMutation({ mutationFn: (customerCode: string) => call(api.resume, { body: { customerCode } }), success: t('resumed'), invalidate });

  const language = useLanguage();
  const columns = useMemo(() => codeColumns(t, {
    edit: (record) => setEditing({ record, open: true }),
    configure: (record) => setConfiguring({ record, open: true }),
    generateKey: (record) => modal.confirm({
      title: t('generateKeyTitle', { code: record.customerCode }), content: t('generateKeyHint'), okText: t('ok'), cancelText: t('cancel'),
      onOk: () => generateKey.run(record.customerCode),
    }),
    sendTest: (record) => void sendTest.run(record.customerCode),
    resume: (record) => void resume.run(record.customerCode),
  }, language), [language, t, modal, generateKey.run, sendTest.run, resume.run]);
  const box = useRef<HTMLDivElement>(null);
  const fitted = useFittedColumns(box, columns, codes.data);

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      {modalHolder}
      <DemoReceiver />
      <Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true })}>{t('addCode')}</Button>
        <Button icon={<ReloadOutlined />} onClick={() => void refresh()}>{t('refresh')}</Button>
      </Space>
      <div ref={box}>
        <Table<CustomerCodeRecord>
          rowKey="id" size="middle" columns={fitted.columns} dataSource={codes.data ?? []} loading={codes.isLoading}
          pagination={false} scroll={{ x: fitted.scrollX }} tableLayout="fixed"
        />
      </div>
      <CodeModal {...editing} onClose={() => setEditing((s) => ({ ...s, open: false }))} onSaved={() => void refresh()} />
      <ConfigModal {...configuring} onClose={() => setConfiguring((s) => ({ ...s, open: false }))} onSaved={() => void refresh()} />
    </Space>
  );
}
