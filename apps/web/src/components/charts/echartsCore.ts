/**
 * What echarts-for-react calls on ECharts (init, dispose, getInstanceByDom), imported by name from
 * `echarts/core`: passing the `import * as echarts` namespace as a value keeps every export of
 * echarts/core (graphic, format, time, matrix, ...) in the bundle (bench/web.ts).
 */
import { dispose, getInstanceByDom, init } from 'echarts/core';

export { use } from 'echarts/core';

/** The `echarts` prop of ReactEChartsCore. */
export const echartsCore = { init, dispose, getInstanceByDom };
