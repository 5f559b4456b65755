/** One switch's details (GET /iot/v1/airSwitch/detail, polled): identity, per-circuit thresholds and the recent commands. */
import { type AirSwitchCommandRecord, airSwitchEndpoints } from '@iot/contract';
import { Badge, Descriptions, Drawer, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { StateBadge } from '../../components/CommandTags';
import { formatTime } from './format';
import { ThresholdsForm } from './ThresholdsForm';

/** The drawer of switch `id` (closed without one). */
export function SwitchDrawer({ id, onClose }: { id?: number; onClose(): void }) {
  const { t } = useTranslation('airSwitch');
  const { data } = useApiQuery(airSwitchEndpoints.detail, { id: id ?? 0 }, { enabled: id !== undefined, refetchInterval: 3000 });
  const shown = id !== undefined && data?.id === id ? data : undefined;
  const columns: TableColumnsType<AirSwitchCommandRecord> = [
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime, width: 170 },
    { title: t('circuit'), dataIndex: 'circuit', width: 60 },
    { title: t('actions'), key: 'type', render: (_, c) => (c.type === 'switch' ? t(c.data.on ? 'switchOn' : 'switchOff') : t('commandType.thresholds')) },
    { title: t('state'), dataIndex: 'state', render: (state) => <StateBadge state={state} /> },
    { title: t('createdBy'), dataIndex: 'createdBy' },
  ];
  return (
    <Drawer open={id !== undefined} onClose={onClose} width={760} title={shown?.name ?? t('detail')} destroyOnHidden>
      {shown && (
        <>
          <Descriptions size="small" column={2} bordered items={[
            { key: 'serial', label: t('serial'), children: shown.serial },
            { key: 'model', label: t('model'), children: shown.model },
            { key: 'online', label: t('state'), children: <Badge status={shown.online ? 'success' : 'default'} text={shown.online ? t('online') : t('offline')} /> },
            { key: 'last', label: t('lastUplink'), children: formatTime(shown.lastUplinkAt) },
          ]} />
          <ThresholdsForm airSwitch={shown} />
          <h4>{t('commands')}</h4>
          <Table size="small" rowKey="id" columns={columns} dataSource={shown.commands} pagination={false} />
        </>
      )}
    </Drawer>
  );
}
