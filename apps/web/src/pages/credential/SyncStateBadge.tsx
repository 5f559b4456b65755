/**
 * The sync state of a lock user or credential on its lock (TTLock's status model, driven by its
 * command) as a Badge (the console's vocabulary: Badge for live state, Tag for categories): in progress
 * blue (processing), failed red, normal green. data-sync carries the raw state for tests.
 */
import type { SyncState } from '@iot/contract';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

/** Badge status of a sync state: failed red, normal green, anything in progress blue. */
export function syncColor(state: SyncState): 'error' | 'success' | 'processing' {
  if (syncFailed(state)) return 'error';
  return state === 'normal' ? 'success' : 'processing';
}

/** True when the last command failed (retry or discard offered). */
export const syncFailed = (state: SyncState) => state.endsWith('_failed');

/** The badge. */
export function SyncStateBadge({ state }: { state: SyncState }) {
  const { t } = useTranslation('credential');
  return <span className="sync-state" data-sync={state}><Badge status={syncColor(state)} text={t(`syncStates.${state}`)} /></span>;
}
