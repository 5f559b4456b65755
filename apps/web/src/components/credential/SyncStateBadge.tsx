/**
 * The sync state of a lock user or credential on its lock (TTLock's status model, driven by its
 * command) as a Badge (the console's vocabulary: Badge for live state, Tag for categories): in progress
 * blue (processing), failed red, normal green. A failed state says why underneath: the
 * lock's answer translated (contract failureReasonText: 门锁上没有该用户, timed out, ...), with a link to
 * that lock's 下发日志. data-sync carries the raw state for tests.
 */
import { failureReasonText, type protocol, type SyncState } from '@iot/contract';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLanguage } from '../../hooks/useSession';

/** Badge status of a sync state: failed red, normal green, anything in progress blue. */
export function syncColor(state: SyncState): 'error' | 'success' | 'processing' {
  if (syncFailed(state)) return 'error';
  return state === 'normal' ? 'success' : 'processing';
}

/** True when the last command failed (retry or discard offered). */
export const syncFailed = (state: SyncState) => state.endsWith('_failed');

/** What the badge needs of a row: its state, and its last command's state and answer. */
export interface SyncFacts {
  syncState: SyncState;
  imei: string;
  lastCommandState: protocol.CommandState | null;
  lastResultCode: number | null;
}

/** The badge, and for a failed row the reason (with `log`: a link to the lock's 下发日志). */
export function SyncStateBadge({ row, log = false }: { row: SyncFacts; log?: boolean }) {
  const { t } = useTranslation('credential');
  const language = useLanguage();
  const reason = syncFailed(row.syncState) ? failureReasonText(row.lastCommandState, row.lastResultCode, language) : undefined;
  return (
    <span className="sync-state" data-sync={row.syncState}>
      <Badge status={syncColor(row.syncState)} text={t(`syncStates.${row.syncState}`)} />
      {reason && <span className="sync-reason" data-reason>{reason}</span>}
      {reason && log && <Link className="sync-log-link" to={`/commandDownLog?keyword=${row.imei}`}>{t('commandLog')}</Link>}
    </span>
  );
}
