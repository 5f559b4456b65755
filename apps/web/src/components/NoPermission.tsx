/**
 * What a page the user may not open shows: for an account that may open
 * some page, 403 with a way to its first page (never back to `/`, which would send it here again); for
 * an account with no page at all in this data centre (no role bound), a page saying so, naming the
 * account and data centre, offering sign-out (and the header's data-centre switch, inside the layout).
 */
import { ACCOUNT_TYPE_ADMIN, firstPermittedPath } from '@iot/contract';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../session/logout';
import { useTenantId, useUserInfo, useUsername } from '../hooks/useSession';
import { Result } from './LazyResult';

/** The 403 / no-page result. */
export function NoPermission() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: info } = useUserInfo();
  const username = useUsername();
  const tenantId = useTenantId();
  const first = info ? firstPermittedPath(info.type === ACCOUNT_TYPE_ADMIN, info.authorities) : undefined;
  const leave = <Button key="sign-out" id="no-page-sign-out" onClick={() => void signOut()}>{t('logout')}</Button>;
  if (info && !first) {
    return (
      <Result className="no-page" status="403" title={t('noPageTitle')} subTitle={t('noPageDetail', { username, tenantId })}
        extra={<Button type="primary" id="no-page-sign-out" onClick={() => void signOut()}>{t('logout')}</Button>} />
    );
  }
  return (
    <Result
      status="403"
      title="403"
      subTitle={t('noPermission')}
      extra={<Space>{first && <Button type="primary" onClick={() => navigate(first)}>{t('backHome')}</Button>}{leave}</Space>}
    />
  );
}
