/** 设备信息: the lock's live state — online, battery, signal, door, last heartbeat and next expected wake. */
import { LOW_BATTERY_PERCENT, type LockInformation } from '@iot/contract';
import { Badge, Card, Descriptions, Progress, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/logColumns';

/** The live-state card. */
export function LiveStateCard({ info }: { info: LockInformation }) {
  const { t } = useTranslation(['information', 'lock']);
  const { lock, presence } = info;
  const door = presence.doorState ? t(`doors.${presence.doorState}`, { defaultValue: presence.doorState }) : '—';
  return (
    <Card size="small" title={t('liveState')} style={{ height: '100%' }}>
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 1, xxl: 2 }}>
        <Descriptions.Item label={t('status')}>
          <Badge status={lock.online ? 'success' : 'default'} text={<span className="information-online">{lock.online ? t('online') : t('offline')}</span>} />
          {lock.liveState === 'asleep' ? <Tag color="purple" style={{ marginLeft: 8 }}>{t('lock:liveStates.asleep')}</Tag> : null}
          {presence.awake && !presence.alwaysOnline ? <Tag color="success" style={{ marginLeft: 8 }}>{t('awakeNow')}</Tag> : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('battery')}>
          {lock.battery === null ? '—' : (
            <Progress percent={lock.battery} size="small" status={lock.battery <= LOW_BATTERY_PERCENT ? 'exception' : 'normal'} style={{ width: 120, margin: 0 }} />
          )}
        </Descriptions.Item>
        <Descriptions.Item label="RSSI">{lock.rssi === null ? '—' : `${lock.rssi} dBm`}</Descriptions.Item>
        <Descriptions.Item label="SNR">{lock.snr === null ? '—' : `${lock.snr} dB`}</Descriptions.Item>
        <Descriptions.Item label={t('door')}>{door}{presence.locked === null ? '' : ` · ${presence.locked ? t('locked') : t('unlocked')}`}</Descriptions.Item>
        <Descriptions.Item label={t('heartbeatInterval')}>{t('seconds', { count: lock.heartbeatIntervalS })}</Descriptions.Item>
        <Descriptions.Item label={t('lastHeartbeat')}>{formatTime(lock.lastHeartbeatAt)}</Descriptions.Item>
        <Descriptions.Item label={t('nextWake')}>
          <span className="information-next-wake">{presence.alwaysOnline ? t('alwaysOnline') : formatTime(presence.nextWakeAt)}</span>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
