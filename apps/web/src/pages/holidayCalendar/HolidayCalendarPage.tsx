/**
 * 节假日日历: holiday calendars of the data centre (public holidays and 调休 working days as
 * data, edited or imported), each applied to chosen buildings and lock groups. Per calendar: its
 * entries, edit, 下发到门锁 (the locks in scope get the coming entries as Matter holiday schedules;
 * per-lock progress), the locks' holiday schedules with sync states, delete (cleared from the locks).
 */
import { type HolidayCalendarRecord, holidayCalendarEndpoints } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Popconfirm, Space, Tag, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { formatTime } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { type Locks, MultiLockProgress } from '../../components/credential/MultiLockProgress';
import { SYNC_REFETCH_MS, useOperation } from '../../components/credential/shared';
import { CalendarModal } from './CalendarModal';
import { EntriesDrawer } from './EntriesDrawer';
import { LockSchedulesDrawer } from './LockSchedulesDrawer';

type Dialog = { kind: 'none' } | { kind: 'edit'; calendar?: HolidayCalendarRecord } | { kind: 'entries' | 'locks'; calendar: HolidayCalendarRecord };

/** The calendar page. */
export default function HolidayCalendarPage() {
  const { t } = useTranslation('holidayCalendar');
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [progress, setProgress] = useState<Locks>();
  const operate = useOperation(holidayCalendarEndpoints.list);
  const close = () => setDialog({ kind: 'none' });
  const columns = useMemo<TableColumnsType<HolidayCalendarRecord>>(() => {
    const run = async (endpoint: typeof holidayCalendarEndpoints.apply | typeof holidayCalendarEndpoints.delete, id: number, done: string) => {
      const result = await operate(() => call(endpoint, { body: { id } }), done);
      if (result) setProgress(result.locks);
    };
    return [
      { title: t('name'), dataIndex: 'name' },
      { title: t('scope'), key: 'scope', render: (_: unknown, r) => (
        <Space size={4} wrap>{r.buildings.map((b) => <Tag key={`b${b}`} color="blue">{b}</Tag>)}{r.groupNames.map((g) => <Tag key={`g${g}`} color="purple">{g}</Tag>)}</Space>
      ) },
      { title: t('entries'), dataIndex: 'entries', align: 'right' },
      { title: t('onLocks'), key: 'onLocks', render: (_: unknown, r) => (
        <Space size={4} className="calendar-sync"><Tag color="green">{t('normal', { n: r.lockSchedules.normal })}</Tag>
          {r.lockSchedules.pending > 0 && <Tag color="processing">{t('pending', { n: r.lockSchedules.pending })}</Tag>}
          {r.lockSchedules.failed > 0 && <Tag color="error">{t('failed', { n: r.lockSchedules.failed })}</Tag>}</Space>
      ) },
      { title: t('updatedAt'), dataIndex: 'updatedAt', render: formatTime },
      { title: t('actions'), key: 'actions', fixed: 'right', render: (_: unknown, r) => (
        <Space size="small">
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'entries', calendar: r })}>{t('editEntries')}</Button>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', calendar: r })}>{t('edit')}</Button>
          <Popconfirm title={t('applyConfirm')} okText={t('ok')} cancelText={t('cancel')} onConfirm={() => run(holidayCalendarEndpoints.apply, r.id, t('applied'))}>
            <Button type="link" size="small">{t('apply')}</Button>
          </Popconfirm>
          <Button type="link" size="small" onClick={() => setDialog({ kind: 'locks', calendar: r })}>{t('lockSchedules')}</Button>
          <Popconfirm title={t('deleteConfirm')} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={() => run(holidayCalendarEndpoints.delete, r.id, t('deleted'))}>
            <Button type="link" size="small" danger>{t('delete')}</Button>
          </Popconfirm>
        </Space>
      ) },
    ];
  }, [t, operate]);
  const filters = <Form.Item name="keyword" label={t('keyword')}><Input allowClear style={{ width: 180 }} /></Form.Item>;
  const toolbar = <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'edit' })}>{t('add')}</Button>;
  return (
    <>
      <ServerTable<HolidayCalendarRecord> endpoint={holidayCalendarEndpoints.list} columns={columns} rowKey="id" filters={filters} toolbar={toolbar}
        refetchInterval={SYNC_REFETCH_MS} />
      <CalendarModal open={dialog.kind === 'edit'} calendar={dialog.kind === 'edit' ? dialog.calendar : undefined} onClose={close} />
      <EntriesDrawer calendar={dialog.kind === 'entries' ? dialog.calendar : undefined} onClose={close} />
      <LockSchedulesDrawer calendar={dialog.kind === 'locks' ? dialog.calendar : undefined} onClose={close} />
      <Modal open={progress !== undefined} title={t('progress')} onCancel={() => setProgress(undefined)} footer={<Button onClick={() => setProgress(undefined)}>{t('close')}</Button>} width={640} destroyOnHidden>
        {progress && <MultiLockProgress locks={progress} />}
      </Modal>
    </>
  );
}
