/**
 * Debian Chromium driven by playwright-core (no browser download). Outside CI a machine without
 * /usr/bin/chromium skips the e2e tests with a warning; under CI it is an error.
 */
import { existsSync } from 'node:fs';
import { documentTitle, findRoute, PRODUCT_TITLE, TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { E2E_ADMIN_PASSWORD } from './global-setup.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
if (!hasChromium) console.warn('[e2e] Chromium not found: browser tests are skipped');

/** Launches headless Chromium with the flags this machine needs (plus `extraArgs`). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/** Absolute URL of a console path, e.g. url('/lockInfo') -> http://127.0.0.1:PORT/api/lockInfo. */
export const url = (path: string) => `${inject('baseUrl')}/api${path}`;

/** A fresh page (own context: own localStorage) of 1600 x 900. */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, locale: 'zh-CN' });
  return context.newPage();
}

/** Signs in through the login form and waits until the landing page is shown. */
export async function signInThroughUi(page: Page, username = 'admin', password = E2E_ADMIN_PASSWORD): Promise<void> {
  await page.goto(url('/login'));
  await page.fill('#username', username);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  // Past /login and past the root redirect, on a page that has drawn its title (a navigation made
  // earlier would be overridden by the redirect).
  await page.waitForURL((u) => !u.pathname.endsWith('/login') && findRoute(u.pathname.replace(/^\/api/, '')) !== undefined, { timeout: 60_000 });
  const expected = titleOf(new URL(page.url()).pathname.replace(/^\/api/, ''));
  await page.waitForFunction((title) => document.title === title, expected, { timeout: 30_000 });
}

/**
 * For a describe block: one browser and one page signed in as the administrator before its tests, the
 * browser closed after them. Read `.page` inside the tests (it is there once beforeAll has run).
 */
export function useSignedInPage(): { readonly page: Page } {
  let browser: Browser | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser);
    await signInThroughUi(page);
  });
  afterAll(() => browser?.close());
  return {
    get page() {
      if (!page) throw new Error('useSignedInPage: the page is there once beforeAll has run');
      return page;
    },
  };
}

/** The Chinese document title of a console path, from the contract's route table. */
export const titleOf = (path: string) => documentTitle(findRoute(path)?.title['zh-CN'] ?? '', PRODUCT_TITLE);

/** In-app navigation (no reload), as a menu click does; waits until the page shows its title. */
export async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/api${path}`);
  await page.waitForURL((u) => u.pathname === `/api${path}`);
  await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(titleOf(path));
}

/**
 * Chooses the option containing `option` in the antd Select whose input is `#inputId`, typing `search`
 * first when given; returns once the select shows the choice. A remote select re-renders its options
 * when its rows arrive, and a click landing during that re-render leaves the dropdown open with nothing
 * chosen (seen under CI load), and a click landing while the page re-renders may close the dropdown it
 * opened (its options never appeared in two CI runs), so both are checked and retried, up to 3 attempts.
 */
export async function chooseOption(page: Page, inputId: string, option: string, search?: string): Promise<void> {
  const input = page.locator(`#${inputId}`);
  const select = page.locator('.ant-select').filter({ has: input });
  const shows = async () => ((await select.first().textContent()) ?? '').includes(option);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    await input.click();
    if (search !== undefined) await input.fill(search);
    const item = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first();
    const appeared = await item.waitFor({ timeout: attempt === 3 ? 15_000 : 7_000 }).then(() => true, () => false);
    if (!appeared) {
      if (attempt === 3) throw new Error(`the option "${option}" of #${inputId} never appeared`);
      await page.keyboard.press('Escape');
      continue;
    }
    await page.waitForTimeout(150); // let the options settle after the rows arrive
    await item.click({ timeout: 5_000 }).catch(() => undefined);
    try {
      await expect.poll(shows, { timeout: 3_000, interval: 150 }).toBe(true);
      await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => undefined);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/** Table rows of the page, optionally only those containing `text`. */
export const rows = (page: Page, text?: string) =>
  text ? page.locator('.ant-table-row').filter({ hasText: text }) : page.locator('.ant-table-row');

/**
 * GET `path` of the API (e.g. /iot/v1/lockConfigList?keyword=...) from the page, with the session the
 * console stored (token and tenant in localStorage, as its own client sends them); resolves to the
 * envelope's `data`, rejects when the call fails. For tests that watch what the console would show.
 */
export async function apiGet<T>(page: Page, path: string): Promise<T> {
  return apiCall<T>(page, 'GET', path);
}

/** POST `body` to `path` of the API from the page, as apiGet does (e.g. the simulated keypad). */
export async function apiPost<T>(page: Page, path: string, body: object): Promise<T> {
  return apiCall<T>(page, 'POST', path, body);
}

async function apiCall<T>(page: Page, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const result = await page.evaluate(async ({ target, tokenHeader, tenantHeader, method, json }) => {
    const raw = localStorage.getItem('token') ?? '';
    let token = raw;
    try { token = (JSON.parse(raw) as { data: { access_token: string } }).data.access_token; } catch { /* stored bare */ }
    const headers: Record<string, string> = { [tokenHeader]: token, [tenantHeader]: localStorage.getItem('tenantId') ?? '100' };
    if (json !== undefined) headers['content-type'] = 'application/json';
    // A request the server shed (503 + Retry-After: nothing was done) is sent again, as the console does (api/shed.ts).
    let response = await fetch(target, { method, headers, body: json });
    for (let retry = 0; retry < 2 && response.status === 503 && response.headers.has('retry-after'); retry++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(Number(response.headers.get('retry-after')) || 5, 5) * 1000));
      response = await fetch(target, { method, headers, body: json });
    }
    const rotated = response.headers.get(tokenHeader);
    if (rotated) localStorage.setItem('token', JSON.stringify({ success: true, data: { access_token: rotated } }));
    return { status: response.status, body: (await response.json()) as { success?: boolean; data?: unknown } };
  }, { target: path, tokenHeader: TOKEN_HEADER, tenantHeader: TENANT_HEADER, method, json: body === undefined ? undefined : JSON.stringify(body) });
  if (!result.body.success) throw new Error(`${method} ${path}: HTTP ${result.status} ${JSON.stringify(result.body)}`);
  return result.body.data as T;
}
