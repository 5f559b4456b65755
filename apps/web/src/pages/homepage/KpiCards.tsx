/** A titled row of KPI cards, each a link to the list it counts (data-kpi names it for tests). */
import { Card, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Kpi } from './kpis';

export function KpiCards({ title, kpis }: { title: string; kpis: Kpi[] }) {
  const { t } = useTranslation('homepage');
  return (
    <section className="kpi-section">
      <h2 className="kpi-section-title">{title}</h2>
      <div className="kpi-grid kpi-grid-auto">
        {kpis.map((kpi) => (
          <Link key={kpi.key} to={kpi.to} className="kpi-link">
            <Card data-kpi={kpi.key} hoverable size="small">
              <Statistic title={<span title={t(`kpi.${kpi.key}`)}>{t(`kpi.${kpi.key}`)}</span>} value={kpi.value} styles={{ content: { color: kpi.color } }} />
            </Card>
          </Link>
        ))}
      </div>
    </section>
  );
}
