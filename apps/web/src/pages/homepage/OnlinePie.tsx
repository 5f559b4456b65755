/** Donut of online vs offline locks (tree-shaken ECharts: pie, tooltip, legend, canvas). */
import { PieChart } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

echarts.use([PieChart, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface OnlinePieProps {
  online: number;
  offline: number;
  labels: { online: string; offline: string };
}

/** The online/offline donut chart. */
export default function OnlinePie({ online, offline, labels }: OnlinePieProps) {
  const option = {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0 },
    color: ['#52c41a', '#bfbfbf'],
    series: [
      {
        type: 'pie',
        radius: ['45%', '70%'],
        avoidLabelOverlap: true,
        label: { formatter: '{b}\n{c}' },
        data: [
          { name: labels.online, value: online },
          { name: labels.offline, value: offline },
        ],
      },
    ],
  };
  return <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height: '100%', width: '100%' }} />;
}
