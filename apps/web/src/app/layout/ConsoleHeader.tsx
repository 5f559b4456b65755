/**
 * Header: sidebar toggle, breadcrumb, live-update dot, the inbox's bell, data-centre selector, its time zone
 * (TimeZoneSetting), language toggle, username (opening two-factor sign-in: UserSecurity), contact details
 * (ContactButton: e-mail with its verification, mobile), sign-ins and sessions (SessionsButton), logout.
 */
import { BREADCRUMB_TITLE, BREADCRUMB_TITLE_EN, findRoute } from '@iot/contract';
import { GlobalOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Tooltip } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { applyLanguage } from '../../session/language';
import { signOut } from '../../session/logout';
import { useLanguage, useUsername } from '../../hooks/useSession';
import { InboxBell } from '../../inbox/InboxBell';
import { LiveIndicator } from '../../live/LiveIndicator';
import { DataCentreSelect } from './DataCentreSelect';
import { TimeZoneSetting } from './TimeZoneSetting';
import { UserSecurity } from '../../twoFactor/UserSecurity';
import { SessionsButton } from '../../sessions/SessionsButton';
import { ContactButton } from '../../contact/ContactButton';

interface Props {
  collapsed: boolean;
  onToggle: () => void;
  onTenantChanged: () => void;
}

/** The console header. */
export function ConsoleHeader({ collapsed, onToggle, onTenantChanged }: Props) {
  const { t } = useTranslation();
  const language = useLanguage();
  const username = useUsername();
  const { pathname } = useLocation();
  const route = findRoute(pathname);
  const crumbs = [{ title: language === 'en-US' ? BREADCRUMB_TITLE_EN : BREADCRUMB_TITLE }];
  if (route) crumbs.push({ title: route.title[language] });

  return (
    <div className="console-header">
      <Button
        type="text"
        aria-label={collapsed ? t('expand') : t('collapse')}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggle}
      />
      <Breadcrumb className="console-breadcrumb" items={crumbs} />
      <div className="console-header-right">
        <LiveIndicator />
        <Suspense fallback={null}><InboxBell /></Suspense>
        <DataCentreSelect onChanged={onTenantChanged} />
        <TimeZoneSetting />
        <Button type="text" icon={<GlobalOutlined />} onClick={() => applyLanguage(language === 'en-US' ? 'zh-CN' : 'en-US')}>
          {t('switchLanguage')}
        </Button>
        <Suspense fallback={<span className="console-username"><UserOutlined /> {username}</span>}><UserSecurity username={username} /></Suspense>
        <Suspense fallback={null}><ContactButton /></Suspense>
        <Suspense fallback={null}><SessionsButton /></Suspense>
        <Tooltip title={t('logout')}>
          <Button type="text" aria-label={t('logout')} icon={<LogoutOutlined />} onClick={() => void signOut()} />
        </Tooltip>
      </div>
    </div>
  );
}
