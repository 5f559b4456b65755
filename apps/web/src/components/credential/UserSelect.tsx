/** Picks a lock user of one lock (value: lock user id), searching by name or phone (the RemoteSelect). */
import { credentialEndpoints, type LockUserRecord } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../RemoteSelect';

export interface UserSelectProps {
  lockId: number;
  value?: number;
  onChange?(value: number | undefined): void;
  id?: string;
}

const SEARCH_SIZE = 50;

/** Lock users of `lockId` in sync (name, phone, slot). */
export function UserSelect({ lockId, value, onChange, id }: UserSelectProps) {
  const { t } = useTranslation('credential');
  return (
    <RemoteSelect<typeof credentialEndpoints.userList, LockUserRecord, number>
      id={id}
      endpoint={credentialEndpoints.userList}
      query={(keyword) => ({ lockId, current: 1, size: SEARCH_SIZE, keyword })}
      records={(page) => page.records.filter((u) => u.syncState === 'normal' || u.syncState === 'modifying')}
      option={(u) => ({ value: u.id, label: `#${u.userSlot} ${u.name}${u.phone ? ` (${u.phone})` : ''}` })}
      value={value}
      onChange={(next) => onChange?.(next as number | undefined)}
      placeholder={t('userKeywordPlaceholder')}
    />
  );
}
