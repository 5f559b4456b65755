/**
 * 固件管理 · packages: the data centre's firmware (GET /iot/v1/firmwareVersionList), newest version first
 * per device type, with size and SHA-256; FIRMWARE_PACKAGE_EDIT holders upload and delete (a package an
 * unfinished rollout uses cannot be deleted), FIRMWARE_ROLLOUT_RUN holders start a rollout from a row.
 */
import { type FirmwarePackageRecord, firmwareEndpoints, formatVersion } from '@iot/contract';
import { UploadOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Space, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useAllowed } from '../../hooks/useSession';
import { DASH, formatTime } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { UploadModal } from './UploadModal';

/** Bytes as KiB / MiB. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

function columns(t: TFunction, language: string, remove?: (row: FirmwarePackageRecord) => Promise<unknown>, rollout?: (row: FirmwarePackageRecord) => void) {
  const list: TableColumnsType<FirmwarePackageRecord> = [
    { title: t('model'), dataIndex: 'model', width: 110 },
    { title: t('family'), dataIndex: 'firmwareFamily', width: 100, render: (value: string) => value || DASH },
    { title: t('version'), dataIndex: 'version', width: 100, render: formatVersion },
    { title: t('size'), dataIndex: 'sizeBytes', width: 100, align: 'right', render: formatBytes },
    {
      title: t('sha256'), dataIndex: 'sha256', width: 180,
      render: (sha: string) => <Typography.Text className="sha256" copyable={{ text: sha }} ellipsis={{ tooltip: sha }} style={{ width: 150 }}>{sha}</Typography.Text>,
    },
    { title: t('signedBy'), dataIndex: 'keyId', width: 110, render: (key: string) => key || DASH },
    { title: t('notes'), dataIndex: 'notes', ellipsis: true, render: (notes: FirmwarePackageRecord['notes']) => notes[language as 'zh-CN'] || DASH },
    { title: t('createdAt'), dataIndex: 'createdAt', width: 170, render: formatTime },
    { title: t('inUse'), dataIndex: 'activeRollouts', width: 100, align: 'right' },
  ];
  if (!remove && !rollout) return list;
  list.push({
    title: t('actions'), key: 'actions', fixed: 'right', width: 170,
    render: (_, row) => (
      <Space size={0}>
        {rollout && <Button type="link" size="small" onClick={() => rollout(row)}>{t('newRollout')}</Button>}
        {remove && (row.activeRollouts > 0 ? (
          <Tooltip title={t('inUse')}><Button type="link" size="small" danger disabled>{t('delete')}</Button></Tooltip>
        ) : (
          <Popconfirm title={t('deleteConfirm', { version: formatVersion(row.version) })} okText={t('ok')} cancelText={t('cancelAction')}
            okButtonProps={{ danger: true }} onConfirm={() => remove(row)}>
            <Button type="link" size="small" danger>{t('delete')}</Button>
          </Popconfirm>
        ))}
      </Space>
    ),
  });
  return list;
}

function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  return { keyword: keyword || undefined };
}

/** The packages list with upload; `onRollout` opens the new-rollout dialog for a package. */
export function PackagesTab({ onRollout }: { onRollout(packageId: number): void }) {
  const { t, i18n } = useTranslation('firmware');
  const mayEdit = useAllowed('FIRMWARE_PACKAGE_EDIT');
  const mayRun = useAllowed('FIRMWARE_ROLLOUT_RUN');
  const [uploading, setUploading] = useState(false);
  const remove = useApiMutation({
    mutationFn: (id: number) => call(firmwareEndpoints.deletePackage, { body: { id } }), success: t('deleted'), invalidate: [firmwareEndpoints.packages],
  });
  const removeRun = remove.run;
  const tableColumns = useMemo(() => columns(t, i18n.language, mayEdit ? (row) => removeRun(row.id) : undefined,
    mayRun ? (row) => onRollout(row.id) : undefined), [t, i18n.language, mayEdit, mayRun, removeRun, onRollout]);
  const filters = (
    <Form.Item htmlFor="firmware-keyword" name="keyword" label={t('keyword')}>
      <Input id="firmware-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
    </Form.Item>
  );
  const toolbar = mayEdit ? <Button id="firmware-upload" type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)}>{t('upload')}</Button> : undefined;
  return (
    <>
      <ServerTable<FirmwarePackageRecord> endpoint={firmwareEndpoints.packages} columns={tableColumns} rowKey="id" filters={filters} toQuery={toQuery} toolbar={toolbar} />
      <UploadModal open={uploading} onClose={() => setUploading(false)} />
    </>
  );
}
