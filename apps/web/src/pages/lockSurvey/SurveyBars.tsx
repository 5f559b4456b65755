/** A bar chart of a distribution (tree-shaken ECharts: bar, tooltip, grid, canvas), loaded lazily by 门锁概况. */
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { echartsCore, use } from '../../components/charts/echartsCore';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

use([BarChart, TooltipComponent, GridComponent, CanvasRenderer]);

export interface SurveyBarsProps {
  /** One bar per bucket: its label and count; `highlight` bars are drawn in the warning colour. */
  bars: { label: string; count: number; highlight?: boolean }[];
  /** The value axis name (e.g. 台 / locks). */
  unit: string;
}

/** The distribution as vertical bars. */
export default function SurveyBars({ bars, unit }: SurveyBarsProps) {
  const option = {
    tooltip: { trigger: 'axis' },
    grid: { left: 48, right: 16, top: 32, bottom: 56 },
    xAxis: { type: 'category', data: bars.map((bar) => bar.label), axisLabel: { interval: 0, rotate: bars.length > 6 ? 30 : 0 } },
    yAxis: { type: 'value', name: unit, minInterval: 1 },
    series: [{
      type: 'bar',
      data: bars.map((bar) => ({ value: bar.count, itemStyle: { color: bar.highlight ? '#f5222d' : '#1668dc' } })),
      label: { show: true, position: 'top' },
    }],
  };
  return <ReactEChartsCore echarts={echartsCore} option={option} notMerge style={{ height: '100%', width: '100%' }} />;
}
