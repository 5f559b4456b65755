/**
 * Loading fast, in Chromium against the started server: the page and its scripts arrive
 * compressed (Brotli, or gzip for a client without it), hashed assets are cached for a year as
 * immutable, index.html is revalidated on every load, and a reload takes the scripts from the cache.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, newPage, url } from './browser.js';

describe.skipIf(!hasChromium)('loading the console', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  it('serves the page and its scripts compressed, assets immutable and index.html revalidated', async () => {
    const page = await newPage(browser);
    const scripts: { url: string; encoding?: string; cache?: string }[] = [];
    page.on('response', (response) => {
      if (!response.url().endsWith('.js')) return;
      const headers = response.headers();
      scripts.push({ url: response.url(), encoding: headers['content-encoding'], cache: headers['cache-control'] });
    });
    const document = await page.goto(url('/login'));
    expect(document?.headers()['content-encoding']).toBe('br');
    expect(document?.headers()['cache-control']).toBe('no-cache');
    await page.waitForSelector('#username');
    const assets = scripts.filter((script) => script.url.includes('/api/assets/'));
    // The entry and the `app` chunk (apps/web/vite.chunks.ts): the sign-in loads two scripts.
    expect(assets.length).toBeGreaterThanOrEqual(2);
    // Files under 1 KiB are not worth compressing; every larger script is.
    const sizes = await Promise.all(assets.map(async (script) => (await fetch(script.url)).headers.get('content-length')));
    assets.forEach((script, index) => {
      expect(script.cache, script.url).toBe('public, max-age=31536000, immutable');
      if (Number(sizes[index]) >= 1024) expect(script.encoding, script.url).toBe('br');
    });

    // Coming back revalidates only the document: the immutable scripts come from the browser's cache.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const scriptRequests = new Map<string, string>();
    const cachedRequests = new Set<string>();
    cdp.on('Network.requestWillBeSent', (event) => { if (event.request.url.endsWith('.js')) scriptRequests.set(event.requestId, event.request.url); });
    cdp.on('Network.requestServedFromCache', (event) => cachedRequests.add(event.requestId));
    cdp.on('Network.responseReceived', (event) => { if (event.response.fromDiskCache) cachedRequests.add(event.requestId); });
    await page.goto(url('/login'));
    await page.waitForSelector('#username');
    expect(scriptRequests.size).toBeGreaterThanOrEqual(2);
    expect([...scriptRequests].filter(([id]) => !cachedRequests.has(id)).map(([, script]) => script)).toEqual([]);
    await page.context().close();
  });

  it('answers gzip to a client without Brotli, and 404 for a missing asset', async () => {
    const home = await fetch(url('/login'), { headers: { 'accept-encoding': 'gzip' } });
    expect(home.headers.get('content-encoding')).toBe('gzip');
    const html = await home.text();
    const entry = /src="(\/api\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const script = await fetch(url((entry as string).replace(/^\/api/, '')), { headers: { 'accept-encoding': 'gzip' } });
    expect(script.headers.get('content-encoding')).toBe('gzip');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('vary')).toMatch(/accept-encoding/i);
    const missing = await fetch(url('/assets/missing-0000.js'));
    expect(missing.status).toBe(404);
  });
});
