/** Rules of the page tree and what derives from it: routes, menu, authorities (spec §2). */
import { describe, expect, it } from 'vitest';
import { ACTION_AUTHORITIES, AUTHORITIES } from './authorities.js';
import { firstPermittedPath, flattenMenu, MENU, visibleMenu } from './menu.js';
import { type PagePath, PAGE_TREE, walkPages } from './pages.js';
import { findRoute, LOGIN_ROUTE, ROUTES } from './routes.js';

/** Spec §2's screens (in its order) with the authority each needs; the last one is full screen. */
const SPEC_ROUTES: [string, string][] = [
  ['/homepage', 'HOME_PAGE'], ['/RoomInquiry', 'LOOK_INFO'], ['/lockAnalysis', 'HOME_PAGE'], ['/lockSurvey', 'LOOK_INFO'],
  ['/lockAlert', 'LOCK_ALERT_LOG'], ['/lockJournal', 'LOOK_INFO'], ['/airSwitchAnalysis', 'AIRSWITCH_RULE'], ['/equipmentType', 'LOOK_INFO'],
  ['/lockInfo', 'LOOK_INFO'], ['/lockConfig', 'LOOK_CONFIG'], ['/firmwareRule', 'FIRMWARE_RULE'], ['/voucherUserManage', 'VOUCHER_USER_MANAGE'],
  ['/voucherPasswordManage', 'VOUCHER_PASSWORD_MANAGE'], ['/voucherCardManage', 'VOUCHER_CARD_MANAGE'], ['/voucherFpManage', 'VOUCHER_FP_MANAGE'],
  // Schedules and holiday calendars under 凭证管理.
  ['/voucherScheduleManage', 'VOUCHER_SCHEDULE_MANAGE'], ['/holidayCalendar', 'HOLIDAY_CALENDAR'],
  ['/systemLog', 'SYSTEM_LOG'], ['/operateUserLog', 'OPERATE_USER_LOG'], ['/operatePasswordLog', 'OPERATE_PASSWORD_LOG'],
  ['/operateCardLog', 'OPERATE_CARD_LOG'], ['/operateFpLog', 'OPERATE_FP_LOG'], ['/commandUpLog', 'COMMAND_UP_LOG'],
  ['/commandDownLog', 'COMMAND_DOWN_LOG'], ['/heartbeatLog', 'HEARTBEAT_LOG'], ['/lockAlertLog', 'LOCK_ALERT_LOG'],
  ['/lockOpenRecordLog', 'LOCK_OPEN_RECORD_LOG'], ['/groupManagement', 'LOOK_INFO'], ['/Information', 'LOOK_INFO'], ['/renew', 'RENEW'],
  ['/orderManagement', 'ORDER_MANAGEMENT'], ['/subscriptionManagement', 'SUBSCRIPTIONMANAGEMENT'], ['/loginAccount', 'LOGIN_ACCOUNT'],
  ['/rolePermissions', 'ROLE_PERMISSIONS'], ['/bindingRoles', 'BINDING_ROLES'], ['/Datavisualization', 'HOME_PAGE'],
];

