/**
 * A stay's readiness light: green ready on every door, blue queued on N doors, red failed
 * on N doors, orange suspended, grey pending / none; shared by the stays drawer and the not-ready list.
 */
import type { StayRecord, StayReadiness } from '@iot/contract';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

const LIGHT: Record<StayReadiness, 'success' | 'processing' | 'error' | 'warning' | 'default'> = { ready: 'success', queued: 'processing', failed: 'error', pending: 'default', suspended: 'warning', none: 'default' };

/** The light of `stay`, with its text (how many doors are queued or failed). */
export function ReadinessBadge({ stay }: { stay: StayRecord }) {
  const { t } = useTranslation('stay');
  return <Badge status={LIGHT[stay.readiness]} text={t(`readinessText.${stay.readiness}`, { count: stay.readiness === 'failed' ? stay.failedDoors : stay.queuedDoors })} />;
}
