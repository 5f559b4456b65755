/** Air switches today (GET .../analysis/airSwitches): load now, energy since midnight, switches, trips, load per hour. */
import type { AnalysisAirSwitches } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { Panel, ScreenChart } from './Panel';
import { screenHour } from './screenTime';

const kw = (w: number) => (w / 1000).toFixed(w >= 100_000 ? 0 : 2);

export function AirSwitchPanel({ data }: { data: AnalysisAirSwitches | undefined }) {
  const { t } = useTranslation('screen');
  const option = data && {
    tooltip: { trigger: 'axis' }, legend: { top: 0, textStyle: { color: '#c9d7ee' } }, grid: { left: 8, right: 8, top: 28, bottom: 4, containLabel: true },
    xAxis: { type: 'category', data: data.loadCurve.map((p) => screenHour(p.hour)) }, yAxis: { type: 'value' },
    series: [
      { name: t('avgLoad'), type: 'line', smooth: true, areaStyle: { opacity: 0.2 }, data: data.loadCurve.map((p) => Math.round(p.avgW)) },
      { name: t('maxLoad'), type: 'line', smooth: true, lineStyle: { type: 'dashed' }, data: data.loadCurve.map((p) => Math.round(p.maxW)) },
    ],
  };
  return (
    <Panel name="airSwitches" title={t('airSwitches')}>
      {data && data.switches === 0 && <div className="screen-empty">{t('noAirSwitches')}</div>}
      {data && data.switches > 0 && (
        <div className="screen-air">
          <div className="screen-air-figures">
            <div><span className="screen-air-value" data-figure="loadW">{kw(data.loadW)}<small> kW</small></span><span className="screen-kpi-label">{t('loadNow')}</span></div>
            <div><span className="screen-air-value" data-figure="energyKwh">{data.energyKwh.toFixed(1)}<small> kWh</small></span><span className="screen-kpi-label">{t('energyToday')}</span></div>
            <div><span className="screen-air-value">{data.switches}<small> / {data.circuits}</small></span><span className="screen-kpi-label">{t('switches')}</span></div>
            <div><span className={`screen-air-value ${data.trippedCircuits ? 'screen-tone-bad' : ''}`}>{data.trippedCircuits}</span><span className="screen-kpi-label">{t('tripped')}</span></div>
          </div>
          {option && <ScreenChart name="airLoad" option={option} />}
        </div>
      )}
    </Panel>
  );
}
