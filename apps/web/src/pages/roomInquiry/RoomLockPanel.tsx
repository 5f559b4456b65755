/**
 * The lock of the room chosen in 产品 (RoomInquiry), live (GET lockRoomList by its IMEI, every 10 s):
 * location, live state with the next expected wake of a sleeping lock, battery, door and open alarms;
 * who can open this door now or at a chosen time (the credential module's whoCanOpen), and links to
 * its journal, alarms, credentials and registry row, each filtered to this lock; its room's stays (入住管理, StayDrawer)
 * and whether it is a common door of its building or floor (CommonDoorSetting).
 */
import { lockEndpoints } from '@iot/contract';
import { Badge, Button, Card, Descriptions, Empty, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { LockLink } from '../../components/LockLink';
import { WhoCanOpenDrawer } from '../../components/credential/WhoCanOpenDrawer';
import { LIVE_BADGE } from './liveState';
import { CommonDoorSetting } from './CommonDoorSetting';
import { StayDrawer } from './StayDrawer';
import { formatTime } from '../../lib/timeZone';

const REFETCH_MS = 10_000;
const DASH = '—';

/** Details and links of the lock `imei`. */
export function RoomLockPanel({ imei }: { imei?: string }) {
  const { t } = useTranslation(['lockFleet', 'stay']);
  const [who, setWho] = useState(false);
  const [stays, setStays] = useState(false);
  const { data } = useApiQuery(lockEndpoints.lockRoomList, { keyword: imei, size: 1 }, { enabled: imei !== undefined, refetchInterval: REFETCH_MS });
  const lock = imei ? data?.find((row) => row.imei === imei) : undefined;
  if (!lock) return <Card className="room-lock-panel"><Empty description={t('pickRoom')} /></Card>;
  const filtered = (path: string) => `${path}?${new URLSearchParams({ imei: lock.imei })}`;
  const links = [
    ['journal', filtered('/lockJournal')], ['alarms', filtered('/lockAlert')], ['users', filtered('/voucherUserManage')],
    ['passwords', filtered('/voucherPasswordManage')], ['cards', filtered('/voucherCardManage')], ['fingerprints', filtered('/voucherFpManage')],
    ['registry', `/lockInfo?${new URLSearchParams({ keyword: lock.imei, state: 'all' })}`],
  ] as const;
  return (
    <Card className="room-lock-panel" title={lock.room || t('unplaced')} extra={<Space><Button onClick={() => setStays(true)} className="room-stays">{t('stay:open')}</Button><Button type="primary" onClick={() => setWho(true)}>{t('whoCanOpen')}</Button></Space>}>
      <Descriptions column={2} size="small" bordered>
        <Descriptions.Item label="IMEI"><LockLink imei={lock.imei} /></Descriptions.Item>
        <Descriptions.Item label={t('name')}>{lock.name}</Descriptions.Item>
        <Descriptions.Item label={t('liveState')}>
          <Space size={6}>
            <Badge status={LIVE_BADGE[lock.liveState]} text={t(`live.${lock.liveState}`)} />
            {lock.liveState === 'asleep' && lock.nextWakeAt && <span className="room-next-wake">{t('nextWake', { at: formatTime(lock.nextWakeAt, 'HH:mm:ss') })}</span>}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('batteryLevel')}>{lock.battery === null ? DASH : `${lock.battery}%`}</Descriptions.Item>
        <Descriptions.Item label={t('door')}>{lock.doorState ? t(`doors.${lock.doorState}`, { defaultValue: lock.doorState }) : DASH}</Descriptions.Item>
        <Descriptions.Item label={t('openAlarms')}>
          {lock.openAlarms > 0 ? <Link to={filtered('/lockAlert')}><Badge status="error" text={lock.openAlarms} /></Link> : 0}
        </Descriptions.Item>
        <Descriptions.Item label={t('registryState')} span={2}>{t(`registry.${lock.state}`)}</Descriptions.Item>
        <Descriptions.Item label={t('stay:commonDoor.label')} span={2}><CommonDoorSetting lockId={lock.id} building={lock.location.building} /></Descriptions.Item>
      </Descriptions>
      <Space wrap className="room-lock-links">
        {links.map(([key, to]) => <Link key={key} to={to} data-link={key}>{t(`links.${key}`)}</Link>)}
      </Space>
      <WhoCanOpenDrawer open={who} lockId={lock.id} onClose={() => setWho(false)} />
      <StayDrawer room={stays ? lock.location : undefined} onClose={() => setStays(false)} />
    </Card>
  );
}
