/**
 * The big screen's header: data centre (a picker when the account may see several, with "all data
 * centres" for administrators: the server checks scope=all again), title, connection state, clock,
 * language toggle and the way back to the console.
 */
import { ArrowLeftOutlined, GlobalOutlined } from '@ant-design/icons';
import { ACCOUNT_TYPE_ADMIN } from '@iot/contract';
import { Button, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { applyLanguage } from '../session/language';
import { setTenantId } from '../session/session';
import { dropTenantData } from '../session/tenantData';
import { useLanguage, useTenantId, useUserInfo } from '../hooks/useSession';
import { screenDate, screenTime, screenWeekday } from './screenTime';

export type Scope = 'tenant' | 'all';

/**
 * The wall clock in the data centre's zone (screenTime.ts), so the date shown is the day the charts count.
 */
function Clock({ language }: { language: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span className="screen-clock" data-clock>{`${screenDate(now)} ${screenWeekday(now, language)} ${screenTime(now)}`}</span>;
}

interface Props {
  scope: Scope;
  onScope: (scope: Scope) => void;
  /** The last poll failed: the screen waits for the server. */
  offline: boolean;
}

export function ScreenHeader({ scope, onScope, offline }: Props) {
  const { t } = useTranslation('screen');
  const { t: tc } = useTranslation();
  const language = useLanguage();
  const tenantId = useTenantId();
  const { data: info } = useUserInfo();
  const tenants = info?.tenants ?? [];
  const options: { value: number | 'all'; label: string }[] = tenants.map((tenant) => ({ value: tenant.id, label: tenant.name }));
  if (info?.type === ACCOUNT_TYPE_ADMIN && tenants.length > 1) options.push({ value: 'all', label: t('allDataCentres') });
  const current = tenants.find((tenant) => tenant.id === tenantId)?.name ?? `${tc('dataCentre')} ${tenantId}`;
  const choose = (value: number | 'all') => {
    if (value === 'all') return onScope('all');
    if (value !== tenantId) {
      setTenantId(value);
      dropTenantData();
    }
    onScope('tenant');
  };
  return (
    <header className="screen-header">
      <div className="screen-header-side">
        {options.length > 1
          ? <Select<number | 'all'> className="screen-tenant" aria-label={tc('dataCentre')} value={scope === 'all' ? 'all' : tenantId} options={options}
              onChange={choose} popupMatchSelectWidth={false} />
          : <span className="screen-tenant-name">{current}</span>}
        <span className={`screen-status ${offline ? 'screen-status-offline' : ''}`} data-status={offline ? 'offline' : 'live'}>
          {offline ? t('reconnecting') : t('live')}
        </span>
      </div>
      <h1 className="screen-title">{t('title')}</h1>
      <div className="screen-header-side screen-header-right">
        <Clock language={language} />
        <Button type="text" icon={<GlobalOutlined />} onClick={() => applyLanguage(language === 'en-US' ? 'zh-CN' : 'en-US')}>{tc('switchLanguage')}</Button>
        <Link to="/" className="screen-back" data-back><ArrowLeftOutlined /> {t('back')}</Link>
      </div>
    </header>
  );
}
