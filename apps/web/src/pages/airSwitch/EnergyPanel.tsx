/**
 * Energy analysis (GET /iot/v1/airSwitch/energy): a date range (days in the operator's time zone), day
 * or month, all switches or one; the charts load lazily with ECharts (EnergyCharts).
 */
import { airSwitchEndpoints } from '@iot/contract';
import { DatePicker, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { PageSpin } from '../../components/PageSpin';
import { getTimeZone, toPicker } from '../../lib/timeZone';

const EnergyCharts = lazy(() => import('./EnergyCharts'));

export function EnergyPanel() {
  const { t } = useTranslation('airSwitch');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [toPicker().subtract(29, 'day'), toPicker()]);
  const [granularity, setGranularity] = useState<'day' | 'month'>('day');
  const [airSwitchId, setAirSwitchId] = useState<number | undefined>();
  const { data: switches } = useApiQuery(airSwitchEndpoints.list, { current: 1, size: 100 });
  const query = {
    from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD'), granularity, timeZone: getTimeZone(), airSwitchId,
  };
  const { data } = useApiQuery(airSwitchEndpoints.energy, query, { refetchInterval: 30_000, keepPrevious: true });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <span>{t('range')}</span>
        <DatePicker.RangePicker allowClear={false} value={range} maxDate={toPicker()} onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])} />
        <Select value={granularity} style={{ width: 110 }} onChange={setGranularity}
          options={(['day', 'month'] as const).map((g) => ({ value: g, label: t(`granularities.${g}`) }))} />
        <Select id="energy-switch" allowClear placeholder={t('allSwitches')} style={{ width: 240 }} value={airSwitchId} onChange={setAirSwitchId}
          options={(switches?.records ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.serial})` }))} />
      </Space>
      <Suspense fallback={<PageSpin />}>{data && <EnergyCharts analysis={data} query={query} />}</Suspense>
    </Space>
  );
}
