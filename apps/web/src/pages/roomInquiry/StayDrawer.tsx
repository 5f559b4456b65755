/**
 * 入住管理 / Stays of one room, a drawer of 产品 RoomInquiry: the room's stays (GET
 * /iot/v1/stay/list filtered to the room, refreshed every 10 s) with a readiness light (every door
 * 正常 / queued on N doors / failed / suspended), booking, check in, check out, cancel, no-show (a booked
 * stay past its check-in), suspend and resume (a checked-in long lease), each confirmed, change room, and
 * 导入 / Import of a bookings file (StayImportModal).
 * A plain antd Table: the page's URL holds the chosen lock, which the shared ServerTable's URL state would replace.
 */
import { STAY_SUSPENDABLE_KINDS, stayEndpoints, type StayRecord } from '@iot/contract';
import { Button, Drawer, Popconfirm, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { formatTime } from '../../lib/timeZone';
import { StayBackupCode } from './StayBackupCode';
import { StayBookModal } from './StayBookModal';
import { StayImportModal } from './StayImportModal';
import { ReadinessBadge } from './StayReadiness';
import { StayRoomModal } from './StayRoomModal';
import { StayRowActions } from './StayRowActions';

const REFETCH_MS = 10_000;
const STATE_COLOR: Record<StayRecord['state'], string> = { BOOKED: 'blue', CHECKED_IN: 'green', SUSPENDED: 'gold', CHECKED_OUT: 'default', CANCELLED: 'default', NO_SHOW: 'orange' };
type Room = { building: string; floor: string; room: string };
type Move = 'checkIn' | 'checkOut' | 'cancel' | 'noShow' | 'suspend' | 'resume';

/** The drawer for `room` (closed when undefined). */
export function StayDrawer({ room, onClose }: { room?: Room; onClose(): void }) {
  const { t } = useTranslation('stay');
  const [booking, setBooking] = useState(false);
  const [importing, setImporting] = useState(false);
  const [moving, setMoving] = useState<StayRecord>();
  const { data, isFetching } = useApiQuery(stayEndpoints.list, { ...room, size: 50 }, { enabled: room !== undefined, refetchInterval: REFETCH_MS });
  const move = useApiMutation({
    mutationFn: ({ id, to }: { id: number; to: Move }) => call(stayEndpoints[to], { body: { id } }),
    invalidate: [stayEndpoints.list], success: t('done'),
  });
  /** A link button that asks `<to>Confirm` before moving stay `s` by `to`. */
  const confirmed = (s: StayRecord, to: Move, danger = false) => (
    <Popconfirm title={t(`${to}Confirm`)} onConfirm={() => move.run({ id: s.id, to })}><Button size="small" type="link" danger={danger}>{t(to)}</Button></Popconfirm>
  );
  const columns: TableColumnsType<StayRecord> = [
    { title: t('guests'), key: 'guests', render: (_, s) => s.guests.map((g) => <div key={g.id}>{`${g.name} ${g.mobile}`}{g.cardNumber && <Tag className="stay-guest-card" style={{ marginInlineStart: 4 }}>{t('guestCard', { card: g.cardNumber })}</Tag>}</div>) },
    { title: t('times'), key: 'times', width: 230, render: (_, s) => `${formatTime(s.checkInAt, 'MM-DD HH:mm')} → ${formatTime(s.checkOutAt, 'MM-DD HH:mm')}` },
    { title: t('kind'), dataIndex: 'kind', width: 100, render: (kind: StayRecord['kind']) => t(`kinds.${kind}`) },
    { title: t('state'), dataIndex: 'state', width: 90, render: (state: StayRecord['state']) => <Tag color={STATE_COLOR[state]}>{t(`states.${state}`)}</Tag> },
    { title: t('readiness'), key: 'readiness', width: 170, render: (_, s) => <ReadinessBadge stay={s} /> },
    {
      title: t('actions'), key: 'actions', width: 260, render: (_, s) => (
        <Space size={4} wrap>
          {s.state === 'BOOKED' && <Button size="small" type="link" onClick={() => void move.run({ id: s.id, to: 'checkIn' })}>{t('checkIn')}</Button>}
          {(s.state === 'CHECKED_IN' || s.state === 'SUSPENDED') && confirmed(s, 'checkOut')}
          {s.state === 'CHECKED_IN' && STAY_SUSPENDABLE_KINDS.includes(s.kind) && confirmed(s, 'suspend', true)}
          {s.state === 'SUSPENDED' && confirmed(s, 'resume')}
          {s.state === 'BOOKED' && Date.parse(s.checkInAt) <= Date.now() && confirmed(s, 'noShow', true)}
          {s.state === 'BOOKED' && confirmed(s, 'cancel', true)}
          {(s.state === 'BOOKED' || s.state === 'CHECKED_IN') && <Button size="small" type="link" onClick={() => setMoving(s)}>{t('changeRoom')}</Button>}
          <StayRowActions stay={s} />
          {s.state === 'CHECKED_IN' && <StayBackupCode stay={s} />}
        </Space>
      ),
    },
  ];
  return (
    <Drawer open={room !== undefined} onClose={onClose} size="min(1000px, 96vw)" className="stay-drawer" title={t('title', { room: room ? [room.building, room.floor, room.room].filter(Boolean).join(' / ') : '' })}
      extra={<Space><Button onClick={() => setImporting(true)}>{t('import')}</Button><Button type="primary" onClick={() => setBooking(true)}>{t('book')}</Button></Space>}>
      <Table<StayRecord> rowKey="id" size="small" columns={columns} dataSource={data?.records ?? []} loading={isFetching && !data} pagination={false}
        locale={{ emptyText: t('empty') }} scroll={{ x: 900 }} />
      {room && <StayBookModal open={booking} room={room} onClose={() => setBooking(false)} />}
      <StayRoomModal stay={moving} onClose={() => setMoving(undefined)} />
      <StayImportModal open={importing} onClose={() => setImporting(false)} />
    </Drawer>
  );
}
