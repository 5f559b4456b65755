/**
 * Accounts, roles and bindings in a real browser: the administrator creates a role (首页 + 心跳日志) in 角色权限, an
 * account in 登录账号 and binds them in 绑定角色 (and is refused binding itself); the new account sees
 * exactly that menu and no data on a hidden page's URL; 系统日志 then lists every step.
 * Set E2E_SCREENSHOT_DIR to also save the role editor in both languages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, newPage, signInThroughUi, url, goInApp, rows } from './browser.js';

const suffix = Date.now().toString(36);
const roleName = `e2e-role-${suffix}`;
const username = `e2e_user_${suffix}`;
const password = `pw-${suffix}-secret`;
const shotDir = process.env.E2E_SCREENSHOT_DIR;

/** Waits until the open drawer's slide-in has finished: a click during it can land beside its target. */
async function drawerSettled(page: Page) {
  await page.locator('.role-drawer .ant-tree-title').first().waitFor();
  await page.locator('.ant-drawer-content-wrapper').evaluate((wrapper) => Promise.all(wrapper.getAnimations({ subtree: true }).map((animation) => animation.finished)));
}

/**
 * Checks the tree node titled exactly `title` and waits until it shows checked. On a loaded machine a
 * click can be lost (the tree re-rendering under it); it is repeated only while the node stays unchecked.
 */
async function checkTreeNode(page: Page, title: string) {
  const node = page.locator('.role-authority-tree .ant-tree-treenode', { has: page.locator('.ant-tree-title', { hasText: new RegExp(`^${title}$`) }) });
  const checked = node.locator('.ant-tree-checkbox-checked');
  for (let attempt = 0; attempt < 3 && (await checked.count()) === 0; attempt += 1) {
    await node.locator('.ant-tree-checkbox').click();
    await checked.waitFor({ timeout: 3_000 }).catch(() => undefined);
  }
  expect(await checked.count()).toBe(1);
}

/** Saves the role drawer (open) in zh-CN and en-US under E2E_SCREENSHOT_DIR. */
async function screenshotRoleDrawer(page: Page, dir: string) {
  await page.locator('.role-drawer .ant-tree-title').first().waitFor();
  await page.waitForTimeout(500); // the drawer's opening animation
  await page.screenshot({ path: `${dir}/role-drawer-zh.png` });
  await page.locator('.role-drawer').getByRole('button', { name: /取\s*消/ }).click();
  const toggle = page.locator('.console-header-right').getByRole('button', { name: /English|中文/ });
  await toggle.click();
  await page.getByRole('button', { name: /Add role/ }).click();
  await page.locator('.role-drawer .ant-tree-title', { hasText: 'Heartbeats' }).waitFor();
  await page.waitForTimeout(500); // the drawer's opening animation
  await page.screenshot({ path: `${dir}/role-drawer-en.png` });
  await page.locator('.role-drawer').getByRole('button', { name: 'Cancel' }).click();
  await toggle.click();
  await page.getByRole('button', { name: /新增角色/ }).click();
}

