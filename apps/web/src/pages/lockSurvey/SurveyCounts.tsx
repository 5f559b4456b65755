/** One dimension of 门锁概况 (type, firmware, building, group): its values with their counts, each a link when the list can filter by it. */
import { Card, Empty, Progress } from 'antd';
import { Link } from 'react-router';

export interface SurveyCountsProps {
  title: string;
  rows: { key: string; label: string; count: number; to?: string }[];
  total: number;
  /** data-survey attribute, for tests. */
  id: string;
}

/** A card listing counts with a bar each, largest first. */
export function SurveyCounts({ title, rows, total, id }: SurveyCountsProps) {
  return (
    <Card title={title} size="small" data-survey={id}>
      {rows.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> : (
        <div className="survey-counts">
          {rows.map((row) => (
            <div key={row.key} className="survey-count-row">
              <span className="survey-count-label" title={row.label}>{row.label}</span>
              <Progress aria-label={row.label} percent={total ? Math.round((row.count / total) * 100) : 0} showInfo={false} size="small" />
              {row.to ? <Link to={row.to}>{row.count}</Link> : <span>{row.count}</span>}
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
