/**
 * One rollout's view: state (and why it paused), actions by state (start, pause, resume, cancel, retry
 * failed; FIRMWARE_ROLLOUT_RUN), a progress bar, the number of locks per state, failures with reasons,
 * and each lock (IMEI via LockLink) with its state, gate or reason, progress and attempt. Polls every 2 s.
 */
import { firmwareEndpoints, formatVersion, OTA_JOB_STATES, type OtaJobRecord } from '@iot/contract';
import { Button, Descriptions, Drawer, Popconfirm, Progress, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useAllowed } from '../../hooks/useSession';
import { LockLink } from '../../components/LockLink';
import { DASH, formatTime } from '../../components/logColumns';
import { JobBadge, RolloutBadge, jobDetail } from '../../components/firmwareBadges';
import { percentUpdated } from './RolloutsTab';

/** Times and IMEIs stay on one line (a date broken at its hyphens is hard to read); the table scrolls instead. */
const noWrap = () => ({ style: { whiteSpace: 'nowrap' as const } });

type Action = 'start' | 'pause' | 'resume' | 'cancel' | 'retryFailed';
const ACTIONS: Record<string, Action[]> = { CREATED: ['start', 'cancel'], RUNNING: ['pause', 'cancel', 'retryFailed'], PAUSED: ['resume', 'cancel', 'retryFailed'], COMPLETED: ['retryFailed'] };

/** The drawer of rollout `id` (closed when undefined). */
export function RolloutDrawer({ id, onClose }: { id?: number; onClose(): void }) {
  const { t } = useTranslation('firmware');
  const mayRun = useAllowed('FIRMWARE_ROLLOUT_RUN');
  const [page, setPage] = useState({ current: 1, size: 10 });
  const { data: rollout } = useApiQuery(firmwareEndpoints.rollout, { id: id ?? 0 }, { enabled: id !== undefined, refetchInterval: 2000 });
  const { data: locks } = useApiQuery(firmwareEndpoints.rolloutLocks, { id: id ?? 0, ...page }, { enabled: id !== undefined, refetchInterval: 2000, keepPrevious: true });
  const act = useApiMutation({
    mutationFn: (action: Action) => call(firmwareEndpoints[action], { body: { id: id as number } }), success: t('done'),
    invalidate: [firmwareEndpoints.rollout, firmwareEndpoints.rolloutLocks, firmwareEndpoints.rollouts],
  });
  const button = (action: Action) => {
    const node = <Button key={action} id={`rollout-${action}`} danger={action === 'cancel'} type={action === 'start' || action === 'resume' ? 'primary' : 'default'}
      onClick={action === 'cancel' ? undefined : () => act.run(action)}>{t(action)}</Button>;
    return action === 'cancel' ? <Popconfirm key={action} title={t('cancelConfirm')} okText={t('ok')} cancelText={t('cancelAction')} onConfirm={() => act.run(action)}>{node}</Popconfirm> : node;
  };
  const columns = [
    { title: 'IMEI', dataIndex: 'imei', onCell: noWrap, render: (imei: string, row: OtaJobRecord) => <Space size={4}><LockLink imei={imei} />{row.canary && <Tag color="gold">{t('canary')}</Tag>}</Space> },
    { title: t('state'), dataIndex: 'state', render: (state: OtaJobRecord['state'], row: OtaJobRecord) => <Space size={4}><JobBadge state={state} /><Typography.Text type="secondary">{jobDetail(t, row)}</Typography.Text></Space> },
    { title: t('progress'), dataIndex: 'progress', width: 150, render: (value: number) => <Progress percent={value} size="small" /> },
    { title: t('fromVersion'), dataIndex: 'fromVersion', render: (value: string | null) => formatVersion(value) || DASH },
    { title: t('currentVersion'), dataIndex: 'currentVersion', render: (value: string | null) => formatVersion(value) || DASH },
    { title: t('attempt', { n: '' }).trim(), dataIndex: 'attempt', width: 80, align: 'right' as const },
    { title: t('updatedAt'), dataIndex: 'updatedAt', render: formatTime, onCell: noWrap },
  ];
  return (
    <Drawer open={id !== undefined} onClose={onClose} size="min(1000px, 96vw)" title={rollout ? `${rollout.name || `#${rollout.id}`} · ${rollout.model} ${formatVersion(rollout.version)}` : ''}
      extra={mayRun && rollout ? <Space>{(ACTIONS[rollout.state] ?? []).map(button)}</Space> : undefined}>
      {rollout && (
        <>
          <Descriptions size="small" column={3} items={[
            { key: 'state', label: t('state'), children: <Space><RolloutBadge state={rollout.state} />{rollout.pauseReason && <Typography.Text type="warning">{t(`pauseReasons.${rollout.pauseReason}`)}</Typography.Text>}</Space> },
            { key: 'gates', label: t('minBattery'), children: t('gatesSummary', { battery: rollout.minBattery, rssi: rollout.minRssi }) },
            { key: 'window', label: t('window'), children: rollout.window ? `${rollout.window.start}-${rollout.window.end} (${rollout.timeZone})` : DASH },
            { key: 'canary', label: t('canarySize'), children: rollout.canarySize },
            { key: 'pause', label: t('failureThresholdPct'), children: `${rollout.failureThresholdPct}% / ${rollout.minResults}` },
            { key: 'skipped', label: t('skipped'), children: rollout.skipped },
          ]} />
          <Progress className="rollout-progress" percent={percentUpdated(rollout)} status={rollout.counts.FAILED ? 'exception' : rollout.state === 'COMPLETED' ? 'success' : 'active'} style={{ margin: '12px 0' }} />
          <Space wrap id="rollout-counts" style={{ marginBottom: 12 }}>
            {OTA_JOB_STATES.map((state) => <Tag key={state} data-state={state}>{t(`jobStates.${state}`)} {rollout.counts[state] ?? 0}</Tag>)}
          </Space>
          <div style={{ marginBottom: 12 }}>
            <Typography.Text strong>{t('failures')}: </Typography.Text>
            {rollout.failures.length === 0 ? t('noFailures') : rollout.failures.map((f) => <Tag color="red" key={f.reason}>{t(`reasons.${f.reason}`, { defaultValue: f.reason })} × {f.count}</Tag>)}
          </div>
          <Table<OtaJobRecord> id="rollout-locks" rowKey="lockId" size="small" columns={columns} dataSource={locks?.records ?? []} scroll={{ x: 'max-content' }}
            pagination={{ current: page.current, pageSize: page.size, total: locks?.total ?? 0, onChange: (current, size) => setPage({ current, size }) }} />
        </>
      )}
    </Drawer>
  );
}
