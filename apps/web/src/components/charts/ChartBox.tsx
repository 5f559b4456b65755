/**
 * A chart's box that draws the chart only once it comes near the view (the home page drew
 * its seven charts on load, most of them below the fold, and ECharts' init and grow-in animation were
 * about 3 s of main-thread time at 4x CPU throttling). The box keeps its size while empty (no layout
 * shift); ECharts itself loads with the first chart shown (components/charts/EChart, lazy).
 */
import { lazy, Suspense } from 'react';
import { useInView } from 'react-intersection-observer';
import { PageSpin } from '../PageSpin';

const EChart = lazy(() => import('./EChart'));

/** A box of class `className` drawing `option` once it is within 100 px of the view; `name` is its data-chart-box attribute. */
export function ChartBox({ name, option, className }: { name: string; option: Record<string, unknown>; className: string }) {
  const { ref, inView } = useInView({ triggerOnce: true, rootMargin: '100px' });
  return (
    <div ref={ref} className={className} data-chart-box={name}>
      {inView && <Suspense fallback={<PageSpin />}><EChart name={name} option={option} /></Suspense>}
    </div>
  );
}
