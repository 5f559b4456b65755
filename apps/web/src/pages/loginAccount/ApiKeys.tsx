/**
 * 登录账号's API keys tab (docs/identity.md "API keys"): the data centre's keys with scope,
 * networks, state, expiry and last use; create (ApiKeyModal; the key is shown once with copy and a
 * warning), rotate (confirmed, with the old key's grace in hours) and revoke (confirmed, at once).
 */
import { apiKeyEndpoints as api, type ApiKeyRecord, type ResponseOf } from '@iot/contract';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, InputNumber, Modal, Space, Table, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { useLanguage } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';
import { apiKeyColumns } from './apiKeyColumns';
import { ApiKeyModal } from './ApiKeyModal';

type Secret = ResponseOf<typeof api.create> & { previousValidUntil?: string };

/** The API-key table with its dialogs. */
export function ApiKeys() {
  const { t } = useTranslation('apiKey');
  const language = useLanguage();
  const [modal, modalHolder] = Modal.useModal();
  const keys = useApiQuery(api.list);
  const refresh = useInvalidate(api.list);
  const [creating, setCreating] = useState(false);
  const graceHours = useRef(24);

  const showKey = (secret: Secret) => modal.info({
    title: t('keyTitle'), width: 620, okText: t('keySaved'),
    content: (
      <>
        <Alert type="warning" showIcon message={t('keyOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ tooltips: [t('copy'), t('copied')] }} code data-testid="new-api-key">{secret.key}</Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('keyUsage')}</Typography.Paragraph>
        {secret.previousValidUntil && <Typography.Text type="secondary">{t('previousValidUntil', { time: formatTime(secret.previousValidUntil) })}</Typography.Text>}
      </>
    ),
  });
  const invalidate = [api.list];
  const revoke = useApiMutation({ mutationFn: (id: number) => call(api.revoke, { body: { id } }), success: t('revoked'), invalidate });
  const rotate = useApiMutation({
    mutationFn: (id: number) => call(api.rotate, { body: { id, graceS: graceHours.current * 3600 } }), success: t('rotated'), invalidate, onSuccess: showKey,
  });

  const columns = useMemo(() => apiKeyColumns(t, language, {
    revoke: (record: ApiKeyRecord) => revoke.run(record.id),
    rotate: (record: ApiKeyRecord) => {
      graceHours.current = 24;
      modal.confirm({
        title: t('rotateTitle', { name: record.name }), okText: t('rotate'), cancelText: t('cancel'),
        content: (
          <Space direction="vertical">
            <span>{t('rotateHint')}</span>
            <Space>{t('graceHours')}<InputNumber min={0} max={168} defaultValue={24} onChange={(value) => { graceHours.current = value ?? 0; }} aria-label={t('graceHours')} /></Space>
          </Space>
        ),
        onOk: () => rotate.run(record.id),
      });
    },
  }), [t, language, modal, revoke.run, rotate.run]);

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      {modalHolder}
      <Alert type="info" showIcon message={t('intro')} />
      <Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>{t('create')}</Button>
        <Button icon={<ReloadOutlined />} onClick={() => void refresh()}>{t('refresh')}</Button>
      </Space>
      <Table<ApiKeyRecord> rowKey="id" columns={columns} dataSource={keys.data ?? []} loading={keys.isLoading} scroll={{ x: 'max-content' }} pagination={{ pageSize: 20, hideOnSinglePage: true }} />
      <ApiKeyModal open={creating} onClose={() => setCreating(false)} onCreated={showKey} />
    </Space>
  );
}
