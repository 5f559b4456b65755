/**
 * Two-factor sign-in and step-up in a real browser: a new account enrols from the header's
 * username dialog (the test reads the typed key and computes the codes with @oslojs/otp, as an
 * authenticator app would), signs out, signs in with its password and a code, offboards a person in
 * 用户管理 and is asked for a fresh code in the step-up dialog before the offboarding goes through.
 * The administrator then sees 重置两步验证 on the account's row in 登录账号 and resets it.
 * A code is accepted once per 30-s step, so each use takes a step later than the last one, waiting
 * for the clock where needed. Set E2E_SCREENSHOT_DIR to also save the dialog and 登录账号 in both languages.
 */
import { publicEncrypt, constants } from 'node:crypto';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiGet, apiPost, hasChromium, launchBrowser, newPage, rows, url } from './browser.js';
import { E2E_ADMIN_PASSWORD, E2E_ONLINE_IMEI } from './global-setup.js';
import { shootBothLanguages } from './shots.js';

const STAMP = String(Date.now()).slice(-6);
const USERNAME = `e2e-stepup-${STAMP}`;
const PASSWORD = `e2e-stepup-password-${STAMP}`;
const PHONE = `138${String(Date.now()).slice(-8)}`;
const shotDir = process.env.E2E_SCREENSHOT_DIR;

const stepNow = () => Math.floor(Date.now() / 30_000);
const codeAt = (secret: string, step: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);

/**
 * A code the server accepts once `lastStep` was used: the step after it, or the current one, taken
 * only while it lies within the server's ±1 step of now (waits for the clock otherwise).
 */
async function freshCode(secret: string, lastStep: number): Promise<{ code: string; step: number }> {
  await expect.poll(stepNow, { timeout: 65_000, interval: 500 }).toBeGreaterThanOrEqual(lastStep);
  const step = Math.max(lastStep + 1, stepNow());
  return { code: codeAt(secret, step), step };
}

/** The password encrypted as the sign-in page does (RSA-OAEP-SHA-256 under /oauth/key). */
async function encryptedPassword(password: string) {
  const key = (await (await fetch(`${inject('baseUrl')}/oauth/key`)).json()).data as { publicKey: string; keyId: string };
  const cipher = publicEncrypt({ key: key.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password));
  return { password: cipher.toString('base64'), keyId: key.keyId };
}

/** signInThroughUi with the patience of a loaded machine: the console's first load after sign-in may take a minute. */
async function signInPatiently(page: Page, username: string, password: string) {
  await page.goto(url('/login'));
  await page.locator('#username').waitFor({ timeout: 90_000 });
  await page.fill('#username', username);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await page.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 90_000 });
  await page.locator('.console-username').waitFor({ timeout: 90_000 });
}

/** Signs in with the password and then the authenticator code; waits for the console. */
async function signInWithCode(page: Page, code: string) {
  await page.goto(url('/login'));
  await page.fill('#username', USERNAME);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.locator('#twoFactorCode').waitFor({ timeout: 30_000 });
  await page.fill('#twoFactorCode', code);
  await page.click('button[type=submit]');
  await page.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 90_000 });
  if (!page.url().endsWith('/voucherUserManage')) await page.goto(url('/voucherUserManage'));
  await page.getByRole('button', { name: /人员离职/ }).waitFor({ timeout: 90_000 });
}

/** Opens 人员离职, finds the person and confirms; the call then meets the step-up dialog. */
async function startOffboarding(page: Page) {
  await page.getByRole('button', { name: /人员离职|Offboard a person/ }).click();
  const offboard = page.locator('.offboard-modal');
  await offboard.locator('#offboard-who').fill(PHONE);
  await offboard.getByRole('button', { name: /查找此人|Find the person/ }).click();
  await expect.poll(() => offboard.locator('.offboard-preview').textContent(), { timeout: 20_000 }).toContain(E2E_ONLINE_IMEI);
  await offboard.getByRole('button', { name: /开始撤销|Revoke/ }).click();
  await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
  await page.locator('#step-up-code').waitFor({ timeout: 20_000 });
  // Really shown (playwright also fills a field at opacity 0): its opening animation has ended.
  const opacity = () => page.evaluate(() => {
    const modal = document.querySelector('#step-up-code')?.closest('.ant-modal');
    return modal ? getComputedStyle(modal).opacity : undefined;
  });
  await expect.poll(opacity, { timeout: 20_000, interval: 200 }).toBe('1');
}

