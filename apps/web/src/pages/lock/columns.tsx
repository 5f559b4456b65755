/** Columns of the lock list (门锁信息). */
import { LOW_BATTERY_PERCENT, type LockRecord } from '@iot/contract';
import { Badge, Progress, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { LockLink } from '../../components/LockLink';

const dash = '—';

/** Battery as a progress bar, red at or below LOW_BATTERY_PERCENT. */
function battery(value: number | null, t: TFunction) {
  if (value === null) return dash;
  const low = value <= LOW_BATTERY_PERCENT;
  return (
    <span title={low ? t('lowBattery') : undefined}>
      <Progress percent={value} size="small" status={low ? 'exception' : 'normal'} format={(percent) => `${percent}%`} style={{ width: 110, margin: 0 }} />
    </span>
  );
}

/** Lock list columns in the current language. */
export function lockColumns(t: TFunction): TableColumnsType<LockRecord> {
  return [
    { title: t('imei'), dataIndex: 'imei', fixed: 'left', render: (imei: string) => <LockLink imei={imei} /> },
    { title: t('name'), dataIndex: 'name', render: (name: string, lock) => <LockLink imei={lock.imei}>{name}</LockLink> },
    { title: t('room'), dataIndex: 'room' },
    { title: t('model'), dataIndex: 'model' },
    { title: t('firmware'), dataIndex: 'firmwareVersion' },
    { title: t('battery'), dataIndex: 'battery', render: (value: number | null) => battery(value, t) },
    { title: `${t('rssi')} (dBm)`, dataIndex: 'rssi', align: 'right', render: (value: number | null) => value ?? dash },
    { title: `${t('snr')} (dB)`, dataIndex: 'snr', align: 'right', render: (value: number | null) => value ?? dash },
    {
      title: t('status'),
      dataIndex: 'online',
      render: (online: boolean) => <Badge status={online ? 'success' : 'default'} text={online ? t('online') : t('offline')} />,
    },
    {
      title: t('lastHeartbeat'),
      dataIndex: 'lastHeartbeatAt',
      render: (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : dash),
    },
  ];
}