describe('page tree', () => {
  it('yields exactly the spec routes, each with its authority and frame', () => {
    const byPath = Object.fromEntries(ROUTES.map((route) => [route.path, route]));
    expect(Object.keys(byPath).sort()).toEqual(SPEC_ROUTES.map(([path]) => path).sort());
    for (const [path, authority] of SPEC_ROUTES) expect(byPath[path]?.authority, path).toBe(authority);
    expect(ROUTES.filter((route) => route.frame === 'bare').map((route) => route.path)).toEqual(['/Datavisualization']);
    expect(findRoute('/airSwitchAnalysis')?.title['zh-CN']).toBe('空开分析'); // the menu entry reads 空开管理
    expect(findRoute('/login')).toBe(LOGIN_ROUTE);
    expect(findRoute('/lockinfo')).toBeUndefined();
  });

  it('has unique indexes and keys, a key on every menu page, titles in both languages', () => {
    const indexes: string[] = [];
    const keys: string[] = [];
    walkPages((node, inherited) => {
      indexes.push(node.index);
      if (node.key) keys.push(node.key);
      for (const action of node.actions ?? []) keys.push(action.key);
      if (!node.group) expect(inherited, node.index).toBeDefined();
      if (node.group) expect(node.subs?.length, node.index).toBeGreaterThan(0);
      expect(node.title['zh-CN'] && node.title['en-US'], node.index).toBeTruthy();
    });
    expect(new Set(indexes).size).toBe(indexes.length);
    expect(new Set(keys).size).toBe(keys.length);
    for (const leaf of flattenMenu().filter((entry) => entry.subs.length === 0)) expect(leaf.key, leaf.index).toBeDefined();
  });

  it('derives the spec menu: indexes and keys depth first, hidden pages left out', () => {
    expect(flattenMenu().map((entry) => `${entry.index}:${entry.key ?? ''}`)).toEqual([
      'homepage:HOME_PAGE', 'lockRule:LOOK_RULE', 'lockManage:', 'lockInfo:LOOK_INFO', 'lockConfig:LOOK_CONFIG', 'firmwareRule:FIRMWARE_RULE',
      'airSwitchAnalysis:AIRSWITCH_RULE', 'voucherManage:VOUCHER_MANAGE', 'voucherUserManage:VOUCHER_USER_MANAGE',
      'voucherPasswordManage:VOUCHER_PASSWORD_MANAGE', 'voucherCardManage:VOUCHER_CARD_MANAGE', 'voucherFpManage:VOUCHER_FP_MANAGE',
      'voucherScheduleManage:VOUCHER_SCHEDULE_MANAGE', 'holidayCalendar:HOLIDAY_CALENDAR',
      'logManagement:LOG_MANAGEMENT', 'operateLog:', 'operateUserLog:OPERATE_USER_LOG', 'operatePasswordLog:OPERATE_PASSWORD_LOG',
      'operateCardLog:OPERATE_CARD_LOG', 'operateFpLog:OPERATE_FP_LOG', 'commandUpLog:COMMAND_UP_LOG', 'commandDownLog:COMMAND_DOWN_LOG',
      'heartbeatLog:HEARTBEAT_LOG', 'lockAlertLog:LOCK_ALERT_LOG', 'lockOpenRecordLog:LOCK_OPEN_RECORD_LOG', 'systemLog:SYSTEM_LOG',
      'renewTop:RENEWTOP', 'renew:RENEW', 'orderManagement:ORDER_MANAGEMENT', 'userManagement:USER_MANAGEMENTTOP',
      'loginAccount:LOGIN_ACCOUNT', 'rolePermissions:ROLE_PERMISSIONS', 'bindingRoles:BINDING_ROLES',
      'subscriptionManagement:SUBSCRIPTIONMANAGEMENT',
    ]);
    expect(MENU.filter((entry) => entry.status === 1).map((entry) => entry.index)).toEqual(['userManagement']);
  });

  it('derives the authorities: menu keys depth first, then the in-page actions', () => {
    const menuKeys = flattenMenu().flatMap((entry) => (entry.key ? [entry.key] : []));
    expect(AUTHORITIES).toEqual([...menuKeys, 'LOCK_REGISTRY', 'DEVICE_TYPE_EDIT', 'LOCK_GROUP_EDIT', 'LOCK_DRIFT_RESOLVE', 'LOCK_REMOTE_UNLOCK', 'LOCK_REMOTE_UNLOCK_APPROVE', 'FIRMWARE_PACKAGE_EDIT', 'FIRMWARE_ROLLOUT_RUN', 'VOUCHER_PASSWORD_REVEAL', 'LOCK_OFFLINE_CODE', 'RENEW_PRODUCT_MANAGE', 'TENANT_SETTINGS']);
    expect(ACTION_AUTHORITIES).toEqual([
      { key: 'LOCK_REGISTRY', page: 'LOOK_INFO', title: { 'zh-CN': '登记与停用门锁', 'en-US': 'Register and retire locks' } },
      { key: 'DEVICE_TYPE_EDIT', page: 'LOOK_INFO', title: { 'zh-CN': '维护设备类型', 'en-US': 'Edit device types' } },
      { key: 'LOCK_GROUP_EDIT', page: 'LOOK_INFO', title: { 'zh-CN': '维护分组', 'en-US': 'Edit groups' } },
      { key: 'LOCK_DRIFT_RESOLVE', page: 'LOOK_INFO', title: { 'zh-CN': '处理门锁凭证漂移', 'en-US': 'Resolve credential drift' } },
      { key: 'LOCK_REMOTE_UNLOCK', page: 'LOOK_INFO', title: { 'zh-CN': '远程开锁', 'en-US': 'Remote unlock' } },
      { key: 'LOCK_REMOTE_UNLOCK_APPROVE', page: 'LOOK_INFO', title: { 'zh-CN': '审批远程开锁与设置高安全门', 'en-US': 'Approve remote unlocks and set high-security doors' } },
      { key: 'FIRMWARE_PACKAGE_EDIT', page: 'FIRMWARE_RULE', title: { 'zh-CN': '上传与删除固件', 'en-US': 'Upload and delete firmware' } },
      { key: 'FIRMWARE_ROLLOUT_RUN', page: 'FIRMWARE_RULE', title: { 'zh-CN': '创建与控制升级任务', 'en-US': 'Create and control rollouts' } },
      { key: 'VOUCHER_PASSWORD_REVEAL', page: 'VOUCHER_PASSWORD_MANAGE', title: { 'zh-CN': '查看密码明文', 'en-US': 'Reveal passwords' } },
      { key: 'LOCK_OFFLINE_CODE', page: 'VOUCHER_PASSWORD_MANAGE', title: { 'zh-CN': '签发离线密码', 'en-US': 'Issue offline codes' } },
      { key: 'RENEW_PRODUCT_MANAGE', page: 'RENEW', title: { 'zh-CN': '管理套餐', 'en-US': 'Manage packages' } },
      { key: 'TENANT_SETTINGS', page: 'LOGIN_ACCOUNT', title: { 'zh-CN': '修改数据中心设置', 'en-US': 'Change the data-centre settings' } },
    ]);
  });

  it('types route paths: a misspelt path does not compile', () => {
    const ok: PagePath = '/lockInfo';
    // @ts-expect-error paths are case-sensitive and must name a screen of the tree
    const misspelt: PagePath = '/lockinfo';
    // @ts-expect-error a menu group has no screen
    const group: PagePath = '/lockRule';
    expect([ok, misspelt, group]).toHaveLength(3);
    expect(PAGE_TREE.length).toBe(MENU.length);
  });
});

describe('menu visibility (spec §2, §6)', () => {
  const indexes = (entries: ReturnType<typeof visibleMenu>) => flattenMenu(entries).map((entry) => entry.index);

  it('shows an administrator everything', () => {
    expect(indexes(visibleMenu(true, []))).toEqual(indexes([...MENU]));
  });

  it('shows a parent through a permitted child, with only its permitted children', () => {
    expect(indexes(visibleMenu(false, ['LOOK_CONFIG']))).toEqual(['lockRule', 'lockManage', 'lockConfig']);
  });

  it("does not open a group's children by the group's own key", () => {
    expect(indexes(visibleMenu(false, ['LOG_MANAGEMENT']))).toEqual(['logManagement']);
  });

  it('redirects to the first authority naming a page, else the first visible page', () => {
    expect(firstPermittedPath(false, ['LOOK_RULE', 'HEARTBEAT_LOG', 'LOOK_INFO'])).toBe('/heartbeatLog');
    expect(firstPermittedPath(false, ['VOUCHER_PASSWORD_REVEAL'])).toBeUndefined();
    expect(firstPermittedPath(true, [])).toBe('/homepage');
  });
});
