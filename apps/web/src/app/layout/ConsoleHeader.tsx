/**
 * Header: sidebar toggle, breadcrumb, live-update dot, data-centre selector, its time zone
 * (TimeZoneSetting), language toggle, username, logout.
 */
import { BREADCRUMB_TITLE, BREADCRUMB_TITLE_EN, findRoute } from '@iot/contract';
import { GlobalOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { applyLanguage } from '../language';
import { signOut } from '../logout';
import { useLanguage, useUsername } from '../useSession';
import { LiveIndicator } from '../../live/LiveIndicator';
import { DataCentreSelect } from './DataCentreSelect';
import { TimeZoneSetting } from './TimeZoneSetting';

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
        <DataCentreSelect onChanged={onTenantChanged} />
        <TimeZoneSetting />
        <Button type="text" icon={<GlobalOutlined />} onClick={() => applyLanguage(language === 'en-US' ? 'zh-CN' : 'en-US')}>
          {t('switchLanguage')}
        </Button>
        <span className="console-username"><UserOutlined /> {username}</span>
        <Tooltip title={t('logout')}>
          <Button type="text" aria-label={t('logout')} icon={<LogoutOutlined />} onClick={() => void signOut()} />
        </Tooltip>
      </div>
    </div>
  );
}
