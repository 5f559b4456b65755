/**
 * 今日未就绪 / Not ready today (GET /iot/v1/stay/notReady, refreshed every 30 s while open):
 * the front desk's list of today's (the data centre's day) booked or checked-in stays whose
 * credentials are not on every door yet, earliest check-in first. A button of 产品 RoomInquiry with
 * the count, opening a drawer; each row's room picks that room's lock on the page (its 入住管理 is
 * one click away).
 */
import { lockEndpoints, stayEndpoints, type StayRecord } from '@iot/contract';
import { Badge, Button, Drawer, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { formatTime } from '../../lib/timeZone';
import { ReadinessBadge } from './StayReadiness';

const REFETCH_MS = 30_000;
const roomText = (s: StayRecord) => [s.building, s.floor, s.room].filter(Boolean).join(' / ');

/** The button and its drawer; `onPick(imei)` shows the lock of a listed stay's room. */
export function StayNotReadyButton({ onPick }: { onPick(imei: string): void }) {
  const { t } = useTranslation('stay');
  const [open, setOpen] = useState(false);
  const { data, isFetching } = useApiQuery(stayEndpoints.notReady, undefined, { refetchInterval: open ? REFETCH_MS : undefined });
  /** Finds the lock of the stay's room and shows it. */
  const pickRoom = async (s: StayRecord) => {
    const locks = await call(lockEndpoints.lockRoomList, { query: { building: s.building, floor: s.floor, room: s.room, size: 20 } });
    const lock = locks.find((l) => l.location.room === s.room) ?? locks[0];
    if (!lock) return;
    setOpen(false);
    onPick(lock.imei);
  };
  const columns: TableColumnsType<StayRecord> = [
    { title: t('checkInAt'), dataIndex: 'checkInAt', width: 90, render: (at: string) => formatTime(at, 'HH:mm') },
    { title: t('room'), key: 'room', render: (_, s) => <Button type="link" size="small" className="stay-not-ready-room" onClick={() => void pickRoom(s)}>{roomText(s)}</Button> },
    { title: t('guests'), key: 'guests', render: (_, s) => s.guests.map((g) => <div key={g.id}>{`${g.name} ${g.mobile}`}</div>) },
    { title: t('state'), dataIndex: 'state', width: 90, render: (state: StayRecord['state']) => t(`states.${state}`) },
    { title: t('readiness'), key: 'readiness', width: 170, render: (_, s) => <ReadinessBadge stay={s} /> },
  ];
  return (
    <>
      <Badge count={data?.length ?? 0} size="small" offset={[-4, 0]}>
        <Button className="stay-not-ready" onClick={() => setOpen(true)}>{t('notReady')}</Button>
      </Badge>
      <Drawer open={open} onClose={() => setOpen(false)} size="min(760px, 96vw)" className="stay-not-ready-drawer" title={t('notReadyTitle')}>
        <Table<StayRecord> rowKey="id" size="small" columns={columns} dataSource={data ?? []} loading={isFetching && !data} pagination={false}
          locale={{ emptyText: t('notReadyEmpty') }} />
      </Drawer>
    </>
  );
}
