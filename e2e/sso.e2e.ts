/**
 * Single sign-on (issue #28) in a real browser against the real OpenID provider global-setup started
 * (oidc-provider): the administrator maps the provider's group to a role in 登录账号's 单点登录 tab;
 * a new browser clicks "使用 E2E IdP 登录" on the sign-in page, signs in on the provider's own login
 * and consent pages, comes back signed in to the console as the account created for it, whose sign-in
 * history says `sso`; a person of no mapped group is refused with the server's message.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, hasChromium, launchBrowser, newPage, signInThroughUi, url } from './browser.js';
import { E2E_SSO_GROUP, E2E_SSO_LOGIN, E2E_SSO_NAME } from './global-setup.js';

/** From the console's sign-in page through the provider's login and consent pages as `login`. */
async function signInWithProvider(page: Page, login: string) {
  await page.goto(url('/login'));
  await page.getByRole('button', { name: `使用 ${E2E_SSO_NAME} 登录` }).click({ timeout: 90_000 });
  await page.locator('input[name=login]').fill(login, { timeout: 30_000 });
  await page.locator('input[name=password]').fill('any');
  await page.locator('button[type=submit]').click();
  await page.locator('button[type=submit]', { hasText: 'Continue' }).click({ timeout: 30_000 }); // consent
}

describe.skipIf(!hasChromium)('single sign-on', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('maps the provider\'s group to a role, then signs in with the provider and lands in the console', async () => {
    const admin = await newPage(browser);
    await signInThroughUi(admin);
    const roleName = `e2e-sso-${Date.now() % 1e6}`;
    await apiPost(admin, '/v1/sysRole/add', { name: roleName, description: '', authorities: ['LOOK_INFO'] });
    await admin.goto(url('/loginAccount?tab=sso'));
    await admin.getByRole('button', { name: /添加规则/ }).click({ timeout: 60_000 });
    await admin.fill('#sso-rule-value', E2E_SSO_GROUP);
    await admin.locator('#sso-rule-roles').click();
    await admin.keyboard.type(roleName);
    await admin.locator('.ant-select-item-option', { hasText: roleName }).click({ timeout: 15_000 });
    await admin.locator('.ant-modal-title').click(); // closes the multiple select's list
    await admin.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => admin.locator('.ant-table-row').filter({ hasText: E2E_SSO_GROUP }).count(), { timeout: 15_000 }).toBe(1);

    const person = await newPage(browser);
    await signInWithProvider(person, E2E_SSO_LOGIN);
    await person.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 90_000 });
    await expect.poll(() => person.locator('.console-username').textContent(), { timeout: 90_000 }).toContain(E2E_SSO_LOGIN);
    expect(person.url()).not.toContain('code=');
    const history = await apiGet<{ records: { method: string; result: string }[] }>(person, '/iot/v1/signIn/history');
    expect(history.records[0]).toMatchObject({ method: 'sso', result: 'success' });
  });

  it('refuses a person no rule maps, saying why, and stays on the sign-in page', async () => {
    const stranger = await newPage(browser);
    await signInWithProvider(stranger, 'e2e-sso-stranger');
    await expect.poll(() => stranger.locator('.ant-message').textContent(), { timeout: 60_000 }).toContain('未被授权');
    expect(new URL(stranger.url()).pathname).toBe('/api/login');
  });
});