describe.skipIf(!hasChromium)('accounts, roles and the system log', () => {
  let browser: Browser;
  let admin: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newPage(browser);
    await signInThroughUi(admin);
    await admin.waitForURL(/homepage$/); // the root redirect done: in-app navigation cannot race it
  });
  afterAll(() => browser?.close());

  it('角色权限 creates a role from the menu tree; the group key follows its page', async () => {
    await goInApp(admin, '/rolePermissions');
    await admin.getByRole('button', { name: /新增角色/ }).click();
    if (shotDir) await screenshotRoleDrawer(admin, shotDir);
    await drawerSettled(admin);
    await admin.fill('#role-name', roleName);
    await admin.fill('#role-description', 'e2e');
    await checkTreeNode(admin, '首页');
    await checkTreeNode(admin, '心跳日志');
    if (shotDir) await admin.screenshot({ path: `${shotDir}/role-drawer-checked.png` });
    // 日志管理 is now half-checked: one page of the group.
    const logGroup = admin.locator('.role-authority-tree .ant-tree-treenode', { has: admin.locator('.ant-tree-title', { hasText: /^日志管理$/ }) });
    expect(await logGroup.locator('.ant-tree-checkbox-indeterminate').count()).toBe(1);
    await admin.locator('.role-drawer').getByRole('button', { name: /保\s*存/ }).click();
    // HOME_PAGE, LOG_MANAGEMENT, HEARTBEAT_LOG.
    await expect.poll(() => rows(admin, roleName).locator('td').nth(2).textContent(), { timeout: 15_000 }).toBe('3');
  });

  it('登录账号 adds an account with a validated, encrypted password', async () => {
    await goInApp(admin, '/loginAccount');
    await admin.getByRole('button', { name: /新增账号/ }).click();
    await admin.fill('#account-username', username);
    await admin.fill('#account-password', password);
    await admin.fill('#account-confirm', `${password}x`);
    await admin.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => admin.getByRole('dialog').textContent()).toContain('两次输入的密码不一致');
    await admin.fill('#account-confirm', password);
    await admin.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => rows(admin, username).count(), { timeout: 15_000 }).toBe(1);
    expect(await rows(admin, username).textContent()).toContain('操作员');
    if (shotDir) await admin.screenshot({ path: `${shotDir}/login-account.png` });
  });

  it('绑定角色 binds the role, and shows the refusal to bind oneself', async () => {
    await goInApp(admin, '/bindingRoles');
    const chooseAccount = async (name: string) => {
      await admin.locator('.binding-roles .ant-select').first().click();
      await admin.keyboard.type(name);
      await admin.locator('.ant-select-item-option', { hasText: new RegExp(`^${name}$`) }).click();
    };
    await chooseAccount('admin');
    await admin.locator('.ant-transfer').waitFor();
    await admin.getByRole('button', { name: /保\s*存/ }).click();
    // admin has no role bound: saving none asks first, then the server refuses binding oneself.
    await admin.locator('#binding-no-role-ok').click();
    await expect.poll(() => admin.locator('.ant-alert-error').textContent()).toContain('不能对自己的账号执行此操作');
    expect(new URL(admin.url()).pathname).toBe('/api/bindingRoles'); // a refusal keeps the session
    await chooseAccount(username);
    await admin.locator('.ant-transfer-section').first().locator('.ant-transfer-list-content-item', { hasText: roleName }).click();
    await admin.locator('.ant-transfer-actions button').first().click();
    await expect.poll(() => admin.locator('.ant-transfer-section').last().textContent()).toContain(roleName);
    await admin.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => admin.locator('.ant-message').textContent()).toContain('角色已绑定');
    if (shotDir) await admin.screenshot({ path: `${shotDir}/binding-roles.png` });
  });

  it('the new account sees exactly the bound menu and no data on a hidden page', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page, username, password);
    await page.waitForURL(/homepage$/);
    const top = page.locator('.ant-layout-sider .ant-menu-root > li');
    await expect.poll(() => top.allTextContents()).toEqual(['首页', '日志管理']);
    await page.locator('.ant-menu-submenu-title', { hasText: '日志管理' }).click();
    await expect.poll(() => page.locator('.ant-layout-sider .ant-menu-sub .ant-menu-item').allTextContents()).toEqual(['心跳日志']);
    await page.goto(url('/systemLog'));
    await expect.poll(() => page.locator('.ant-result').textContent(), { timeout: 15_000 }).toMatch(/403/);
    expect(await rows(page).count()).toBe(0);
    await page.context().close();
  });

  it('系统日志 lists the role, account and binding changes and the new sign-in, and exports CSV', async () => {
    await goInApp(admin, '/systemLog');
    const table = admin.locator('.ant-table-tbody');
    await expect.poll(() => rows(admin, username).filter({ hasText: '登录' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const text = await table.textContent();
    for (const action of ['POST /v1/sysRole/add', 'POST /v1/account/add/user', 'POST /v1/sysUserRole/bind']) expect(text).toContain(action);
    expect(await rows(admin, 'POST /v1/sysUserRole/bind').filter({ hasText: 'SELF_ACTION' }).count()).toBe(1);
    expect(await rows(admin, roleName).filter({ hasText: 'POST /v1/sysRole/add' }).filter({ hasText: '成功' }).count()).toBe(1);
    // Keyword filter: only rows naming this run's suffix.
    await admin.fill('#system-log-keyword', suffix);
    await admin.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(async () => (await rows(admin).allTextContents()).every((row) => row.includes(suffix)), { timeout: 15_000 }).toBe(true);
    expect(await rows(admin).count()).toBeGreaterThanOrEqual(3);
    if (shotDir) await admin.screenshot({ path: `${shotDir}/system-log.png` });
    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: /导出 CSV/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^system-log-\d+\.csv$/);
  });
});
