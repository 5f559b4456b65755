/**
 * No dead ends, in a real browser against the started server: a server refusal shown as the server said it,
 * on the field it names; saving an account with no role warns first, and that account then sees a page
 * saying it has no page, with sign-out; nine fast menu clicks keep every tab (at most 8); logs newest
 * first with the sort shown; the home figures equal the lists they link to.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, chooseOption, goInApp, hasChromium, launchBrowser, newPage, rows, signInThroughUi, url, useSignedInPage } from './browser.js';
import { E2E_OPERATOR_PASSWORD } from './global-setup.js';

const tabTitles = (page: Page) => page.locator('.tab-strip').getByRole('tab').allTextContents();

describe.skipIf(!hasChromium)('errors that say what is wrong, no dead ends, order and numbers', () => {
  const session = useSignedInPage();

  it("shows the server's message for a duplicate IMEI and marks the IMEI field with it", async () => {
    const { page } = session;
    const imei = imeiWithCheckDigit('86123459999924');
    await apiPost(page, '/iot/v1/lockDevice', { imei, name: '已登记', model: 'ZG-NB100' });
    await goInApp(page, '/lockInfo');
    await page.getByRole('button', { name: /登记门锁/ }).click();
    await page.fill('#lock-imei', imei); // registered just now: the server refuses it
    await page.fill('#lock-name', '重复登记');
    await chooseOption(page, 'lock-model', 'ZG-NB100');
    await page.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }).click();
    const said = '该 IMEI 已登记，不能重复登记';
    await expect.poll(() => page.locator('.ant-message').textContent(), { timeout: 15_000 }).toContain(said);
    const field = page.locator('.ant-form-item').filter({ has: page.locator('#lock-imei') });
    await expect.poll(() => field.locator('.ant-form-item-explain-error').textContent(), { timeout: 10_000 }).toBe(said);
    expect(await page.locator('.ant-message').textContent()).not.toContain('数据冲突');
    await page.keyboard.press('Escape');
  });

  it('keeps a tab for each of nine menu clicks 0.2-1 s apart (the last eight)', async () => {
    const { page } = session;
    await goInApp(page, '/homepage');
    await page.evaluate(() => sessionStorage.removeItem('tabs'));
    await page.reload();
    await expect.poll(() => tabTitles(page), { timeout: 20_000 }).toEqual(['首页']);
    const gaps = [200, 600, 250, 1000, 300, 450, 200, 800, 350];
    const clicks: [string, string][] = [
      ['日志管理', '上报日志'], ['日志管理', '下发日志'], ['日志管理', '心跳日志'], ['日志管理', '报警日志'], ['日志管理', '开锁日志'],
      ['日志管理', '系统日志'], ['凭证管理', '用户管理'], ['凭证管理', '密码管理'], ['凭证管理', '卡片管理'],
    ];
    const sider = page.locator('.ant-layout-sider');
    for (const [index, [group, item]] of clicks.entries()) {
      const entry = sider.locator('.ant-menu-item').filter({ hasText: new RegExp(`^${item}$`) });
      if (!(await entry.isVisible())) await sider.locator('.ant-menu-submenu-title').filter({ hasText: group }).click();
      await entry.click();
      await page.waitForTimeout(gaps[index] as number);
    }
    // Home plus nine pages: the oldest two dropped, the other eight kept in order.
    await expect.poll(() => tabTitles(page), { timeout: 15_000 }).toEqual(['下发日志', '心跳日志', '报警日志', '开锁日志', '系统日志', '用户管理', '密码管理', '卡片管理']);
    await page.waitForURL(/voucherCardManage$/);
  });

  it('lists the system log and an operation log newest first, with the sort shown on the time column', async () => {
    const { page } = session;
    for (const [path, title] of [['/systemLog', '时间'], ['/operatePasswordLog', '操作时间']] as const) {
      await goInApp(page, path);
      await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBeGreaterThan(2);
      const header = page.locator('.ant-table-thead th').filter({ hasText: title }).first();
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      const column = (await page.locator('.ant-table-thead th').allTextContents()).findIndex((text) => text.includes(title));
      const times = await rows(page).locator(`td:nth-child(${column + 1})`).allTextContents();
      expect(times.length).toBeGreaterThan(2);
      expect([...times].sort().reverse()).toEqual(times);
    }
  });

  it('shows home figures equal to the lists they link to', async () => {
    const { page } = session;
    for (const kpi of ['total', 'online']) {
      await goInApp(page, '/homepage');
      const card = page.locator(`[data-kpi="${kpi}"]`);
      await card.waitFor({ timeout: 20_000 });
      const figure = Number((await card.locator('.ant-statistic-content-value').textContent())?.replace(/\D/g, ''));
      await card.click();
      await page.waitForURL(/lockInfo/);
      // The list counts live; the figure is at most a few seconds old: equal once both have settled.
      await expect.poll(async () => Number((await page.locator('.ant-pagination-total-text').textContent())?.replace(/\D/g, '')), { timeout: 20_000 })
        .toBe(figure);
    }
  });
});

describe.skipIf(!hasChromium)('an account with no role', () => {
  let browser: Browser;
  let admin: Page;
  let operatorId: number;
  let bound: number[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newPage(browser);
    await signInThroughUi(admin);
    const accounts = await apiGet<{ records: { id: number; username: string }[] }>(admin, '/v1/account/queryAll?current=1&size=10&keyword=operator');
    operatorId = accounts.records.find((account) => account.username === 'operator')?.id as number;
    bound = (await apiGet<{ bound: { id: number }[] }>(admin, `/v1/account/queryRoles?accountId=${operatorId}`)).bound.map((role) => role.id);
  });
  afterAll(async () => {
    if (admin) await apiPost(admin, '/v1/sysUserRole/bind', { accountId: operatorId, roleIds: bound }).catch(() => undefined);
    await browser?.close();
  });

  it('is saved only after a warning, then signs in to a page that says it has no page and offers sign-out', async () => {
    // A fresh load: a retry must not start under a dialog the failed attempt left open (CI, stop 48).
    await admin.goto(url('/bindingRoles'));
    await chooseOption(admin, 'binding-account', 'operator', 'operator');
    const boundList = admin.locator('.ant-transfer-section').nth(1);
    await expect.poll(() => boundList.locator('.ant-transfer-list-content-item').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // Move every bound role back to "available".
    await boundList.locator('.ant-transfer-list-header .ant-checkbox-input').check();
    await admin.locator('.ant-transfer button.ant-btn-icon-only:not([disabled])').click();
    await admin.locator('#binding-save').click();
    const warning = admin.locator('.ant-modal-confirm');
    await expect.poll(() => warning.textContent(), { timeout: 10_000 }).toContain('operator');
    await admin.locator('#binding-no-role-ok').click();
    await expect.poll(async () => (await apiGet<{ bound: unknown[] }>(admin, `/v1/account/queryRoles?accountId=${operatorId}`)).bound.length).toBe(0)
      .catch(async (error: unknown) => {
        // Once seen in CI: the role stayed bound and a dialog stayed open. Say which, for the next run's reader.
        const shown = async (selector: string) => JSON.stringify(await admin.locator(selector).allTextContents());
        console.error(`[no-dead-ends] dialogs ${await shown('.ant-modal:visible')}, alerts ${await shown('.ant-alert')}, toasts ${await shown('.ant-message-notice')}`);
        throw error;
      });

    const operator = await newPage(browser);
    await operator.goto(url('/login'));
    await operator.fill('#username', 'operator');
    await operator.fill('#password', E2E_OPERATOR_PASSWORD);
    await operator.click('button[type=submit]');
    const page = operator.locator('.no-page');
    await page.waitFor({ timeout: 20_000 });
    expect(await page.textContent()).toContain('您的账号还没有可以打开的页面');
    // Inside the console frame: header (data centre, sign-out) present; no loop back to itself.
    expect(await operator.locator('.console-header').count()).toBe(1);
    await operator.locator('#no-page-sign-out').click();
    await operator.waitForURL(/\/api\/login$/, { timeout: 15_000 });
    await operator.context().close();
  });
});
