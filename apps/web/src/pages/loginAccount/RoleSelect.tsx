/** Picks roles of the current data centre (value: role ids), searching by name on the server (the RemoteSelect). */
import { roleEndpoints, type RoleRecord } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { RemoteSelect } from '../../components/RemoteSelect';

const SEARCH_SIZE = 50;

/** A multiple select of the tenant's roles. */
export function RoleSelect({ value, onChange, id }: { value?: number[]; onChange?(ids: number[]): void; id?: string }) {
  const { t } = useTranslation('account');
  return (
    <RemoteSelect<typeof roleEndpoints.list, RoleRecord, number>
      id={id}
      mode="multiple"
      endpoint={roleEndpoints.list}
      query={(keyword) => ({ keyword, current: 1, size: SEARCH_SIZE })}
      records={(page) => page.records}
      option={(role) => ({ value: role.id, label: role.name })}
      value={value}
      onChange={(next) => onChange?.((next as number[] | undefined) ?? [])}
      placeholder={t('rolesPlaceholder')}
    />
  );
}
