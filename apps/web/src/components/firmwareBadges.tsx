/** Rollout and per-lock OTA states as Badges (live state; `data-state` carries the raw value for tests), and a job's detail text. */
import type { OtaJobRecord, OtaJobState, RolloutState } from '@iot/contract';
import { Badge } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import i18n from '../i18n';
import type { DrawsCellText } from './columnFit';

type Status = 'default' | 'processing' | 'success' | 'error' | 'warning';
const ROLLOUT: Record<RolloutState, Status> = { CREATED: 'default', RUNNING: 'processing', PAUSED: 'warning', COMPLETED: 'success', CANCELED: 'default' };
const JOB: Record<OtaJobState, Status> = {
  QUEUED: 'default', WAITING: 'warning', NOTIFIED: 'processing', DOWNLOADING: 'processing', VERIFIED: 'processing', UPDATING: 'processing',
  UPDATED: 'success', FAILED: 'error', CANCELED: 'default',
};

/** A rollout's state. */
export function RolloutBadge({ state }: { state: RolloutState }) {
  const { t } = useTranslation('firmware');
  return <span className="rollout-state" data-state={state}><Badge status={ROLLOUT[state]} text={t(`rolloutStates.${state}`)} /></span>;
}
RolloutBadge.cellText = (({ state }) => i18n.t(`firmware:rolloutStates.${state}`)) satisfies DrawsCellText<{ state: RolloutState }>['cellText'];

/** A lock's OTA state. */
export function JobBadge({ state }: { state: OtaJobState }) {
  const { t } = useTranslation('firmware');
  return <span className="ota-state" data-state={state}><Badge status={JOB[state]} text={t(`jobStates.${state}`)} /></span>;
}
JobBadge.cellText = (({ state }) => i18n.t(`firmware:jobStates.${state}`)) satisfies DrawsCellText<{ state: OtaJobState }>['cellText'];

/** Why a lock waits or failed (gate or reason), or ''. */
export function jobDetail(t: TFunction, job: Pick<OtaJobRecord, 'waitGate' | 'reason' | 'state'>): string {
  if (job.state === 'WAITING' && job.waitGate) return t(`gates.${job.waitGate}`);
  if (job.reason) return t(`reasons.${job.reason}`, { defaultValue: job.reason });
  return '';
}
