/** A dark panel of the big screen: a title bar and a body that fills the rest (its content never overflows it). */
import { lazy, type ReactNode, Suspense } from 'react';

const EChart = lazy(() => import('../components/charts/EChart'));

export function Panel({ name, title, extra, children, className }: { name: string; title: string; extra?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`screen-panel ${className ?? ''}`} data-panel={name}>
      <header className="screen-panel-title"><span>{title}</span>{extra}</header>
      <div className="screen-panel-body">{children}</div>
    </section>
  );
}

/** An ECharts chart filling a panel body (or part of it), light text on the dark background. */
export function ScreenChart({ name, option }: { name: string; option: Record<string, unknown> }) {
  return (
    <div className="screen-chart">
      <Suspense fallback={null}><EChart name={name} option={darkOption(option)} dark /></Suspense>
    </div>
  );
}

const TEXT = '#c9d7ee';
type Axis = { axisLabel?: object };
const styled = (axis: Axis, fontSize: number) => ({
  axisLine: { lineStyle: { color: '#3a5a8c' } }, splitLine: { lineStyle: { color: 'rgba(80, 120, 180, 0.25)' } },
  ...axis, axisLabel: { color: TEXT, fontSize, ...axis.axisLabel },
});
const onAxes = (axes: unknown, fontSize: number) =>
  (Array.isArray(axes) ? axes.map((axis: Axis) => styled(axis, fontSize)) : axes ? styled(axes as Axis, fontSize) : undefined);

/** Light axis labels and dim grid lines for the dark panels; charts' text scales with the screen (`--rem`). */
function darkOption(option: Record<string, unknown>): Record<string, unknown> {
  const rem = Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--rem')) || 80;
  const fontSize = Math.round(rem * 0.16);
  const axes = option.xAxis ? { xAxis: onAxes(option.xAxis, fontSize), yAxis: onAxes(option.yAxis, fontSize) } : {};
  return { ...option, textStyle: { color: TEXT, fontSize }, ...axes };
}
