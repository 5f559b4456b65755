/**
 * The one ECharts wrapper, tree-shaken through `echarts/core` (bar, line, pie; grid, tooltip,
 * legend; canvas). Import it lazily (`lazy(() => import(...))`): only pages that draw charts load ECharts.
 * A new `option` is merged into the chart in place (no re-draw of the page, no flicker on refresh).
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { echartsCore, use } from './echartsCore';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

use([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export interface EChartProps {
  option: Record<string, unknown>;
  /** data-chart attribute, for tests. */
  name?: string;
  /** Light text for dark backgrounds (the big screen). */
  dark?: boolean;
}

/** A chart filling its box. */
export default function EChart({ option, name, dark }: EChartProps) {
  const themed = dark ? { textStyle: { color: '#c9d7ee' }, ...option } : option;
  return (
    <div data-chart={name} style={{ height: '100%', width: '100%' }}>
      <ReactEChartsCore echarts={echartsCore} option={themed} lazyUpdate style={{ height: '100%', width: '100%' }} />
    </div>
  );
}
