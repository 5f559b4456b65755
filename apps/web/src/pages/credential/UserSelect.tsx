/** Picks a lock user of one lock (value: lock user id), searching by name or phone. */
import { credentialEndpoints } from '@iot/contract';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';

export interface UserSelectProps {
  lockId: number;
  value?: number;
  onChange?(value: number | undefined): void;
  id?: string;
}

/** Lock users of `lockId` in sync (name, phone, slot). */
export function UserSelect({ lockId, value, onChange, id }: UserSelectProps) {
  const { t } = useTranslation('credential');
  const [keyword, setKeyword] = useState('');
  const { data, isFetching } = useApiQuery(credentialEndpoints.userList, { lockId, current: 1, size: 50, keyword: keyword || undefined }, { keepPrevious: true });
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      onChange={(next?: number) => onChange?.(next)}
      loading={isFetching}
      placeholder={t('userKeywordPlaceholder')}
      options={(data?.records ?? []).filter((u) => u.syncState === 'normal' || u.syncState === 'modifying')
        .map((u) => ({ value: u.id, label: `#${u.userSlot} ${u.name}${u.phone ? ` (${u.phone})` : ''}` }))}
    />
  );
}
