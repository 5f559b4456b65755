/** Picks up to `max` of the tenant's locks, searching on the server (GET lockRoomList) once typing pauses. Values are lock ids. */
import { lockEndpoints } from '@iot/contract';
import { Select } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/useApiQuery';
import { useDebouncedSearch } from '../../components/useDebouncedSearch';

export interface LockMultiSelectProps {
  value?: number[];
  onChange?(value: number[]): void;
  max: number;
  placeholder?: string;
}

/** A searchable multiple select of locks (IMEI · name). */
export function LockMultiSelect({ value = [], onChange, max, placeholder }: LockMultiSelectProps) {
  const [keyword, setKeyword] = useState('');
  const searched = useDebouncedSearch(keyword.trim());
  const { data = [], isFetching } = useApiQuery(lockEndpoints.lockRoomList, { size: 50, keyword: searched || undefined }, { keepPrevious: true });
  return (
    <Select
      id="buy-locks"
      mode="multiple"
      maxCount={max}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={value}
      placeholder={placeholder}
      loading={isFetching}
      onChange={(next: number[]) => onChange?.(next)}
      options={data.map((lock) => ({ value: lock.id, label: `${lock.imei} · ${lock.name}` }))}
      style={{ width: '100%' }}
    />
  );
}
