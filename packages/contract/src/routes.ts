/**
 * The route table of the console (spec §2 "Screens and routes"): path, title in both languages and the
 * authority a page needs. Pages outside the menu borrow the key of the menu page they belong to.
 * The web registers its router from this table; page titles render as `<title> | 物联网中台`.
 */
import type { Authority } from './authorities.js';
import type { LocalizedText } from './i18n.js';

export interface RouteEntry {
  /** Path under the web base (/api), with a leading slash. */
  path: string;
  title: LocalizedText;
  /** Authority needed to open the page; undefined for /login. */
  authority?: Authority;
  /** `layout`: inside /home with header, sidebar and tabs; `bare`: full screen. */
  frame: 'layout' | 'bare';
}

const page = (path: string, zh: string, en: string, authority: Authority, frame: RouteEntry['frame'] = 'layout'): RouteEntry => ({
  path, title: { 'zh-CN': zh, 'en-US': en }, authority, frame,
});

export const LOGIN_ROUTE: RouteEntry = { path: '/login', title: { 'zh-CN': '登录', 'en-US': 'Sign in' }, frame: 'bare' };

/** Routes inside the layout, in the spec's order, then the full-screen dashboard. */
export const ROUTES: readonly RouteEntry[] = [
  page('/homepage', '首页', 'Home', 'HOME_PAGE'),
  page('/RoomInquiry', '产品', 'Products', 'LOOK_INFO'),
  page('/lockAnalysis', '门锁分析', 'Lock analysis', 'HOME_PAGE'),
  page('/lockSurvey', '门锁概况', 'Lock overview', 'LOOK_INFO'),
  page('/lockAlert', '门锁警告', 'Lock alerts', 'LOCK_ALERT_LOG'),
  page('/lockJournal', '门锁日志', 'Lock journal', 'LOOK_INFO'),
  page('/airSwitchAnalysis', '空开分析', 'Air switch analysis', 'AIRSWITCH_RULE'),
  page('/equipmentType', '设备类型', 'Device types', 'LOOK_INFO'),
  page('/lockInfo', '门锁信息', 'Lock information', 'LOOK_INFO'),
  page('/lockConfig', '门锁配置', 'Lock configuration', 'LOOK_CONFIG'),
  page('/firmwareRule', '固件管理', 'Firmware', 'FIRMWARE_RULE'),
  page('/voucherUserManage', '用户管理', 'Lock users', 'VOUCHER_USER_MANAGE'),
  page('/voucherPasswordManage', '密码管理', 'Passwords', 'VOUCHER_PASSWORD_MANAGE'),
  page('/voucherCardManage', '卡片管理', 'IC cards', 'VOUCHER_CARD_MANAGE'),
  page('/voucherFpManage', '指纹管理', 'Fingerprints', 'VOUCHER_FP_MANAGE'),
  page('/systemLog', '系统日志', 'System log', 'SYSTEM_LOG'),
  page('/operateUserLog', '用户操作日志', 'Lock user operations', 'OPERATE_USER_LOG'),
  page('/operatePasswordLog', '密码操作日志', 'Password operations', 'OPERATE_PASSWORD_LOG'),
  page('/operateCardLog', '卡操作日志', 'Card operations', 'OPERATE_CARD_LOG'),
  page('/operateFpLog', '指纹操作日志', 'Fingerprint operations', 'OPERATE_FP_LOG'),
  page('/commandUpLog', '上报日志', 'Uplinks', 'COMMAND_UP_LOG'),
  page('/commandDownLog', '下发日志', 'Downlinks', 'COMMAND_DOWN_LOG'),
  page('/heartbeatLog', '心跳日志', 'Heartbeats', 'HEARTBEAT_LOG'),
  page('/lockAlertLog', '报警日志', 'Alarms', 'LOCK_ALERT_LOG'),
  page('/lockOpenRecordLog', '开锁日志', 'Unlock records', 'LOCK_OPEN_RECORD_LOG'),
  page('/groupManagement', '分组管理', 'Groups', 'LOOK_INFO'),
  page('/Information', '设备信息', 'Device information', 'LOOK_INFO'),
  page('/renew', '套餐', 'Packages', 'RENEW'),
  page('/orderManagement', '订单管理', 'Orders', 'ORDER_MANAGEMENT'),
  page('/subscriptionManagement', '订阅管理', 'Subscriptions', 'SUBSCRIPTIONMANAGEMENT'),
  page('/loginAccount', '登录账号', 'Login accounts', 'LOGIN_ACCOUNT'),
  page('/rolePermissions', '角色权限', 'Roles', 'ROLE_PERMISSIONS'),
  page('/bindingRoles', '绑定角色', 'Role bindings', 'BINDING_ROLES'),
  page('/Datavisualization', '数据可视化', 'Data visualisation', 'HOME_PAGE', 'bare'),
];

/** The route entry of a path, or undefined. */
export function findRoute(path: string): RouteEntry | undefined {
  return path === LOGIN_ROUTE.path ? LOGIN_ROUTE : ROUTES.find((route) => route.path === path);
}

/** Document title of a page: `<title> | <product title>` (spec §1). */
export function documentTitle(pageTitle: string, productTitle: string): string {
  return `${pageTitle} | ${productTitle}`;
}
