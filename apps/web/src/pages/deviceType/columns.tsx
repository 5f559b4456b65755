/** Columns of the device-type list (设备类型), with the row actions when the user may edit types. */
import type { DeviceTypeRecord } from '@iot/contract';
import { Button, Popconfirm, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { DASH } from '../../components/logColumns';

export interface TypeActions {
  edit(type: DeviceTypeRecord): void;
  remove(type: DeviceTypeRecord): Promise<unknown>;
}

/** Device-type columns in the `deviceType` namespace's language; `actions` undefined: read-only. */
export function typeColumns(t: TFunction, actions?: TypeActions): TableColumnsType<DeviceTypeRecord> {
  const columns: TableColumnsType<DeviceTypeRecord> = [
    { title: t('model'), dataIndex: 'model', fixed: 'left' },
    { title: t('kind'), dataIndex: 'kind', render: (kind: string) => t(`kinds.${kind}`) },
    { title: t('vendor'), dataIndex: 'vendor' },
    { title: t('connectivity'), dataIndex: 'connectivity', render: (value: string) => t(`connectivities.${value}`) },
    { title: t('heartbeatIntervalS'), dataIndex: 'heartbeatIntervalS', align: 'right' },
    { title: t('heartbeatRange'), dataIndex: 'heartbeatRangeS', render: (r: DeviceTypeRecord['heartbeatRangeS']) => `${r.min}-${r.max}` },
    {
      title: t('electricalRatings'), dataIndex: 'electrical',
      render: (e: DeviceTypeRecord['electrical']) => (e ? t('electricalText', { circuits: e.circuits, current: e.ratedCurrentA, voltage: e.ratedVoltageV, leakMin: e.leakageMa.min, leakMax: e.leakageMa.max }) : DASH),
    },
    {
      title: t('capacity'), dataIndex: 'capacity',
      render: (c: DeviceTypeRecord['capacity']) => `${c.users} / ${c.passwords} / ${c.cards} / ${c.fingerprints}`,
    },
    { title: t('passwordDigits'), dataIndex: 'passwordDigits', render: (d: DeviceTypeRecord['passwordDigits']) => `${d.min}-${d.max}` },
    { title: t('maxValidityDays'), dataIndex: 'maxValidityDays', align: 'right' },
    // Week-day / year-day schedules per user, holiday schedules per lock (Matter DoorLock attributes).
    { title: t('schedules'), key: 'schedules', render: (_, r) => `${r.weekDaySchedulesPerUser} / ${r.yearDaySchedulesPerUser} / ${r.holidaySchedules}` },
    {
      title: t('unlockMethods'), dataIndex: 'unlockMethods',
      render: (methods: string[]) => (methods.length === 0 ? DASH
        : <Space size={[0, 4]} wrap>{methods.map((method) => <Tag key={method}>{t(`deviceLog:methods.${method}`)}</Tag>)}</Space>),
    },
    { title: t('firmwareFamily'), dataIndex: 'firmwareFamily', render: (value: string) => value || DASH },
    {
      title: t('deviceCount'), dataIndex: 'deviceCount', align: 'right',
      render: (count: number, type) => <Link to={`/lockInfo?${new URLSearchParams({ model: type.model, state: 'all' })}`}>{count}</Link>,
    },
  ];
  if (!actions) return columns;
  columns.push({
    title: t('actions'), key: 'actions', fixed: 'right',
    render: (_, type) => (
      <Space>
        <Button type="link" size="small" onClick={() => actions.edit(type)}>{t('edit')}</Button>
        {type.deviceCount > 0 ? (
          <Tooltip title={t('inUse', { count: type.deviceCount })}>
            <Button type="link" size="small" danger disabled>{t('delete')}</Button>
          </Tooltip>
        ) : (
          <Popconfirm title={t('deleteConfirm', { model: type.model })} okText={t('ok')} cancelText={t('cancel')}
            okButtonProps={{ danger: true }} onConfirm={() => actions.remove(type)}>
            <Button type="link" size="small" danger>{t('delete')}</Button>
          </Popconfirm>
        )}
      </Space>
    ),
  });
  return columns;
}
