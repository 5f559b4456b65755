/**
 * Top 10 locks by alarms and by failed attempts, and the locks predicted to run flat.
 * Plain tables (RankTable), not antd Table: at most 10 rows, no paging, sorting or filters, and antd
 * Table with its Tree, Radio, Checkbox and Pagination cost the first load ~50 KiB (bench/web.ts).
 */
import type { Analysis } from '@iot/contract';
import { Card } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LockLink } from '../../components/LockLink';
import { formatTime } from '../../lib/timeZone';

type Ranked = Analysis['top']['alarms'][number];
type Forecast = Analysis['batteryForecast']['locks'][number];
type Row = { lockId: number | string; imei: string; name?: string | null; room?: string | null };

interface Column<T> {
  title: string;
  render: (row: T) => ReactNode;
  width?: number;
  align?: 'right';
  ellipsis?: boolean;
}

/** A small read-only table in the look of antd's small Table. */
function RankTable<T extends Row>({ rows, columns, empty }: { rows: T[]; columns: Column<T>[]; empty: string }) {
  return (
    <table className="rank-table">
      <thead>
        <tr>{columns.map((column) => <th key={column.title} style={{ width: column.width, textAlign: column.align }}>{column.title}</th>)}</tr>
      </thead>
      <tbody>
        {rows.length === 0 && <tr><td colSpan={columns.length} className="rank-table-empty">{empty}</td></tr>}
        {rows.map((row) => (
          <tr key={row.lockId}>
            {columns.map((column) => (
              <td key={column.title} style={{ textAlign: column.align }} className={column.ellipsis ? 'rank-table-cut' : undefined}>{column.render(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The three lists under the charts of 首页. */
export function TopLists({ data }: { data: Analysis }) {
  const { t } = useTranslation('homepage');
  const lockColumns: Column<Row>[] = [
    { title: 'IMEI', render: (row) => <LockLink imei={row.imei} /> },
    { title: t('lockName'), render: (row) => row.name, ellipsis: true },
    { title: t('room'), render: (row) => row.room, ellipsis: true },
  ];
  const ranked = (name: string, rows: Ranked[]) => (
    <Card size="small" title={t(name)} className="home-card" data-list={name}>
      <RankTable<Ranked> rows={rows} empty={t('none')}
        columns={[...lockColumns, { title: t('count'), render: (row) => row.count, width: 72, align: 'right' }]} />
    </Card>
  );
  return (
    <div className="home-grid">
      {ranked('topAlarms', data.top.alarms)}
      {ranked('topFailed', data.top.failed)}
      <Card size="small" title={t('forecast', { count: data.batteryForecast.total })} className="home-card" data-list="forecast">
        <RankTable<Forecast> rows={data.batteryForecast.locks} empty={t('none')}
          columns={[...lockColumns,
            { title: t('battery'), render: (row) => `${row.battery}%`, width: 64, align: 'right' },
            { title: t('perDay'), render: (row) => `${row.slopePerDay.toFixed(1)}%`, width: 80, align: 'right' },
            { title: t('flatAt'), render: (row) => formatTime(row.flatAt, 'MM-DD'), width: 100 }]} />
      </Card>
    </div>
  );
}
