/**
 * Lock group picker (分组管理's groups): the RemoteSelect over GET /iot/v1/lockGroup/list searched on
 * the server by name or description, each option labelled with its member count. Value: the group id.
 */
import { lockGroupEndpoints, type LockGroupRecord } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from './RemoteSelect';

const SEARCH_SIZE = 50;

/** A searchable select of the data centre's lock groups. */
export function GroupSelect({ value, onChange, id }: { value?: number; onChange?(groupId: number | undefined): void; id?: string }) {
  const { t } = useTranslation('group');
  return (
    <RemoteSelect<typeof lockGroupEndpoints.list, LockGroupRecord, number>
      id={id ?? 'group-select'}
      endpoint={lockGroupEndpoints.list}
      query={(keyword) => ({ keyword, current: 1, size: SEARCH_SIZE })}
      records={(page) => page.records}
      option={(group) => ({ value: group.id, label: t('groupOption', { name: group.name, count: group.memberCount }) })}
      value={value}
      onChange={(next) => onChange?.(next as number | undefined)}
      placeholder={t('pickGroup')}
    />
  );
}
