/**
 * 时间表管理: week-day and year-day schedules of lock users (Matter WeekDaySchedule,
 * YearDaySchedule) per lock or for all locks, sync states live (添加中 -> 正常); add, modify, delete,
 * retry or discard a failed one; apply a schedule template to a group or building; who can open a
 * lock at a given time, with the reasons.
 */
import { type AccessScheduleRecord, accessScheduleEndpoints, SCHEDULE_KIND_LABELS, SCHEDULE_KINDS, USER_TYPE_LABELS, USER_TYPES } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useLanguage } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { lockColumn, syncColumn } from '../../components/credential/columns';
import { credentialFormValues, LOCK_FIELD, LockFilterItem, usePickedLock } from '../../components/credential/LockBar';
import { listQuery, RowActions, SYNC_REFETCH_MS, SyncAndKeywordFilters, useOperation } from '../../components/credential/shared';
import { WhoCanOpenDrawer } from '../../components/credential/WhoCanOpenDrawer';
import { ScheduleModal } from './ScheduleModal';
import { scheduleText } from './scheduleText';
import { TemplateModal } from './TemplateModal';

const LISTS = [accessScheduleEndpoints.list];
type Dialog = { kind: 'none' } | { kind: 'schedule'; schedule?: AccessScheduleRecord } | { kind: 'template' } | { kind: 'who' };

/** The schedule page. */
export default function VoucherScheduleManagePage() {
  const { t } = useTranslation('accessSchedule');
  const language = useLanguage();
  const lockId = usePickedLock();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [last, setLast] = useState<AccessScheduleRecord>();
  const operate = useOperation(...LISTS);
  const close = () => setDialog({ kind: 'none' });

  const columns = useMemo<TableColumnsType<AccessScheduleRecord>>(() => [
    lockColumn<AccessScheduleRecord>(t),
    { title: t('user'), key: 'user', render: (_: unknown, r) => `#${r.userSlot} ${r.userName}` },
    { title: t('userType'), dataIndex: 'userType', render: (v: AccessScheduleRecord['userType']) => <Tag>{USER_TYPE_LABELS[v][language]}</Tag> },
    { title: t('kind'), dataIndex: 'kind', render: (v: AccessScheduleRecord['kind']) => SCHEDULE_KIND_LABELS[v][language] },
    { title: t('when'), key: 'when', render: (_: unknown, r) => <span className="schedule-when">{scheduleText(r, language)}</span> },
    { title: t('index'), dataIndex: 'index', align: 'right' },
    syncColumn<AccessScheduleRecord>(t),
    { title: t('updatedAt'), dataIndex: 'updatedAt', render: formatTime, sorter: true },
    {
      title: t('actions'), key: 'actions', fixed: 'right',
      render: (_: unknown, row) => (
        <RowActions row={row} routes={accessScheduleEndpoints} lists={LISTS}
          onDelete={(r) => operate(() => call(accessScheduleEndpoints.operate, { body: { action: 'delete', id: r.id } }), t('saved'))}>
          {row.syncState === 'normal' && <Button type="link" size="small" onClick={() => { setLast(row); setDialog({ kind: 'schedule', schedule: row }); }}>{t('modify')}</Button>}
        </RowActions>
      ),
    },
  ], [t, language, operate]);

  const filters = (
    <>
      <LockFilterItem />
      <Form.Item name="kind" label={t('kind')}>
        <Select style={{ width: 140 }} options={[{ value: 'all', label: t('all') }, ...SCHEDULE_KINDS.map((k) => ({ value: k, label: SCHEDULE_KIND_LABELS[k][language] }))]} />
      </Form.Item>
      <Form.Item name="userType" label={t('userType')}>
        <Select style={{ width: 170 }} options={[{ value: 'all', label: t('all') }, ...USER_TYPES.map((u) => ({ value: u, label: USER_TYPE_LABELS[u][language] }))]} />
      </Form.Item>
      <SyncAndKeywordFilters placeholder="userKeywordPlaceholder" />
    </>
  );
  const toolbar = (
    <Space className="credential-lock-bar">
      <Button onClick={() => setDialog({ kind: 'who' })}>{t('whoCanOpen')}</Button>
      <Button onClick={() => setDialog({ kind: 'template' })}>{t('template')}</Button>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => { setLast(undefined); setDialog({ kind: 'schedule' }); }}>{t('add')}</Button>
    </Space>
  );
  return (
    <>
      <ServerTable<AccessScheduleRecord>
        endpoint={accessScheduleEndpoints.list} columns={columns} rowKey="id" filters={filters}
        initialFilters={{ kind: 'all', userType: 'all', syncState: 'all' }}
        toQuery={listQuery} fromQuery={credentialFormValues} instant={LOCK_FIELD} toolbar={toolbar}
        refetchInterval={SYNC_REFETCH_MS}
      />
      <ScheduleModal open={dialog.kind === 'schedule'} schedule={last} lockId={lockId} onClose={close} />
      <TemplateModal open={dialog.kind === 'template'} onClose={close} />
      <WhoCanOpenDrawer open={dialog.kind === 'who'} lockId={lockId} onClose={close} />
    </>
  );
}
