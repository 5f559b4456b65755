/**
 * Wide lists at 1366 x 768 in both languages (columnFold.ts): before any horizontal scroll no column
 * is drawn half under the pinned 操作 column or past the table's edge, and the columns an operator
 * watches on 门锁信息 (在线状态, 最后心跳) are in sight; a body that scrolls takes keyboard focus.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, signInThroughUi, url } from './browser.js';

/** The wide lists of the e2e fleet: locks, downlinks, alerts, passwords, the system log. */
const LISTS = ['/lockInfo', '/commandDownLog', '/lockAlert', '/voucherPasswordManage', '/systemLog'];

/** Headers of the page's tables cut at scroll 0 by the pinned right column or the table's edge; and the headers in sight. */
function headers(page: Page) {
  return page.evaluate(() => {
    const cut: string[] = [];
    const seen: string[] = [];
    for (const table of Array.from(document.querySelectorAll('.ant-table-wrapper'))) {
      const heads = (Array.from(table.querySelectorAll('thead th.ant-table-cell')) as HTMLElement[]).filter((th) => th.offsetWidth > 0);
      const pinned = heads.find((th) => th.classList.contains('ant-table-cell-fix-end') || th.classList.contains('ant-table-cell-fix-right'));
      const edge = pinned?.getBoundingClientRect().left ?? (table.querySelector('.ant-table-container') as HTMLElement).getBoundingClientRect().right;
      for (const th of heads) {
        if (th === pinned) continue;
        const { left, right } = th.getBoundingClientRect();
        if (left < edge - 1 && right > edge + 1) cut.push(th.innerText.trim());
        if (right <= edge + 1) seen.push(th.innerText.trim());
      }
    }
    return { cut, seen };
  });
}

describe.skipIf(!hasChromium)('wide lists at 1366 px', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  for (const language of ['zh-CN', 'en-US'] as const) {
    it(`folds every wide list at a column's edge (${language})`, async () => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: language });
      const page = await context.newPage();
      await signInThroughUi(page);
      await page.evaluate((lng) => localStorage.setItem('language', lng), language);
      await page.reload();
      for (const path of LISTS) {
        await page.goto(url(path));
        await page.locator('.ant-table-row').first().waitFor({ timeout: 30_000 });
        // Columns settle after their measurements (the pinned buttons, the table's width, wrapped cells).
        await expect.poll(async () => (await headers(page)).cut, { timeout: 10_000 }).toEqual([]);
        // A body that scrolls sideways is reachable by keyboard (axe: scrollable-region-focusable).
        expect(await page.evaluate(() => Array.from(document.querySelectorAll('.ant-table-body, .ant-table-content'))
          .filter((body) => body.scrollWidth > body.clientWidth + 1).every((body) => (body as HTMLElement).tabIndex === 0))).toBe(true);
        if (path === '/lockInfo') {
          const { seen } = await headers(page);
          expect(seen.join('|')).toMatch(language === 'zh-CN' ? /在线状态.*最后心跳/ : /Status.*Last heartbeat/);
        }
      }
      await context.close();
    }, 120_000);
  }
});
