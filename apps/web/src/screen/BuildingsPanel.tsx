/** Per-building status grid: locks online of total and open alarms, the buildings with alarms first. */
import type { Analysis } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { Panel } from './Panel';

const MAX_TILES = 12;

export function BuildingsPanel({ buildings }: { buildings: Analysis['buildings'] }) {
  const { t } = useTranslation('screen');
  const sorted = [...buildings].sort((a, b) => b.alarms - a.alarms || a.building.localeCompare(b.building));
  const shown = sorted.slice(0, MAX_TILES);
  const more = sorted.length - shown.length;
  return (
    <Panel name="buildings" title={t('buildings')} extra={more > 0 ? <span className="screen-panel-extra">+{more}</span> : undefined}>
      {buildings.length === 0 && <div className="screen-empty">{t('noBuildings')}</div>}
      <div className="screen-buildings">
        {shown.map((b) => {
          const share = b.total ? b.online / b.total : 0;
          const tone = b.alarms > 0 ? 'bad' : share >= 0.9 ? 'good' : share >= 0.5 ? 'warn' : 'dim';
          return (
            <div key={b.building} className={`screen-building screen-building-${tone}`} data-building={b.building}>
              <span className="screen-building-name" title={b.building || t('noBuilding')}>{b.building || t('noBuilding')}</span>
              <span className="screen-building-count">{b.online}<small>/{b.total}</small></span>
              <span className="screen-building-alarms">{b.alarms ? t('alarmsShort', { count: b.alarms }) : '\u00a0'}</span>
            </div>
          );
        })}
      </div>
    </Panel>
  );
}
