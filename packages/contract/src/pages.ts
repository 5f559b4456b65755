/**
 * THE page tree of the console (spec §2 "Screens and routes" and "Sidebar menu"): every screen, menu
 * group, authority key and in-page action, stated once. Everything else derives from it:
 * - the sidebar menu (menu.ts MENU): every node not `hidden`;
 * - the route table (routes.ts ROUTES): every node not a `group`, path `/${index}`, authority its own
 *   key or, for a page outside the menu (`hidden`), the key of the menu entry it sits under;
 * - the authority keys (authorities.ts AUTHORITIES, type Authority): the nodes' keys, depth first,
 *   then the in-page actions' keys; the role editor and the server's route checks use them;
 * - the web's page registry is typed by PagePath, so a route without a page fails the type check.
 * Node fields: index (route path without '/' or a group's menu index), key (authority), title
 * (menu and screen; pageTitle when the screen's differs), icon (menu; default 'file'), status (spec §3; default 0), group (a menu group, no screen), hidden
 * (a screen outside the menu), frame ('bare': full screen outside the layout), actions (in-page
 * authorities shown under the page in the role editor; holding one does not open the page).
 */
import type { LocalizedText } from './i18n.js';
import { localized as t } from './i18n.js';


/** The shape every node of PAGE_TREE satisfies. */
export interface PageNode {
  readonly index: string;
  readonly key?: string;
  readonly title: LocalizedText;
  /** The screen's title when it differs from the menu entry's `title`. */
  readonly pageTitle?: LocalizedText;
  readonly icon?: string;
  readonly status?: number;
  readonly group?: true;
  readonly hidden?: true;
  readonly frame?: 'bare';
  readonly subs?: readonly PageNode[];
  readonly actions?: readonly { readonly key: string; readonly title: LocalizedText }[];
}

