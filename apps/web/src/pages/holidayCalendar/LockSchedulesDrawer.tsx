/**
 * The holiday schedules on the locks of a calendar's scope (GET /iot/v1/holidayCalendar/lockSchedules):
 * per lock and index, the entry, its window and operating mode as sent, and its sync state (live).
 */
import { type HolidayCalendarRecord, holidayCalendarEndpoints, OPERATING_MODE_LABELS, type ResponseOf } from '@iot/contract';
import { Drawer, Table, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { useLanguage } from '../../hooks/useSession';
import { LockLink } from '../../components/LockLink';
import { SYNC_REFETCH_MS } from '../../components/credential/shared';
import { SyncStateBadge } from '../../components/credential/SyncStateBadge';

type Row = ResponseOf<typeof holidayCalendarEndpoints.lockSchedules>['records'][number];

/** The drawer of `calendar` (closed when undefined). */
export function LockSchedulesDrawer({ calendar, onClose }: { calendar?: HolidayCalendarRecord; onClose(): void }) {
  const { t } = useTranslation('holidayCalendar');
  const language = useLanguage();
  const { data } = useApiQuery(holidayCalendarEndpoints.lockSchedules, { calendarId: calendar?.id ?? 0, current: 1, size: 500 },
    { enabled: calendar !== undefined, refetchInterval: SYNC_REFETCH_MS });
  const columns = useMemo<TableColumnsType<Row>>(() => [
    { title: t('lock'), key: 'lock', render: (_: unknown, r) => <span><LockLink imei={r.imei}>{r.lockName}</LockLink> · {r.room}</span> },
    { title: t('index'), dataIndex: 'index', align: 'right' },
    { title: t('entryName'), dataIndex: 'name' },
    { title: t('window'), key: 'window', render: (_: unknown, r) => `${dayjs(r.localStartTime).format('YYYY-MM-DD HH:mm')} ~ ${dayjs(r.localEndTime).format('YYYY-MM-DD HH:mm')}` },
    { title: t('operatingMode'), dataIndex: 'operatingMode', render: (m: Row['operatingMode']) => OPERATING_MODE_LABELS[m][language] },
    { title: t('syncState'), dataIndex: 'syncState', render: (_: unknown, r) => <SyncStateBadge row={r} /> },
  ], [t, language]);
  return (
    <Drawer open={calendar !== undefined} onClose={onClose} size="large" title={t('lockSchedulesOf', { name: calendar?.name ?? '' })} destroyOnHidden className="lock-schedules-drawer">
      <Table<Row> rowKey="id" size="small" columns={columns} dataSource={data?.records ?? []} pagination={false} scroll={{ x: 'max-content' }} />
    </Drawer>
  );
}
