/**
 * The sync state of a lock user or credential on its lock (TTLock's status model, driven by its
 * command) as a tag: in progress blue (processing), failed red, normal green. data-sync carries the raw
 * state for tests.
 */
import type { SyncState } from '@iot/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Colour of a sync state: failed red, normal green, anything in progress blue. */
export function syncColor(state: SyncState): string {
  if (syncFailed(state)) return 'error';
  return state === 'normal' ? 'success' : 'processing';
}

/** True when the last command failed (retry or discard offered). */
export const syncFailed = (state: SyncState) => state.endsWith('_failed');

/** The tag. */
export function SyncStateTag({ state }: { state: SyncState }) {
  const { t } = useTranslation('credential');
  return <Tag color={syncColor(state)} data-sync={state}>{t(`syncStates.${state}`)}</Tag>;
}
