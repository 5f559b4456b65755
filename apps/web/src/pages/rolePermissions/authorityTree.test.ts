/** The role editor's tree <-> authority mapping (group keys follow their pages). */
import { describe, expect, it } from 'vitest';
import { authoritiesOf, authorityTree, checkedPages, reachOf } from './authorityTree';

describe('authority tree', () => {
  it('builds the menu with authority keys and structural keys for key-less sub-groups', () => {
    const tree = authorityTree('en-US');
    expect(tree[0]).toMatchObject({ key: 'HOME_PAGE', title: 'Home' });
    const devices = tree.find((node) => node.key === 'LOOK_RULE');
    expect(devices?.children?.[0]).toMatchObject({ key: 'menu:lockManage', title: 'Locks' });
    expect(authorityTree('zh-CN')[0]?.title).toBe('首页');
  });

  it('adds the key of every group with a checked page, never a structural key', () => {
    expect(authoritiesOf(['HOME_PAGE', 'HEARTBEAT_LOG'])).toEqual(['HOME_PAGE', 'LOG_MANAGEMENT', 'HEARTBEAT_LOG']);
    expect(authoritiesOf(['LOOK_INFO', 'menu:lockManage', 'LOOK_RULE'])).toEqual(['LOOK_RULE', 'LOOK_INFO']);
    expect(authoritiesOf(['OPERATE_FP_LOG'])).toEqual(['LOG_MANAGEMENT', 'OPERATE_FP_LOG']);
    expect(authoritiesOf([])).toEqual([]);
  });

  it('checks only pages when loading a role, so antd derives the groups', () => {
    expect(checkedPages(['LOG_MANAGEMENT', 'HEARTBEAT_LOG', 'HOME_PAGE'])).toEqual(['HOME_PAGE', 'HEARTBEAT_LOG']);
    expect(checkedPages(['LOOK_RULE'])).toEqual([]);
  });

  it('offers action authorities under their page, separately from the page itself', () => {
    const credentials = authorityTree('zh-CN').find((node) => node.key === 'VOUCHER_MANAGE');
    const passwords = credentials?.children?.find((node) => node.key === 'VOUCHER_PASSWORD_MANAGE');
    expect(passwords?.children).toEqual([
      { key: 'page:VOUCHER_PASSWORD_MANAGE', title: '密码管理' },
      { key: 'VOUCHER_PASSWORD_REVEAL', title: '查看密码明文' },
      { key: 'LOCK_OFFLINE_CODE', title: '签发离线密码' },
    ]);
    // The page without its action, the page with it, the action alone (grants no page nor group).
    expect(authoritiesOf(['page:VOUCHER_PASSWORD_MANAGE'])).toEqual(['VOUCHER_MANAGE', 'VOUCHER_PASSWORD_MANAGE']);
    expect(authoritiesOf(['page:VOUCHER_PASSWORD_MANAGE', 'VOUCHER_PASSWORD_REVEAL'])).toEqual(['VOUCHER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_PASSWORD_REVEAL']);
    expect(authoritiesOf(['VOUCHER_PASSWORD_REVEAL'])).toEqual(['VOUCHER_PASSWORD_REVEAL']);
    expect(checkedPages(['VOUCHER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_PASSWORD_REVEAL'])).toEqual(['page:VOUCHER_PASSWORD_MANAGE', 'VOUCHER_PASSWORD_REVEAL']);
    expect(checkedPages(['VOUCHER_CARD_MANAGE'])).toEqual(['VOUCHER_CARD_MANAGE']);
  });

  it('says what each key opens: its screens (hidden ones too), its changes and shared lookups', () => {
    const info = reachOf('LOOK_INFO');
    expect(info?.pages.map((page) => page['zh-CN'])).toEqual(expect.arrayContaining(['门锁信息', '门锁日志']));
    const users = reachOf('VOUCHER_USER_MANAGE');
    expect(users?.changes.map((change) => change['zh-CN'])).toContain('人员离职注销');
    expect(reachOf('HEARTBEAT_LOG')?.sharedReads).toBeGreaterThan(0); // the lock picker
    expect(reachOf('page:VOUCHER_PASSWORD_MANAGE')?.pages.map((page) => page['en-US'])).toEqual(['Passwords']);
    expect(reachOf('menu:lockManage')).toBeUndefined();
  });
});
