/**
 * Data-centre (tenant) selector: options from GET /static/config.json (plain JSON array), narrowed to
 * the tenants the user may use when the server lists them. Choosing one stores the tenant id and
 * calls `onChanged` so the layout reloads the view.
 */
import { tenantEndpoints } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { setTenantId } from '../../session/session';
import { DATA_CENTRES_KEY } from '../../session/tenantData';
import { useTenantId, useUserInfo } from '../../hooks/useSession';

/** The header's data-centre selector. */
export function DataCentreSelect({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation();
  const tenantId = useTenantId();
  const { data: info } = useUserInfo();
  const { data: all = [] } = useQuery({
    queryKey: DATA_CENTRES_KEY,
    queryFn: () => call(tenantEndpoints.config, { raw: true, background: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const options = useMemo(() => {
    const allowed = info?.tenants.length ? new Set(info.tenants.map((tenant) => tenant.id)) : undefined;
    return all.filter((option) => !allowed || allowed.has(option.value));
  }, [all, info]);

  return (
    <Select
      className="data-centre"
      aria-label={t('dataCentre')}
      title={t('dataCentre')}
      value={options.some((option) => option.value === tenantId) ? tenantId : undefined}
      placeholder={t('dataCentre')}
      notFoundContent={t('noTenant')}
      options={options}
      popupMatchSelectWidth={false}
      onChange={(value: number) => {
        setTenantId(value);
        onChanged();
      }}
    />
  );
}
