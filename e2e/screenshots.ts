/**
 * `npm run screenshots`: every console page (the contract's route table, plus /login) at 1366x768 and
 * 1920x1080, in Chinese and English, as PNG files in SCREENSHOT_DIR (default /tmp/iot-screenshots),
 * named `<route>-<lang>-<width>.png`. Starts its own server on the current web build (`npm run build`
 * first) with a small simulated fleet that has run for ~40 s, signs in as the demo administrator and
 * opens each page fresh (a full load, as a bookmark does). 固件管理 and 设备信息 get firmware data first
 * (screenshot-firmware.ts): 固件管理 is taken twice, as it opens and with the finished rollout's view
 * (`firmwareRule-rollout-…`), and 设备信息 without a query shows a lock of that rollout, scrolled to its OTA history. Not a test: look
 * at the pictures.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOGIN_ROUTE, ROUTES } from '@iot/contract';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './browser.js';
import { freePort, startServer } from '../apps/server/integration/server-process.js';
import { seedFirmware } from './screenshot-firmware.js';

const outDir = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'iot-screenshots');
// Optional route paths, e.g. /heartbeatLog, with a query string when the page needs one: '/Information?imei=861234500000001'.
const only = process.argv.slice(2);
const withQuery = (path: string) => only.find((arg) => arg.split('?')[0] === path) ?? path;
const sizes = [{ width: 1366, height: 768 }, { width: 1920, height: 1080 }];
const languages = ['zh-CN', 'en-US'] as const;
const password = 'screenshots-admin-password';
mkdirSync(outDir, { recursive: true });

const dataDir = mkdtempSync(join(tmpdir(), 'iot-screenshots-data-'));
const port = await freePort();
const server = await startServer({ PORT: String(port), DATA_DIR: dataDir, MQTT_PORT: '0', SIM_LOCKS: '12', SIM_HEARTBEAT_S: '3',
    SIM_ACTIVITY: 'high', SIM_OUTAGES: 'off', ADMIN_PASSWORD: password, LOG_LEVEL: 'warn', DEMO: 'on' }, 120_000);
const base = `http://127.0.0.1:${port}/api`;
console.log(`server on ${base}; letting the simulated fleet fill the logs for 40 s...`);
await new Promise((resolve) => setTimeout(resolve, 40_000));

const browser = await chromium.launch({ executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
let count = 0;
try {
  let paths = [LOGIN_ROUTE.path, ...ROUTES.map((route) => route.path)]
    .filter((path) => only.length === 0 || only.some((arg) => arg.split('?')[0] === path)).map(withQuery);
  if (paths.includes('/firmwareRule') || paths.includes('/Information')) {
    const firmware = await seedFirmware(`http://127.0.0.1:${port}`, password);
    paths = paths.flatMap((path) => (path === '/firmwareRule' ? [path, `${path}?rollout=${firmware.rolloutId}`]
      : path === '/Information' ? [`${path}?imei=${firmware.imei}`] : [path]));
  }
  for (const language of languages) {
    for (const size of sizes) {
      const context = await browser.newContext({ viewport: size, locale: language });
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.evaluate((lng) => localStorage.setItem('language', lng), language);
      for (const path of paths) {
        if (path !== LOGIN_ROUTE.path && !(await page.evaluate(() => localStorage.getItem('username')))) {
          await page.goto(`${base}/login`);
          await page.fill('#username', 'admin');
          await page.fill('#password', password);
          await page.click('button[type=submit]');
          await page.waitForURL((u) => !u.pathname.endsWith('/login'), { timeout: 30_000 });
        }
        await page.goto(`${base}${path}`);
        await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
        // Until the page has drawn: no spinner, no loading overlay, no skeleton (a loaded machine is slow).
        await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning, .loading-overlay, .ant-spin-fullscreen-show, [aria-busy="true"], .skeleton-rows'), undefined, { timeout: 20_000 })
          .catch(() => undefined);
        await page.waitForTimeout(1500); // charts animate, tables settle
        // 设备信息's OTA history lies below the fold: scroll it into the picture.
        if (path.startsWith('/Information')) await page.locator('.information-ota').scrollIntoViewIfNeeded({ timeout: 5000 }).catch(() => undefined);
        const view = path.includes('rollout=') ? '-rollout' : '';
        const file = join(outDir, `${path.slice(1).split('?')[0] || 'root'}${view}-${language}-${size.width}.png`);
        await page.screenshot({ path: file });
        count++;
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop(5_000);
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`${count} screenshots in ${outDir}`);