describe.skipIf(!hasChromium)('two-factor sign-in and step-up in the console', () => {
  let browser: Browser;
  let admin: Page;
  let accountId: number;
  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newPage(browser);
    // The file's first page: a cold browser loads the whole bundle, slow on a loaded CI machine.
    await signInPatiently(admin, 'admin', E2E_ADMIN_PASSWORD);
    // An account of its own (the demo's accounts stay password-only for the other tests), and a person on the always-online lock.
    const roleId = (await apiPost<{ id: number }>(admin, '/v1/sysRole/add', { name: `e2e 人员离职 ${STAMP}`, description: '', authorities: ['VOUCHER_USER_MANAGE'] })).id;
    accountId = (await apiPost<{ id: number }>(admin, '/v1/account/add/user', { username: USERNAME, ...(await encryptedPassword(PASSWORD)), roleIds: [roleId] })).id;
    const locks = await apiGet<{ records: { id: number; imei: string }[] }>(admin, `/iot/v1/lockDevice/list?keyword=${E2E_ONLINE_IMEI}&size=5`);
    const lockId = locks.records.find((lock) => lock.imei === E2E_ONLINE_IMEI)?.id;
    await apiPost(admin, '/iot/v1/zg/userOperation', { action: 'add', lockId, name: `E2E 离职 ${STAMP}`, phone: PHONE });
  }, 180_000);
  afterAll(() => browser?.close());

  it('enrols from the username dialog, signs in with a code, and offboards a person after the step-up dialog', async () => {
    const page = await newPage(browser);
    await signInPatiently(page, USERNAME, PASSWORD);

    // Enrol: the dialog shows the QR code and the key; the first code turns it on and shows the recovery codes.
    await page.locator('.console-username').click();
    await page.getByRole('button', { name: /开始登记/ }).click();
    const secret = (await page.locator('[data-testid=two-factor-secret]').textContent({ timeout: 20_000 }))?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The code of the current step; on a loaded machine it may have gone stale before the server saw it: then the next one.
    let enrolled = stepNow();
    for (let attempt = 1; ; attempt++) {
      await page.fill('#two-factor-code', codeAt(secret, enrolled));
      await page.getByRole('button', { name: /^启\s?用$/ }).click();
      const shown = await page.locator('[data-testid=recovery-codes]').waitFor({ timeout: 30_000 }).then(() => true, () => false);
      if (shown) break;
      if (attempt === 3) throw new Error('enrolment was not confirmed');
      enrolled = Math.max(enrolled + 1, stepNow());
    }
    await page.getByRole('button', { name: /我已保存恢复码/ }).click();

    // Sign out, then in again with the password and the next code.
    await page.locator('.console-header-right').getByRole('button', { name: /退出登录|Sign out/ }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/login'), { timeout: 20_000 });
    const signedIn = await freshCode(secret, enrolled);
    await signInWithCode(page, signedIn.code);

    // Offboarding is a dangerous action: the dialog asks for a fresh code (cancel first, for the screenshots).
    if (shotDir) {
      await shootBothLanguages(page, shotDir, 'step-up-modal', {
        en: /Offboard a person/, zh: /人员离职/,
        before: () => startOffboarding(page),
        after: async () => {
          await page.locator('.ant-modal').filter({ has: page.locator('#step-up-code') }).locator('.ant-modal-footer .ant-btn').first().click();
          await page.locator('#step-up-code').waitFor({ state: 'hidden', timeout: 20_000 });
          await page.locator('.offboard-modal .ant-modal-close').click();
          await page.locator('.offboard-modal').waitFor({ state: 'hidden', timeout: 20_000 });
        },
      });
    }
    await startOffboarding(page);
    const stepUp = await freshCode(secret, signedIn.step);
    await page.fill('#step-up-code', stepUp.code);
    await page.locator('#step-up-confirm').click();
    await page.locator('#step-up-code').waitFor({ state: 'hidden', timeout: 20_000 });
    const offboard = page.locator('.offboard-modal');
    await expect.poll(() => offboard.locator('[data-done]').getAttribute('data-done').catch(() => null), { timeout: 60_000, interval: 500 }).toBe('true');
    expect(await offboard.textContent()).toContain(E2E_ONLINE_IMEI);
    await page.context().close();
  }, 240_000);

  it('登录账号 offers 重置两步验证 on the enrolled account only, and resets it', async () => {
    await admin.goto(url('/loginAccount'));
    const row = rows(admin, USERNAME);
    await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(1);
    expect(await rows(admin).filter({ hasText: /^admin/ }).getByRole('button', { name: '重置两步验证' }).count()).toBe(0);
    if (shotDir) await shootBothLanguages(admin, shotDir, 'login-account-reset', { en: /Login accounts/, zh: /登录账号/ });
    await row.getByRole('button', { name: '重置两步验证' }).click();
    await admin.locator('.ant-popconfirm:visible .ant-btn-primary').click();
    await expect.poll(() => row.getByRole('button', { name: '重置两步验证' }).count(), { timeout: 20_000 }).toBe(0);
    const status = await apiGet<{ records: { id: number; twoFactorEnabled: boolean }[] }>(admin, `/v1/account/queryAll?keyword=${USERNAME}&current=1&size=5`);
    expect(status.records.find((record) => record.id === accountId)?.twoFactorEnabled).toBe(false);
  }, 120_000);
});
