/**
 * The energy charts (tree-shaken ECharts, loaded with the energy tab only): kWh with peak demand per
 * period, trips per period, today's load curve, top consumers and, for one switch, kWh per circuit.
 * Each card exports its chart's rows as .xlsx (GET /iot/v1/airSwitch/energy/export).
 */
import { airSwitchEndpoints, type EnergyAnalysis } from '@iot/contract';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { echartsCore, use } from '../../components/charts/echartsCore';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/download';
import { formatTime } from '../../lib/timeZone';

use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type Chart = keyof EnergyAnalysis;
const grid = { left: 56, right: 56, top: 36, bottom: 28 };

/** The charts of `analysis`; `query` is what produced it (for the exports). */
export default function EnergyCharts({ analysis, query }: { analysis: EnergyAnalysis; query: Record<string, unknown> }) {
  const { t } = useTranslation('airSwitch');
  const card = (chart: Chart, title: string, option: object | undefined, span = 12, name = chart) => (
    <Col span={span} key={name}>
      <Card size="small" title={title} className={`energy-chart energy-${name}`}
        extra={<Button size="small" icon={<DownloadOutlined />} onClick={() => void downloadFile(airSwitchEndpoints.energyExport, { ...query, chart, format: 'xlsx' })}>{t('export')}</Button>}>
        {option ? <ReactEChartsCore echarts={echartsCore} option={option} notMerge style={{ height: 260 }} /> : <Empty description={t('perCircuitHint')} />}
      </Card>
    </Col>
  );
  const periods = analysis.byPeriod.map((p) => p.period);
  const byPeriod = {
    tooltip: { trigger: 'axis' }, legend: { top: 0 }, grid, xAxis: { type: 'category', data: periods },
    yAxis: [{ type: 'value', name: 'kWh' }, { type: 'value', name: 'W' }],
    series: [
      { name: t('kwh'), type: 'bar', data: analysis.byPeriod.map((p) => p.kwh) },
      { name: t('peakW'), type: 'line', yAxisIndex: 1, data: analysis.byPeriod.map((p) => p.peakW) },
    ],
  };
  const trips = { tooltip: { trigger: 'axis' }, grid, xAxis: { type: 'category', data: periods }, yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: t('trips'), type: 'bar', data: analysis.byPeriod.map((p) => p.trips), itemStyle: { color: '#cf1322' } }] };
  const load = {
    tooltip: { trigger: 'axis' }, legend: { top: 0 }, grid, xAxis: { type: 'category', data: analysis.loadCurve.map((p) => formatTime(p.hour, 'HH:00')) },
    yAxis: { type: 'value', name: 'W' },
    series: [
      { name: t('avgW'), type: 'line', smooth: true, areaStyle: {}, data: analysis.loadCurve.map((p) => p.avgW) },
      { name: t('maxW'), type: 'line', smooth: true, data: analysis.loadCurve.map((p) => p.maxW) },
    ],
  };
  const top = { tooltip: { trigger: 'axis' }, grid: { ...grid, left: 160 }, xAxis: { type: 'value', name: 'kWh' },
    yAxis: { type: 'category', inverse: true, data: analysis.top.map((c) => `${c.airSwitchName} ${c.circuitName}`) },
    series: [{ name: t('kwh'), type: 'bar', data: analysis.top.map((c) => c.kwh) }] };
  const circuits = [...new Set(analysis.byCircuit.map((r) => r.circuitName))];
  const byCircuit = analysis.byCircuit.length === 0 ? undefined : {
    tooltip: { trigger: 'axis' }, legend: { top: 0 }, grid, xAxis: { type: 'category', data: periods }, yAxis: { type: 'value', name: 'kWh' },
    series: circuits.map((name) => ({ name, type: 'bar', stack: 'kwh',
      data: periods.map((p) => analysis.byCircuit.find((r) => r.period === p && r.circuitName === name)?.kwh ?? 0) })),
  };
  const cards: ReactNode[] = [
    card('byPeriod', t('charts.byPeriod'), byPeriod), card('loadCurve', t('charts.loadCurve'), load),
    card('byCircuit', t('charts.byCircuit'), byCircuit), card('top', t('charts.top'), top),
    card('byPeriod', t('charts.trips'), trips, 24, 'trips' as Chart),
  ];
  return <Row gutter={[16, 16]}>{cards}</Row>;
}
