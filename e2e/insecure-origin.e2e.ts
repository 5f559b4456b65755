/**
 * The console reached over plain HTTP on a LAN name (not
 * localhost) is not a secure context, so the browser has no WebCrypto; sign-in must still work (the
 * node-forge RSA-OAEP fallback) and the console must run under the server's Content-Security-Policy
 * without a single violation. Chromium maps console.test to 127.0.0.1 without leaving this machine.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hasChromium, launchBrowser, titleOf } from './browser.js';
import { E2E_ADMIN_PASSWORD } from './global-setup.js';

describe.skipIf(!hasChromium)('sign-in on an insecure origin', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(['--host-resolver-rules=MAP console.test 127.0.0.1']); });
  afterAll(() => browser?.close());

  it('signs in over http://console.test with the pure-JS RSA fallback, under the CSP', async () => {
    const origin = inject('baseUrl').replace('127.0.0.1', 'console.test');
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => { if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text()); });
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(request.url()));

    const answer = await page.goto(`${origin}/api/login`);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, subtle: typeof globalThis.crypto?.subtle }))).toEqual({ secure: false, subtle: 'undefined' });
    await page.fill('#username', 'admin');
    await page.fill('#password', E2E_ADMIN_PASSWORD);
    const before = loaded.length;
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/api/homepage', { timeout: 30_000 });
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(titleOf('/homepage'));
    await expect.poll(() => page.locator('.ant-statistic').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    // The RSA fallback (node-forge) arrived by dynamic import on submit, not with the login page.
    const scripts = loaded.slice(before).filter((u) => u.endsWith('.js'));
    const sources = await page.evaluate((urls) => Promise.all(urls.map(async (u) => (await fetch(u)).text())), scripts);
    expect(sources.some((source) => source.includes('RSA-OAEP') && source.includes('mgf1'))).toBe(true);
    expect(violations).toEqual([]);
    await context.close();
  });
});
