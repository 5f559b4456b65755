/**
 * 固件管理 · rollouts (GET /iot/v1/firmware/rollout/list): each rule with its state, progress (UPDATED
 * of all locks) and counts; a row opens the rollout's view (RolloutDrawer). FIRMWARE_ROLLOUT_RUN
 * holders create rules (RolloutModal).
 */
import { type RolloutRecord, firmwareEndpoints, formatVersion } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Progress, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllowed } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { RolloutBadge } from '../../components/firmwareBadges';

/** Share of a rollout's locks that are UPDATED, %. */
export const percentUpdated = (rollout: Pick<RolloutRecord, 'counts' | 'total'>) =>
  rollout.total === 0 ? 0 : Math.floor(((rollout.counts.UPDATED ?? 0) * 100) / rollout.total);

/** The rollouts list; `onOpen` shows one, `onCreate` opens the new-rollout dialog. */
export function RolloutsTab({ onOpen, onCreate }: { onOpen(id: number): void; onCreate(): void }) {
  const { t } = useTranslation('firmware');
  const mayRun = useAllowed('FIRMWARE_ROLLOUT_RUN');
  const columns = useMemo<TableColumnsType<RolloutRecord>>(() => [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: t('rolloutName'), dataIndex: 'name', render: (name: string, row) => <Button type="link" size="small" onClick={() => onOpen(row.id)}>{name || `#${row.id}`}</Button> },
    { title: t('package'), key: 'package', render: (_, row) => `${row.model} · ${formatVersion(row.version)}` },
    { title: t('state'), dataIndex: 'state', width: 120, render: (state: RolloutRecord['state']) => <RolloutBadge state={state} /> },
    { title: t('progress'), key: 'progress', width: 200, render: (_, row) => <Progress percent={percentUpdated(row)} size="small" status={row.counts.FAILED ? 'exception' : undefined} /> },
    { title: t('locks'), dataIndex: 'total', width: 80, align: 'right' },
    { title: t('jobStates.FAILED'), key: 'failed', width: 80, align: 'right', render: (_, row) => row.counts.FAILED ?? 0 },
    { title: t('createdAt'), dataIndex: 'createdAt', width: 170, render: formatTime },
    { title: t('actions'), key: 'actions', width: 90, render: (_, row) => <Button type="link" size="small" onClick={() => onOpen(row.id)}>{t('detail')}</Button> },
  ], [t, onOpen]);
  const toolbar = mayRun ? <Button id="rollout-new" type="primary" icon={<PlusOutlined />} onClick={onCreate}>{t('newRollout')}</Button> : undefined;
  return <ServerTable<RolloutRecord> endpoint={firmwareEndpoints.rollouts} columns={columns} rowKey="id" toolbar={toolbar} refetchInterval={3000} />;
}
