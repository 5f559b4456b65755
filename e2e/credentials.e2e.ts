/**
 * Credentials in a real browser against the started server and its simulated fleet (NB-IoT locks, 2 s
 * heartbeats): add a temporary password (validity window to the minute) in 密码管理, watch its sync
 * state go from adding to normal once the lock answers, open the simulated lock with it on the keypad,
 * find the open record in 开锁日志, delete the password and see the lock refuse it afterwards.
 * Set E2E_SCREENSHOT_DIR to also save 密码管理 in both languages.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, hasChromium, launchBrowser, newPage, signInThroughUi, url } from './browser.js';

const IMEI = '861234500000002';
const DIGITS = String(Date.now()).slice(-7);
const shotDir = process.env.E2E_SCREENSHOT_DIR;

/** Picks the lock IMEI in the searchable lock select `#id`. */
async function pickLock(page: Page, id: string) {
  await chooseOption(page, id, IMEI, IMEI);
}

/** Types `text` into a picker input and confirms it. */
async function typeDate(input: ReturnType<Page['locator']>, text: string) {
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

/** The keypad dialog: types DIGITS and returns the outcome (true: opened) and its text. */
async function tryKeypad(page: Page) {
  const modal = page.locator('.try-open-modal');
  await modal.locator('#try-digits').fill(DIGITS);
  await modal.getByRole('button', { name: '键盘试开' }).click();
  const outcome = modal.locator('.try-open-outcome');
  await outcome.waitFor({ timeout: 10_000 });
  const result = { success: (await outcome.getAttribute('data-success')) === 'true', text: (await outcome.textContent()) ?? '' };
  await modal.locator('.ant-modal-footer').getByRole('button', { name: /关\s?闭/ }).click();
  return result;
}

describe.skipIf(!hasChromium)('credentials in the console', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  it('adds a temporary password, follows it to normal, opens the lock with it, deletes it and the lock refuses it', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    await page.goto(url('/voucherPasswordManage'));
    await pickLock(page, 'credential-lock');
    await expect.poll(() => page.locator('.credential-capacity').textContent(), { timeout: 10_000 }).toContain('密码');

    // Add: temporary, valid from an hour ago to tomorrow (to the minute), with known digits.
    await page.getByRole('button', { name: /新增密码/ }).click();
    const modal = page.locator('.password-modal');
    await expect.poll(() => modal.locator('.ant-select-content, .ant-select-selection-item').first().textContent()).toContain(IMEI);
    const range = modal.locator('.ant-picker-range input');
    const minute = (offsetMs: number) => new Date(Date.now() + offsetMs - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    const validTo = minute(86_400_000);
    await typeDate(range.nth(0), minute(-3_600_000));
    await typeDate(range.nth(1), validTo);
    await modal.locator('#password-digits').fill(DIGITS);
    const added = page.waitForResponse((r) => r.url().includes('/iot/v1/zg/tempPassword') && r.request().method() === 'POST');
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    // The platform answers at once with the row in `adding`: the lock has not confirmed yet.
    expect((await (await added).json()).data.syncState).toBe('adding');

    // On screen: adding (when the lock is not quicker than the list), then normal after the lock's answer (live, no reload).
    // The row is this password's (its validity end): the demo week seeds temporary passwords on this lock too.
    const row = page.locator('.ant-table-row').filter({ hasText: IMEI }).filter({ hasText: '临时密码' }).filter({ hasText: validTo }).first();
    const seen = new Set<string | null>();
    await expect.poll(async () => {
      const state = await row.locator('[data-sync]').getAttribute('data-sync').catch(() => null);
      seen.add(state);
      return state;
    }, { timeout: 25_000, interval: 200 }).toBe('normal');
    expect([...seen].every((state) => state === null || state === 'adding' || state === 'normal')).toBe(true);
    expect(await row.textContent()).toContain('******');
    expect(await row.textContent()).not.toContain(DIGITS);
    if (shotDir) await screenshots(page, shotDir);

    // Open the simulated lock with it.
    await row.getByRole('button', { name: '键盘试开' }).click();
    const opened = await tryKeypad(page);
    expect(opened.success).toBe(true);
    const slot = /编号 (\d+)/.exec(opened.text)?.[1];
    expect(slot).toBeDefined();

    // The open record reaches 开锁日志.
    await page.goto(url('/lockOpenRecordLog'));
    // The simulated fleet is busy: narrow the log to this lock's password opens.
    await page.getByPlaceholder('IMEI / 名称 / 房间').fill(IMEI);
    await page.getByRole('button', { name: /查\s?询/ }).click();
    const record = page.locator('.ant-table-row').filter({ hasText: IMEI }).filter({ hasText: '密码' }).filter({ hasText: '成功' })
      .filter({ has: page.locator('td', { hasText: new RegExp(`^${slot}$`) }) });
    await expect.poll(() => record.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

    // Delete it; once the lock has removed it the row goes and the keypad refuses the digits.
    await page.goto(url('/voucherPasswordManage'));
    await pickLock(page, 'credential-lock');
    // This password's row: its slot and its validity end (other seeded temporary passwords may show the same number elsewhere).
    const again = page.locator('.ant-table-row').filter({ hasText: '临时密码' }).filter({ hasText: validTo })
      .filter({ has: page.locator('td', { hasText: new RegExp(`^${slot}$`) }) });
    await again.getByRole('button', { name: '删除' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s?定/ }).click();
    await expect.poll(() => again.count(), { timeout: 25_000, interval: 300 }).toBe(0);
    await page.locator('.credential-lock-bar').getByRole('button', { name: '键盘试开' }).click();
    const refused = await tryKeypad(page);
    expect(refused.success).toBe(false);
    await page.context().close();
  }, 60_000);

  it('adds a lock user, enrols a fingerprint remotely, offboards the person on every lock; the logs show it', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    const phone = `139${String(Date.now()).slice(-8)}`;
    await page.goto(url('/voucherUserManage'));
    await page.getByRole('button', { name: /新增用户/ }).click();
    const userModal = page.locator('.user-modal');
    await pickLock(page, 'user-lock');
    await userModal.locator('#user-name').fill('E2E 张三');
    await userModal.locator('#user-phone').fill(phone);
    await userModal.getByRole('button', { name: /确\s?定/ }).click();
    const userRow = page.locator('.ant-table-row').filter({ hasText: phone });
    await expect.poll(() => userRow.locator('[data-sync]').getAttribute('data-sync').catch(() => null), { timeout: 20_000 }).toBe('normal');

    await page.goto(url('/voucherFpManage'));
    await page.getByRole('button', { name: /远程录入/ }).click();
    const enrol = page.locator('.enrol-modal');
    await pickLock(page, 'fp-lock');
    await chooseOption(page, 'fp-user', phone);
    await enrol.locator('.ant-modal-footer').getByRole('button', { name: /远程录入/ }).click();
    await expect.poll(() => enrol.locator('.enrol-progress').getAttribute('data-sync').catch(() => null), { timeout: 25_000, interval: 300 }).toBe('normal');
    expect(await enrol.textContent()).toContain('录入成功');
    await enrol.locator('.ant-modal-footer').getByRole('button', { name: /关\s?闭/ }).click();

    await page.goto(url('/voucherUserManage'));
    await page.getByRole('button', { name: /人员离职/ }).click();
    const offboard = page.locator('.offboard-modal');
    await offboard.locator('#offboard-who').fill(phone);
    await offboard.getByRole('button', { name: /查找/ }).click();
    // The preview names what will be revoked before the confirmation.
    await expect.poll(() => offboard.locator('.offboard-preview').textContent(), { timeout: 15_000 }).toContain(IMEI);
    await offboard.getByRole('button', { name: /开始撤销/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s?定/ }).click();
    await expect.poll(() => offboard.locator('[data-done]').getAttribute('data-done').catch(() => null), { timeout: 30_000, interval: 300 }).toBe('true');
    expect(await offboard.textContent()).toContain(IMEI);
    if (shotDir) await page.screenshot({ path: `${shotDir}/credential-offboard-zh.png` });
    await offboard.locator('.ant-modal-footer').getByRole('button', { name: /关\s?闭/ }).click();

    await page.goto(url('/operateUserLog'));
    const logRows = page.locator('.ant-table-row').filter({ hasText: 'E2E 张三' });
    await expect.poll(async () => (await logRows.allTextContents()).join('\n'), { timeout: 15_000 }).toMatch(/添加[\s\S]*离职|离职[\s\S]*添加/);
    if (shotDir) await page.screenshot({ path: `${shotDir}/credential-user-log-zh.png` });
    await page.context().close();
  }, 90_000);
});

/** 密码管理 in zh-CN and en-US under `dir`. */
async function screenshots(page: Page, dir: string) {
  await page.locator('.password-modal').waitFor({ state: 'hidden' });
  await page.waitForTimeout(800); // the modal's closing animation and the toast
  await page.screenshot({ path: `${dir}/credential-passwords-zh.png` });
  const toggle = page.locator('.console-header-right').getByRole('button', { name: /English|中文/ });
  await toggle.click();
  await page.getByRole('button', { name: /Add password/ }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${dir}/credential-passwords-en.png` });
  await toggle.click();
  await page.getByRole('button', { name: /新增密码/ }).waitFor();
}
