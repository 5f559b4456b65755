/** Top 10 locks by alarms and by failed attempts, and the locks predicted to run flat (issue #14). */
import type { Analysis } from '@iot/contract';
import { Card, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LockLink } from '../../components/LockLink';

type Ranked = Analysis['top']['alarms'][number];
type Forecast = Analysis['batteryForecast']['locks'][number];

export function TopLists({ data }: { data: Analysis }) {
  const { t } = useTranslation('homepage');
  const lockColumns = [
    { title: 'IMEI', dataIndex: 'imei', render: (imei: string) => <LockLink imei={imei} /> },
    { title: t('lockName'), dataIndex: 'name', ellipsis: true },
    { title: t('room'), dataIndex: 'room', ellipsis: true },
  ];
  const ranked = (name: string, rows: Ranked[]) => (
    <Card size="small" title={t(name)} className="home-card" data-list={name}>
      <Table<Ranked> size="small" rowKey="lockId" pagination={false} dataSource={rows} locale={{ emptyText: t('none') }}
        columns={[...lockColumns, { title: t('count'), dataIndex: 'count', width: 72, align: 'right' }]} />
    </Card>
  );
  return (
    <div className="home-grid">
      {ranked('topAlarms', data.top.alarms)}
      {ranked('topFailed', data.top.failed)}
      <Card size="small" title={t('forecast', { count: data.batteryForecast.total })} className="home-card" data-list="forecast">
        <Table<Forecast> size="small" rowKey="lockId" pagination={false} dataSource={data.batteryForecast.locks} locale={{ emptyText: t('none') }}
          columns={[...lockColumns,
            { title: t('battery'), dataIndex: 'battery', width: 64, align: 'right', render: (b: number) => `${b}%` },
            { title: t('perDay'), dataIndex: 'slopePerDay', width: 80, align: 'right', render: (s: number) => `${s.toFixed(1)}%` },
            { title: t('flatAt'), dataIndex: 'flatAt', width: 100, render: (at: string) => dayjs(at).format('MM-DD') }]} />
      </Card>
    </div>
  );
}
