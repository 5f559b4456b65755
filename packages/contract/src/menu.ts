/**
 * The sidebar menu tree (spec §2 "Sidebar menu", §3 "Menu entry"), with an English title for every entry
 * (issue #2: a full English menu). The web builds its sidebar from this tree; filtering rules:
 * - administrators (type 0) see every entry;
 * - others see a leaf only when its key is in their authorities;
 * - a group is shown when its own key or any descendant is permitted (spec §6), and then shows only
 *   its permitted descendants. A group's key does not grant its children's pages.
 * - a group without a key is shown only through its children.
 */
import type { Authority } from './authorities.js';
import type { LocalizedText } from './i18n.js';

/** A menu entry; `index` is the route path without its leading slash. */
export interface MenuEntry {
  index: string;
  key?: Authority;
  icon: string;
  title: LocalizedText;
  /** Spec's status: 1 for the user-management group, 0 otherwise; -1 when hidden for the user. */
  status: number;
  subs: MenuEntry[];
}

const leaf = (index: string, key: Authority | undefined, zh: string, en: string, icon = 'file'): MenuEntry => ({
  index, key, icon, title: { 'zh-CN': zh, 'en-US': en }, status: 0, subs: [],
});
const group = (index: string, key: Authority | undefined, zh: string, en: string, icon: string, subs: MenuEntry[], status = 0): MenuEntry => ({
  index, key, icon, title: { 'zh-CN': zh, 'en-US': en }, status, subs,
});

export const MENU: readonly MenuEntry[] = [
  leaf('homepage', 'HOME_PAGE', '首页', 'Home', 'home'),
  group('lockRule', 'LOOK_RULE', '设备管理', 'Devices', 'device', [
    group('lockManage', undefined, '门锁管理', 'Locks', 'lock', [
      leaf('lockInfo', 'LOOK_INFO', '门锁信息', 'Lock information'),
      leaf('lockConfig', 'LOOK_CONFIG', '门锁配置', 'Lock configuration'),
      leaf('firmwareRule', 'FIRMWARE_RULE', '固件管理', 'Firmware'),
    ]),
    leaf('airSwitchAnalysis', 'AIRSWITCH_RULE', '空开管理', 'Air switches', 'thunderbolt'),
  ]),
  group('voucherManage', 'VOUCHER_MANAGE', '凭证管理', 'Credentials', 'key', [
    leaf('voucherUserManage', 'VOUCHER_USER_MANAGE', '用户管理', 'Lock users'),
    leaf('voucherPasswordManage', 'VOUCHER_PASSWORD_MANAGE', '密码管理', 'Passwords'),
    leaf('voucherCardManage', 'VOUCHER_CARD_MANAGE', '卡片管理', 'IC cards'),
    leaf('voucherFpManage', 'VOUCHER_FP_MANAGE', '指纹管理', 'Fingerprints'),
  ]),
  group('logManagement', 'LOG_MANAGEMENT', '日志管理', 'Logs', 'log', [
    group('operateLog', undefined, '操作日志', 'Operation logs', 'audit', [
      leaf('operateUserLog', 'OPERATE_USER_LOG', '用户操作日志', 'Lock user operations'),
      leaf('operatePasswordLog', 'OPERATE_PASSWORD_LOG', '密码操作日志', 'Password operations'),
      leaf('operateCardLog', 'OPERATE_CARD_LOG', '卡操作日志', 'Card operations'),
      leaf('operateFpLog', 'OPERATE_FP_LOG', '指纹操作日志', 'Fingerprint operations'),
    ]),
    leaf('commandUpLog', 'COMMAND_UP_LOG', '上报日志', 'Uplinks'),
    leaf('commandDownLog', 'COMMAND_DOWN_LOG', '下发日志', 'Downlinks'),
    leaf('heartbeatLog', 'HEARTBEAT_LOG', '心跳日志', 'Heartbeats'),
    leaf('lockAlertLog', 'LOCK_ALERT_LOG', '报警日志', 'Alarms'),
    leaf('lockOpenRecordLog', 'LOCK_OPEN_RECORD_LOG', '开锁日志', 'Unlock records'),
    leaf('systemLog', 'SYSTEM_LOG', '系统日志', 'System log'),
  ]),
  group('renewTop', 'RENEWTOP', '订单管理', 'Orders', 'shopping', [
    leaf('renew', 'RENEW', '套餐', 'Packages'),
    leaf('orderManagement', 'ORDER_MANAGEMENT', '订单管理', 'Orders'),
  ]),
  group('userManagement', 'USER_MANAGEMENTTOP', '用户管理', 'Users', 'team', [
    leaf('loginAccount', 'LOGIN_ACCOUNT', '登录账号', 'Login accounts'),
    leaf('rolePermissions', 'ROLE_PERMISSIONS', '角色权限', 'Roles'),
    leaf('bindingRoles', 'BINDING_ROLES', '绑定角色', 'Role bindings'),
  ], 1),
  leaf('subscriptionManagement', 'SUBSCRIPTIONMANAGEMENT', '订阅管理', 'Subscriptions', 'notification'),
];

/** Every entry of a tree, depth first (parents before children). */
export function flattenMenu(entries: readonly MenuEntry[] = MENU): MenuEntry[] {
  return entries.flatMap((entry) => [entry, ...flattenMenu(entry.subs)]);
}

/**
 * The menu a user sees: hidden entries removed (spec §4: status -1 means hidden).
 * @param isAdmin type 0 accounts see everything
 * @param authorities the account's authority keys
 */
export function visibleMenu(isAdmin: boolean, authorities: readonly string[], entries: readonly MenuEntry[] = MENU): MenuEntry[] {
  if (isAdmin) return entries.map((entry) => ({ ...entry, subs: visibleMenu(true, authorities, entry.subs) }));
  const granted = new Set(authorities);
  const result: MenuEntry[] = [];
  for (const entry of entries) {
    const subs = visibleMenu(false, authorities, entry.subs);
    const own = entry.key !== undefined && granted.has(entry.key);
    if (own || subs.length > 0) {
      result.push({ ...entry, subs });
    }
  }
  return result;
}

/**
 * Root redirect target of a non-administrator (spec §2): the menu entry of the first item of their
 * authorities list that names a page; failing that, the first page they may see.
 */
export function firstPermittedPath(isAdmin: boolean, authorities: readonly string[]): string | undefined {
  const leaves = flattenMenu(visibleMenu(isAdmin, authorities)).filter((entry) => entry.subs.length === 0);
  const byAuthority = authorities.map((key) => leaves.find((entry) => entry.key === key)).find(Boolean);
  const target = byAuthority ?? leaves[0];
  return target ? `/${target.index}` : undefined;
}