export const PAGE_TREE = [
  { index: 'homepage', key: 'HOME_PAGE', title: t('首页', 'Home'), icon: 'home', subs: [
    { index: 'lockAnalysis', hidden: true, title: t('门锁分析', 'Lock analysis') },
    { index: 'Datavisualization', hidden: true, frame: 'bare', title: t('数据可视化', 'Data visualisation') },
  ] },
  { index: 'lockRule', key: 'LOOK_RULE', group: true, title: t('设备管理', 'Devices'), icon: 'device', subs: [
    { index: 'lockManage', group: true, title: t('门锁管理', 'Locks'), icon: 'lock', subs: [
      { index: 'lockInfo', key: 'LOOK_INFO', title: t('门锁信息', 'Lock information'), actions: [
        { key: 'LOCK_REGISTRY', title: t('登记与停用门锁', 'Register and retire locks') },
        { key: 'DEVICE_TYPE_EDIT', title: t('维护设备类型', 'Edit device types') },
        { key: 'LOCK_GROUP_EDIT', title: t('维护分组', 'Edit groups') },
        { key: 'LOCK_DRIFT_RESOLVE', title: t('处理门锁凭证漂移', 'Resolve credential drift') },
        { key: 'LOCK_REMOTE_UNLOCK', title: t('远程开锁', 'Remote unlock') },
        { key: 'LOCK_REMOTE_UNLOCK_APPROVE', title: t('审批远程开锁与设置高安全门', 'Approve remote unlocks and set high-security doors') },
      ], subs: [
        { index: 'RoomInquiry', hidden: true, title: t('产品', 'Products') },
        { index: 'lockSurvey', hidden: true, title: t('门锁概况', 'Lock overview') },
        { index: 'lockJournal', hidden: true, title: t('门锁日志', 'Lock journal') },
        { index: 'equipmentType', hidden: true, title: t('设备类型', 'Device types') },
        { index: 'groupManagement', hidden: true, title: t('分组管理', 'Groups') },
        { index: 'Information', hidden: true, title: t('设备信息', 'Device information') },
      ] },
      { index: 'lockConfig', key: 'LOOK_CONFIG', title: t('门锁配置', 'Lock configuration') },
      { index: 'firmwareRule', key: 'FIRMWARE_RULE', title: t('固件管理', 'Firmware'), actions: [
        { key: 'FIRMWARE_PACKAGE_EDIT', title: t('上传与删除固件', 'Upload and delete firmware') },
        { key: 'FIRMWARE_ROLLOUT_RUN', title: t('创建与控制升级任务', 'Create and control rollouts') },
      ] },
    ] },
    { index: 'airSwitchAnalysis', key: 'AIRSWITCH_RULE', title: t('空开管理', 'Air switches'), pageTitle: t('空开分析', 'Air switch analysis'), icon: 'thunderbolt' },
  ] },
  { index: 'voucherManage', key: 'VOUCHER_MANAGE', group: true, title: t('凭证管理', 'Credentials'), icon: 'key', subs: [
    { index: 'voucherUserManage', key: 'VOUCHER_USER_MANAGE', title: t('用户管理', 'Lock users') },
    { index: 'voucherPasswordManage', key: 'VOUCHER_PASSWORD_MANAGE', title: t('密码管理', 'Passwords'), actions: [
      { key: 'VOUCHER_PASSWORD_REVEAL', title: t('查看密码明文', 'Reveal passwords') },
      { key: 'LOCK_OFFLINE_CODE', title: t('签发离线密码', 'Issue offline codes') },
    ] },
    { index: 'voucherCardManage', key: 'VOUCHER_CARD_MANAGE', title: t('卡片管理', 'IC cards') },
    { index: 'voucherFpManage', key: 'VOUCHER_FP_MANAGE', title: t('指纹管理', 'Fingerprints') },
    { index: 'voucherScheduleManage', key: 'VOUCHER_SCHEDULE_MANAGE', title: t('时间表管理', 'Schedules') },
    { index: 'holidayCalendar', key: 'HOLIDAY_CALENDAR', title: t('节假日日历', 'Holiday calendars') },
  ] },
  { index: 'logManagement', key: 'LOG_MANAGEMENT', group: true, title: t('日志管理', 'Logs'), icon: 'log', subs: [
    { index: 'operateLog', group: true, title: t('操作日志', 'Operation logs'), icon: 'audit', subs: [
      { index: 'operateUserLog', key: 'OPERATE_USER_LOG', title: t('用户操作日志', 'Lock user operations') },
      { index: 'operatePasswordLog', key: 'OPERATE_PASSWORD_LOG', title: t('密码操作日志', 'Password operations') },
      { index: 'operateCardLog', key: 'OPERATE_CARD_LOG', title: t('卡操作日志', 'Card operations') },
      { index: 'operateFpLog', key: 'OPERATE_FP_LOG', title: t('指纹操作日志', 'Fingerprint operations') },
    ] },
    { index: 'commandUpLog', key: 'COMMAND_UP_LOG', title: t('上报日志', 'Uplinks') },
    { index: 'commandDownLog', key: 'COMMAND_DOWN_LOG', title: t('下发日志', 'Downlinks') },
    { index: 'heartbeatLog', key: 'HEARTBEAT_LOG', title: t('心跳日志', 'Heartbeats') },
    { index: 'lockAlertLog', key: 'LOCK_ALERT_LOG', title: t('报警日志', 'Alarms'), subs: [
      { index: 'lockAlert', hidden: true, title: t('门锁警告', 'Lock alerts') },
    ] },
    { index: 'lockOpenRecordLog', key: 'LOCK_OPEN_RECORD_LOG', title: t('开锁日志', 'Unlock records') },
    { index: 'systemLog', key: 'SYSTEM_LOG', title: t('系统日志', 'System log') },
  ] },
  { index: 'renewTop', key: 'RENEWTOP', group: true, title: t('订单管理', 'Orders'), icon: 'shopping', subs: [
    { index: 'renew', key: 'RENEW', title: t('套餐', 'Packages'), actions: [
      { key: 'RENEW_PRODUCT_MANAGE', title: t('管理套餐', 'Manage packages') },
    ] },
    { index: 'orderManagement', key: 'ORDER_MANAGEMENT', title: t('订单管理', 'Orders') },
  ] },
  { index: 'userManagement', key: 'USER_MANAGEMENTTOP', group: true, status: 1, title: t('用户管理', 'Users'), icon: 'team', subs: [
    { index: 'loginAccount', key: 'LOGIN_ACCOUNT', title: t('登录账号', 'Login accounts'), actions: [
      { key: 'TENANT_SETTINGS', title: t('修改数据中心设置', 'Change the data-centre settings') },
    ] },
    { index: 'rolePermissions', key: 'ROLE_PERMISSIONS', title: t('角色权限', 'Roles') },
    { index: 'bindingRoles', key: 'BINDING_ROLES', title: t('绑定角色', 'Role bindings') },
  ] },
  { index: 'subscriptionManagement', key: 'SUBSCRIPTIONMANAGEMENT', title: t('订阅管理', 'Subscriptions'), icon: 'notification' },
] as const satisfies readonly PageNode[];

/** Every node of the tree, as a union type. */
type Flat<N> = N extends { readonly subs: readonly (infer C)[] } ? N | Flat<C> : N;
type TreeNode = Flat<(typeof PAGE_TREE)[number]>;
type ActionOf<N> = N extends { readonly actions: readonly (infer A)[] } ? A : never;

/** A screen's path: `/${index}` of every node that is not a group. */
export type PagePath = `/${Exclude<TreeNode, { readonly group: true }>['index']}`;
/** An authority key: a node's key or an in-page action's. */
export type Authority = Extract<TreeNode, { readonly key: string }>['key'] | ActionOf<TreeNode>['key'];

/** Every node depth first (parents before children); `inherited`: the nearest key above or on it. */
export function walkPages(visit: (node: PageNode, inherited: string | undefined) => void, nodes: readonly PageNode[] = PAGE_TREE, above?: string): void {
  for (const node of nodes) {
    const inherited = node.key ?? above;
    visit(node, inherited);
    walkPages(visit, node.subs ?? [], inherited);
  }
}
