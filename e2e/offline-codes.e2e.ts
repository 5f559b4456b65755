/**
 * Offline codes in a real browser against the started server and its simulated fleet: on 密码管理 an
 * operator issues a one-time offline code for the sleeping NB-IoT lock (no downlink: it need not wake),
 * sees it large with its validity, and the lock's keypad accepts it inside the window once, refuses it
 * the second time and before / after the window; the issued-codes drawer lists the recipient.
 * Lock: E2E_SLEEPING_IMEI (offline codes change nothing on it, so other files are unaffected).
 * Set E2E_SCREENSHOT_DIR to also save the dialog in both languages at 1366x768 and 1920x1080 (shots.ts).
 */
import { describe, expect, it } from 'vitest';
import { apiPost, chooseOption, goInApp, hasChromium, useSignedInPage } from './browser.js';
import { E2E_SLEEPING_IMEI } from './global-setup.js';
import { shootBothLanguages } from './shots.js';

const HOUR = 3_600_000;
const RECIPIENT = `E2E 访客 ${String(Date.now()).slice(-5)}`;
const shotDir = process.env.E2E_SCREENSHOT_DIR;

describe.skipIf(!hasChromium)('offline codes in the console', () => {
  const session = useSignedInPage();

  it('issues a one-time code for a sleeping lock; its keypad accepts it once within the window', async () => {
    const page = session.page;
    await goInApp(page, '/voucherPasswordManage');
    await page.locator('.offline-code-button').click();
    const modal = page.locator('.offline-code-modal');
    await chooseOption(page, 'offline-lock', E2E_SLEEPING_IMEI, E2E_SLEEPING_IMEI);
    // The current hour in the data centre's zone (Asia/Shanghai, UTC+8): the code opens from now on.
    const startMs = Math.floor(Date.now() / HOUR) * HOUR;
    const local = new Date(startMs + 8 * HOUR).toISOString();
    const start = page.locator('#offline-start');
    await start.click();
    await start.fill(`${local.slice(0, 10)} ${local.slice(11, 13)}:00`);
    await start.press('Enter');
    await page.locator('#offline-name').fill(RECIPIENT);
    await page.locator('#offline-mobile').fill('13800138000');
    const answered = page.waitForResponse((r) => r.url().includes('/iot/v1/offlineCode') && r.request().method() === 'POST');
    await modal.getByRole('button', { name: /生成密码/ }).click();
    const issued = (await (await answered).json()).data as { code: string; validFrom: string; validTo: string };
    expect(issued).toMatchObject({ code: expect.stringMatching(/^1\d{8}$/), validFrom: new Date(startMs).toISOString(), validTo: new Date(startMs + 6 * HOUR).toISOString() });
    await expect.poll(() => modal.locator('.offline-code-digits').textContent()).toContain(issued.code);
    expect(await modal.locator('.offline-code-validity').textContent()).toContain(`${local.slice(0, 10)} ${local.slice(11, 13)}:00`);

    // At the sleeping lock's keypad (its own clock set per attempt).
    const attempt = (at: number) => apiPost<{ success: boolean; reason: string | null }>(page, '/iot/v1/simulator/attemptOpen',
      { imei: E2E_SLEEPING_IMEI, method: 'password', password: issued.code, at: new Date(at).toISOString() });
    expect(await attempt(startMs - 60_000)).toMatchObject({ success: false, reason: 'unknown' });
    expect(await attempt(startMs + 5 * HOUR)).toMatchObject({ success: true, reason: null });
    expect(await attempt(startMs + 5 * HOUR + 60_000)).toMatchObject({ success: false, reason: 'used' });
    expect(await attempt(startMs + 6 * HOUR)).toMatchObject({ success: false, reason: 'unknown' });

    // The issued-codes drawer lists it (never the code).
    await modal.locator('.ant-modal-close').click();
    await modal.waitFor({ state: 'hidden' });
    await page.locator('.offline-code-list-button').click();
    const row = page.locator('.offline-code-list .ant-table-row').filter({ hasText: RECIPIENT });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.textContent()).not.toContain(issued.code);
    await page.locator('.offline-code-list .ant-drawer-close').click();
  }, 120_000);

  it('shows the dialog, an issued code and the list in both languages (screenshots only)', async () => {
    if (!shotDir) return;
    const page = session.page;
    await goInApp(page, '/voucherPasswordManage');
    const modal = page.locator('.offline-code-modal');
    const local = new Date(Math.floor(Date.now() / HOUR) * HOUR + 8 * HOUR).toISOString();
    let hours = 2;
    const fill = async () => {
      await page.locator('.offline-code-button').click();
      await chooseOption(page, 'offline-lock', E2E_SLEEPING_IMEI, E2E_SLEEPING_IMEI);
      await modal.locator('.ant-radio-wrapper').nth(1).click();
      const start = page.locator('#offline-start');
      await start.click();
      await start.fill(`${local.slice(0, 10)} ${local.slice(11, 13)}:00`);
      await start.press('Enter');
      await page.locator('#offline-hours').fill(String(hours++));
      await page.locator('#offline-name').fill('王小明');
      await page.locator('#offline-mobile').fill('13912345678');
    };
    const close = async () => {
      await modal.locator('.ant-modal-close').click();
      await modal.waitFor({ state: 'hidden' });
    };
    const issue = async () => {
      await fill();
      await modal.locator('.ant-modal-footer .ant-btn-primary').click();
      await modal.locator('.offline-code-digits').waitFor();
    };
    await shootBothLanguages(page, shotDir, 'offline-code-dialog', { en: /Passwords/, zh: /密码管理/, before: fill, after: close });
    await shootBothLanguages(page, shotDir, 'offline-code-issued', { en: /Passwords/, zh: /密码管理/, before: issue, after: close });
    const drawer = page.locator('.offline-code-list');
    await shootBothLanguages(page, shotDir, 'offline-code-list', { en: /Passwords/, zh: /密码管理/,
      before: async () => { await page.locator('.offline-code-list-button').click(); await drawer.locator('.ant-table-row').first().waitFor(); },
      after: async () => { await drawer.locator('.ant-drawer-close').click(); await drawer.locator('.ant-drawer-content').waitFor({ state: 'hidden' }); } });
  }, 240_000);
});
