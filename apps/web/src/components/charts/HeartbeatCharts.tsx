/**
 * Battery % and RSSI dBm / SNR dB of one lock over time (GET /iot/v1/logHeartbeat/batteryList and
 * rssiList), tree-shaken ECharts line charts, refreshed in the background. Times on the axis are the
 * data centre's wall clock (lib/timeZone.ts); a chart without a point says so (a new lock's first days).
 */
import { heartbeatLogEndpoints } from '@iot/contract';
import { Card, Col, Empty, Row } from 'antd';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { echartsCore, use } from './echartsCore';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { formatTime } from '../../lib/timeZone';

use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface HeartbeatChartsProps {
  imei: string;
  startTime?: string;
  endTime?: string;
  refetchInterval: number;
}

const line = (name: string, data: [string, number][], yAxisIndex = 0) =>
  ({ name, type: 'line', showSymbol: data.length < 60, smooth: true, yAxisIndex, data });

/** In place of a chart without a point: "no data in this period", as tall as the chart. */
function NoData() {
  const { t } = useTranslation('deviceLog');
  return <Empty className="chart-no-data" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noChartData')} style={{ height: 260, margin: 0, paddingTop: 80 }} />;
}

/** The two charts side by side. */
export default function HeartbeatCharts({ imei, startTime, endTime, refetchInterval }: HeartbeatChartsProps) {
  const { t } = useTranslation('deviceLog');
  const query = { imei, startTime, endTime };
  const { data: battery } = useApiQuery(heartbeatLogEndpoints.batteryList, query, { refetchInterval, keepPrevious: true });
  const { data: signal } = useApiQuery(heartbeatLogEndpoints.rssiList, query, { refetchInterval, keepPrevious: true });
  const base = { tooltip: { trigger: 'axis' }, grid: { left: 48, right: 48, top: 36, bottom: 28 }, xAxis: { type: 'time' } };
  const note = (bucketS?: number) => (bucketS ? t('averaged', { seconds: bucketS }) : undefined);
  const batteryOption = {
    ...base, yAxis: { type: 'value', min: 0, max: 100, name: '%' },
    series: [line(t('battery'), (battery?.points ?? []).map((p) => [formatTime(p.time), p.battery]))],
  };
  const signalOption = {
    ...base, legend: { top: 0 },
    yAxis: [{ type: 'value', name: 'dBm', scale: true }, { type: 'value', name: 'dB', scale: true }],
    series: [
      line(t('rssi'), (signal?.points ?? []).map((p) => [formatTime(p.time), p.rssi])),
      line(t('snr'), (signal?.points ?? []).map((p) => [formatTime(p.time), p.snr]), 1),
    ],
  };
  return (
    <Row gutter={16} style={{ marginBottom: 16 }}>
      <Col span={12}>
        <Card size="small" title={t('batteryChart')} extra={note(battery?.bucketS)} className="heartbeat-chart">
          {battery?.points.length === 0 ? <NoData /> : <ReactEChartsCore echarts={echartsCore} option={batteryOption} notMerge style={{ height: 260 }} />}
        </Card>
      </Col>
      <Col span={12}>
        <Card size="small" title={t('signalChart')} extra={note(signal?.bucketS)} className="heartbeat-chart">
          {signal?.points.length === 0 ? <NoData /> : <ReactEChartsCore echarts={echartsCore} option={signalOption} notMerge style={{ height: 260 }} />}
        </Card>
      </Col>
    </Row>
  );
}
