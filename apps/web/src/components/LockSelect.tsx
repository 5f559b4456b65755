/**
 * Lock picker for one-lock views (heartbeat charts, journal): searches the tenant's locks on the
 * server (IMEI, name or room) and, with `autoSelectFirst`, picks the first lock when none is chosen.
 */
import { lockEndpoints } from '@iot/contract';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/useApiQuery';

export interface LockSelectProps {
  /** The chosen lock's IMEI. */
  value?: string;
  onChange(imei: string | undefined): void;
  autoSelectFirst?: boolean;
}

/** A searchable lock select (value: IMEI). */
export function LockSelect({ value, onChange, autoSelectFirst }: LockSelectProps) {
  const { t } = useTranslation('deviceLog');
  const [keyword, setKeyword] = useState('');
  const { data, isFetching } = useApiQuery(lockEndpoints.list, { current: 1, size: 20, keyword: keyword || undefined }, { keepPrevious: true });
  const first = data?.records[0]?.imei;
  useEffect(() => {
    if (autoSelectFirst && !value && first) onChange(first);
  }, [autoSelectFirst, value, first, onChange]);
  return (
    <Select
      id="lock-select"
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      placeholder={t('pickLock')}
      loading={isFetching}
      onChange={(imei?: string) => onChange(imei)}
      style={{ width: 300 }}
      options={(data?.records ?? []).map((lock) => ({ value: lock.imei, label: `${lock.name} · ${lock.room} (${lock.imei})` }))}
    />
  );
}
