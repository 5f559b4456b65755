/**
 * Lock picker for one-lock views (heartbeat charts, journal, credentials): searches the tenant's locks
 * on the server (IMEI, name or room; GET lockRoomList, which every page that picks a lock may read)
 * and, with `autoSelectFirst`, picks the first lock when none is chosen.
 */
import { lockEndpoints } from '@iot/contract';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/useApiQuery';

/** Values are IMEIs, or lock ids with `byId`. */
export type LockSelectProps = (
  | { byId?: false; value?: string; onChange?(imei: string | undefined): void }
  | { byId: true; value?: number; onChange?(lockId: number | undefined): void }
) & { autoSelectFirst?: boolean; id?: string; /** Offer "all locks" first, with this value. */ allValue?: string };

type V = string | number;

/** A searchable lock select (value: IMEI). */
export function LockSelect(props: LockSelectProps) {
  const { value, autoSelectFirst, byId, id = 'lock-select', allValue } = props;
  const onChange = props.onChange as ((next: V | undefined) => void) | undefined;
  const { t } = useTranslation('deviceLog');
  const [keyword, setKeyword] = useState('');
  const { data = [], isFetching } = useApiQuery(lockEndpoints.lockRoomList, { size: 20, keyword: keyword || undefined }, { keepPrevious: true });
  const lockValue = (lock: { id: number; imei: string }) => (byId ? lock.id : lock.imei) as V;
  const first = data[0] ? lockValue(data[0]) : undefined;
  useEffect(() => {
    if (autoSelectFirst && !value && first && onChange) onChange(first);
  }, [autoSelectFirst, value, first, onChange]);
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear={!allValue}
      value={value}
      placeholder={t('pickLock')}
      loading={isFetching}
      onChange={(next?: V) => onChange?.(next)}
      style={{ width: 300 }}
      options={[
        ...(allValue ? [{ value: allValue as V, label: t('allLocks') }] : []),
        ...data.map((lock) => ({ value: lockValue(lock), label: `${lock.name} · ${lock.room} (${lock.imei})` })),
      ]}
    />
  );
}
