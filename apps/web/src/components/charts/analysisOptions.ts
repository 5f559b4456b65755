/**
 * ECharts options of the analysis charts, plain objects: the charts themselves load lazily
 * (components/charts/EChart). Shared by 首页 / 门锁分析 and the big screen.
 */
import type { Analysis } from '@iot/contract';
import { rangeText } from '../rangeText';

type Label = (key: string) => string;
const grid = { left: 40, right: 16, top: 36, bottom: 28, containLabel: true };
const legend = (dark?: boolean) => ({ top: 0, type: 'scroll', ...(dark ? { textStyle: { color: '#c9d7ee' } } : {}) });

/** Stacked bars per day, one series per key of `byKey` (zero-only series left out). */
export function stackedDays(days: string[], byKey: Record<string, number[]>, label: Label, dark?: boolean) {
  const series = Object.entries(byKey).filter(([, values]) => values.some((v) => v > 0))
    .map(([key, values]) => ({ name: label(key), type: 'bar', stack: 'total', data: values, barMaxWidth: 28 }));
  return { tooltip: { trigger: 'axis' }, legend: legend(dark), grid, xAxis: { type: 'category', data: days.map((d) => d.slice(5)) }, yAxis: { type: 'value', minInterval: 1 }, series };
}

/** Online rate per day (line, %) with new locks (bars, right axis). */
export function onlineRate(trends: Analysis['trends'], labels: { rate: string; newLocks: string }, dark?: boolean) {
  return {
    tooltip: { trigger: 'axis' }, legend: legend(dark), grid,
    xAxis: { type: 'category', data: trends.days.map((d) => d.slice(5)) },
    yAxis: [{ type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } }, { type: 'value', minInterval: 1, splitLine: { show: false } }],
    series: [
      { name: labels.rate, type: 'line', smooth: true, data: trends.onlineRate.map((r) => Math.round(r * 1000) / 10), areaStyle: { opacity: 0.15 } },
      { name: labels.newLocks, type: 'bar', yAxisIndex: 1, data: trends.newLocks, barMaxWidth: 20 },
    ],
  };
}

/** A distribution over labelled buckets (bars). */
export function buckets(names: string[], values: number[], color: string, name: string) {
  return {
    tooltip: { trigger: 'axis' }, grid: { ...grid, top: 16 }, xAxis: { type: 'category', data: names }, yAxis: { type: 'value', minInterval: 1 },
    series: [{ name, type: 'bar', data: values, itemStyle: { color }, barMaxWidth: 36 }],
  };
}

/** Today vs yesterday per hour (two lines). */
export function todayVsYesterday(today: number[], yesterday: number[], labels: { today: string; yesterday: string }, dark?: boolean) {
  return {
    tooltip: { trigger: 'axis' }, legend: legend(dark), grid,
    xAxis: { type: 'category', data: today.map((_, h) => `${h}`) }, yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: labels.today, type: 'line', smooth: true, data: today },
      { name: labels.yesterday, type: 'line', smooth: true, data: yesterday, lineStyle: { type: 'dashed' } },
    ],
  };
}

/**
 * The fleet as three slices that add up to the total (one definition, one number): online and
 * awake, asleep (online too: 在线（含休眠） = awake + asleep), offline. The ring sits above its legend
 * with room for the labels below it (at 1920 px a label touched the legend); an empty slice has no
 * label (two zeros stacked their labels over each other), the legend and the tooltip still name it.
 */
export function fleetDonut(fleet: Analysis['fleet'], labels: { awake: string; asleep: string; offline: string }, dark?: boolean) {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' }, legend: { ...legend(dark), top: undefined, bottom: 0 },
    color: ['#52c41a', '#13c2c2', '#8c8c8c'],
    series: [{
      type: 'pie', radius: ['40%', '62%'], center: ['50%', '45%'], label: { formatter: '{b}\n{c}', color: dark ? '#c9d7ee' : undefined },
      data: [
        { name: labels.awake, value: fleet.online - fleet.asleep }, { name: labels.asleep, value: fleet.asleep }, { name: labels.offline, value: fleet.offline },
      ].map((slice) => (slice.value > 0 ? slice : { ...slice, label: { show: false }, labelLine: { show: false } })),
    }],
  };
}

/** The analysis' battery and RSSI buckets (contract Analysis distributions), labelled in the console's one range format. */
export const BATTERY_BUCKETS = [[0, 20], [20, 40], [40, 60], [60, 80]].map(([from, to]) => rangeText(from as number, to as number, '%')).concat(rangeText(80, 100, '%', true));
export const RSSI_BUCKETS = [rangeText(null, -115), rangeText(-115, -105), rangeText(-105, -95), rangeText(-95, -85), rangeText(-85, null)];
