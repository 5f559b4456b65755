/**
 * 设备信息: the lock's OTA history (GET /iot/v1/firmware/lockHistory, newest first, refreshed with the
 * page): each rollout it took part in with the package, from → to version, state, download progress,
 * when it reached that state and why it waits or failed; a rollout links to its view in 固件管理 for
 * holders of FIRMWARE_RULE.
 */
import { firmwareEndpoints, formatVersion, type LockOtaHistoryRecord } from '@iot/contract';
import { Card, Progress, Table, type TableColumnsType, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { useAllowed } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';
import { JobBadge, jobDetail } from '../../components/firmwareBadges';

const REFETCH_MS = 5000;
const DASH = '—';

/** The OTA history card of lock `imei`. */
export function OtaHistoryCard({ imei }: { imei: string }) {
  const { t } = useTranslation('firmware');
  const { t: ti } = useTranslation('information');
  const mayOpen = useAllowed('FIRMWARE_RULE');
  const { data = [], isFetching } = useApiQuery(firmwareEndpoints.lockHistory, { imei }, { refetchInterval: REFETCH_MS });
  const columns: TableColumnsType<LockOtaHistoryRecord> = [
    {
      title: t('rolloutName'), key: 'rollout',
      render: (_: unknown, row) => {
        const name = row.rolloutName || `#${row.rolloutId}`;
        return mayOpen ? <Link to={`/firmwareRule?rollout=${row.rolloutId}`}>{name}</Link> : name;
      },
    },
    { title: t('package'), key: 'package', render: (_: unknown, row) => <span title={row.fileName ?? undefined}>{`${row.model} · ${formatVersion(row.version)}`}</span> },
    {
      title: ti('otaVersions'), key: 'versions',
      render: (_: unknown, row) => <span className="ota-versions">{`${formatVersion(row.fromVersion) || DASH} → ${formatVersion(row.version)}`}</span>,
    },
    {
      title: t('state'), dataIndex: 'state',
      render: (state: LockOtaHistoryRecord['state'], row) => (
        <>
          <JobBadge state={state} />
          {row.attempt > 1 ? <Tag style={{ marginInlineStart: 8 }}>{t('attempt', { n: row.attempt })}</Tag> : null}
        </>
      ),
    },
    { title: t('progress'), dataIndex: 'progress', width: 140, render: (progress: number, row) => <Progress percent={progress} size="small" status={row.state === 'FAILED' ? 'exception' : undefined} /> },
    { title: t('updatedAt'), dataIndex: 'updatedAt', render: formatTime },
    { title: ti('otaReason'), key: 'reason', render: (_: unknown, row) => jobDetail(t, row) || DASH },
  ];
  return (
    <Card size="small" title={t('history')} className="information-ota"
      extra={mayOpen ? <Link to="/firmwareRule">{ti('firmwarePage')}</Link> : undefined}>
      <Table<LockOtaHistoryRecord>
        rowKey={(row) => `${row.rolloutId}-${row.attempt}`} size="small" pagination={false} dataSource={data} loading={isFetching && data.length === 0}
        columns={columns} scroll={{ x: 'max-content' }} locale={{ emptyText: ti('noOta') }}
      />
    </Card>
  );
}
