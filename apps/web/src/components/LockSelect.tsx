/**
 * Lock picker for one-lock views (heartbeat charts, journal, credentials): the RemoteSelect over the
 * tenant's locks searched on the server (IMEI, name or room; GET lockRoomList, which every page that
 * picks a lock may read) and, with `autoSelectFirst`, picks the first lock when none is chosen.
 */
import { type LockOption, lockEndpoints } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from './RemoteSelect';

/** Values are IMEIs, or lock ids with `byId`. */
export type LockSelectProps = (
  | { byId?: false; value?: string; onChange?(imei: string | undefined): void }
  | { byId: true; value?: number; onChange?(lockId: number | undefined): void }
) & {
  autoSelectFirst?: boolean; id?: string; /** Offer "all locks" first, with this value. */ allValue?: string;
  /** Fill the width (in a form's dialog, where the IMEI would be cut at 300 px). */ block?: boolean;
};

type V = string | number;
const SEARCH_SIZE = 20;

/** A searchable lock select (value: IMEI, or id with `byId`). */
export function LockSelect(props: LockSelectProps) {
  const { byId, allValue } = props;
  const onChange = props.onChange as ((next: V | undefined) => void) | undefined;
  const { t } = useTranslation('deviceLog');
  return (
    <RemoteSelect<typeof lockEndpoints.lockRoomList, LockOption, V>
      id={props.id ?? 'lock-select'}
      endpoint={lockEndpoints.lockRoomList}
      query={(keyword) => ({ size: SEARCH_SIZE, keyword })}
      records={(data) => data}
      option={(lock) => ({ value: byId ? lock.id : lock.imei, label: `${lock.name} · ${lock.room} (${lock.imei})` })}
      value={props.value}
      onChange={(next) => onChange?.(next as V | undefined)}
      allowClear={!allValue}
      leading={allValue ? [{ value: allValue, label: t('allLocks') }] : []}
      autoSelectFirst={props.autoSelectFirst}
      placeholder={t('pickLock')}
      selectProps={{ 'aria-label': t('pickLock') }}
      style={{ width: props.block ? '100%' : 300 }}
    />
  );
}
