/** Maps the contract's menu icon names to antd icons. */
import {
  AppstoreOutlined, AuditOutlined, FileTextOutlined, HomeOutlined, KeyOutlined, LockOutlined,
  NotificationOutlined, ProfileOutlined, ShoppingOutlined, TeamOutlined, ThunderboltOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

const ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  device: <AppstoreOutlined />,
  lock: <LockOutlined />,
  file: <FileTextOutlined />,
  thunderbolt: <ThunderboltOutlined />,
  key: <KeyOutlined />,
  log: <ProfileOutlined />,
  audit: <AuditOutlined />,
  shopping: <ShoppingOutlined />,
  team: <TeamOutlined />,
  notification: <NotificationOutlined />,
};

/** The icon of a menu entry (a document icon for unknown names). */
export function menuIcon(name: string): ReactNode {
  return ICONS[name] ?? ICONS.file;
}
