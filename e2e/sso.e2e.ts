/**
 * Single sign-on in a real browser against the real OpenID provider global-setup started
 * (oidc-provider). The administrator's rule mapping the provider's group to a role is added over HTTP
 * (its add dialog is the shared form machinery; the API tests cover the rule's checks). A new browser
 * clicks "使用 E2E IdP 登录" on the sign-in page, signs in on the provider's own login and consent pages
 * and comes back signed in to the console as the account created for it, whose sign-in history says
 * `sso`; a person of no mapped group is refused with the server's message; the administrator sees the
 * rule in 登录账号's 单点登录 tab, turns the data centre's password sign-in off there (confirmed; a new
 * browser's sign-in page then says so) and on again (always, so later files' operators sign in).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInOverHttp } from '../apps/server/integration/server-process.js';
import { apiGet, hasChromium, launchBrowser, newPage, signInThroughUi, url } from './browser.js';
import { E2E_ADMIN_PASSWORD, E2E_SSO_GROUP, E2E_SSO_LOGIN, E2E_SSO_NAME } from './global-setup.js';

const ROLE_NAME = `e2e-sso-${Date.now() % 1e6}`;

/** From the console's sign-in page through the provider's login and consent pages as `login`. */
async function signInWithProvider(page: Page, login: string) {
  await page.goto(url('/login'));
  await page.getByRole('button', { name: `使用 ${E2E_SSO_NAME} 登录` }).click({ timeout: 90_000 });
  await page.locator('input[name=login]').fill(login, { timeout: 90_000 });
  await page.locator('input[name=password]').fill('any');
  await page.locator('button[type=submit]').click();
  await page.locator('button[type=submit]', { hasText: 'Continue' }).click({ timeout: 90_000 }); // consent
}

describe.skipIf(!hasChromium)('single sign-on', () => {
  let browser: Browser;
  beforeAll(async () => {
    const base = inject('baseUrl');
    const token = await signInOverHttp(base, 'admin', E2E_ADMIN_PASSWORD);
    const post = async (path: string, body: object) => {
      const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', zw_paas_token: token, tenantId: '100' }, body: JSON.stringify(body) });
      const answer = await response.json();
      if (!answer.success) throw new Error(`${path}: ${JSON.stringify(answer)}`);
      return answer.data;
    };
    const role = await post('/v1/sysRole/add', { name: ROLE_NAME, description: '', authorities: ['LOOK_INFO'] });
    await post('/iot/v1/sso/rule', { claim: 'groups', value: E2E_SSO_GROUP, roleIds: [role.id] });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(() => browser?.close());

  it('signs in with the provider and lands in the console as the account made for the person', async () => {
    const person = await newPage(browser);
    await signInWithProvider(person, E2E_SSO_LOGIN);
    await person.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 90_000 });
    await expect.poll(() => person.locator('.console-username').first().textContent(), { timeout: 90_000 }).toContain(E2E_SSO_LOGIN);
    expect(person.url()).not.toContain('code=');
    const history = await apiGet<{ records: { method: string; result: string }[] }>(person, '/iot/v1/signIn/history');
    expect(history.records[0]).toMatchObject({ method: 'sso', result: 'success' });
    await person.context().close();
  }, 240_000);

  it('refuses a person no rule maps, saying why, and stays on the sign-in page', async () => {
    const stranger = await newPage(browser);
    await signInWithProvider(stranger, 'e2e-sso-stranger');
    await expect.poll(() => stranger.locator('.ant-message').textContent(), { timeout: 60_000 }).toContain('未被授权');
    expect(new URL(stranger.url()).pathname).toBe('/api/login');
    await stranger.context().close();
  }, 240_000);

  it('shows the rule in 登录账号\'s 单点登录 tab', async () => {
    const admin = await newPage(browser);
    await signInThroughUi(admin);
    await admin.goto(url('/loginAccount?tab=sso'));
    const row = admin.locator('.ant-table-row').filter({ hasText: E2E_SSO_GROUP });
    await expect.poll(() => row.textContent(), { timeout: 90_000 }).toContain(ROLE_NAME);
    await admin.context().close();
  }, 240_000);

  it('turns password sign-in off in that tab (confirmed), the sign-in page says so, and on again', async () => {
    const admin = await newPage(browser);
    await signInThroughUi(admin);
    await admin.goto(url('/loginAccount?tab=sso'));
    const toggle = admin.locator('#sso-password-sign-in');
    try {
      await toggle.click({ timeout: 90_000 });
      await admin.locator('.ant-popconfirm').getByRole('button', { name: '确 定' }).or(admin.locator('.ant-popconfirm').getByRole('button', { name: '确定' })).click();
      await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 60_000 }).toBe('false');
      const visitor = await newPage(browser);
      await visitor.goto(url('/api/login'));
      await expect.poll(() => visitor.locator('.login-notice').textContent(), { timeout: 60_000 }).toContain('停用密码登录');
      await visitor.context().close();
    } finally {
      if ((await toggle.getAttribute('aria-checked')) === 'false') await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-checked'), { timeout: 60_000 }).toBe('true');
      await admin.context().close();
    }
  }, 240_000);
});
