/**
 * Issue #3 command outbox in a real browser against the started server and its simulated fleet (NB-IoT
 * locks, 2 s heartbeats): push a configuration from 门锁配置, watch its state tag in the lock's queue
 * until the lock has applied it (SUCCESSFUL), see the reported config, then find the command in
 * 下发日志 with the payload actually sent; and a clock sync.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, newPage, signInThroughUi, url } from './browser.js';

const IMEI = '861234500000001';

/** Raw states (data-state) of the tags in the open queue drawer's table, top row first. */
const drawerStates = (page: Page) => page.locator('.ant-drawer .ant-table-row [data-state]').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-state')));

describe.skipIf(!hasChromium)('command outbox in the console', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  it('pushes a config to a sleeping lock and follows the command to SUCCESSFUL; the log shows the payload sent', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    await page.goto(url('/lockConfig'));
    const row = page.locator('.ant-table-row').filter({ hasText: IMEI });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('NB 休眠');

    await row.getByRole('button', { name: '下发配置' }).click();
    await page.locator('#config-volume').fill('33');
    await page.locator('.ant-modal').getByRole('button', { name: '下 发' }).or(page.locator('.ant-modal').getByRole('button', { name: '下发' })).click();
    // The lock's queue opens: the config push is there and reaches SUCCESSFUL after the lock's next uplink.
    await expect.poll(() => page.locator('.ant-drawer .ant-table-row').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const seen = new Set<string | null>();
    await expect.poll(async () => {
      const states = await drawerStates(page);
      seen.add(states[0] ?? null);
      return states[0];
    }, { timeout: 20_000, interval: 200 }).toBe('SUCCESSFUL');
    expect([...seen].every((state) => ['QUEUED', 'SENT', 'DELIVERED', 'SUCCESSFUL'].includes(state as string))).toBe(true);
    expect(await page.locator('.ant-drawer').textContent()).toContain('配置下发');
    await page.locator('.ant-drawer-close').click();
    // The lock reported its new configuration.
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('音量 (%): 33');

    await page.goto(url('/commandDownLog'));
    const logRow = page.locator('.ant-table-row').filter({ hasText: IMEI }).filter({ hasText: '配置下发' }).first();
    await expect.poll(() => logRow.locator('[data-state]').getAttribute('data-state'), { timeout: 15_000 }).toBe('SUCCESSFUL');
    await logRow.getByRole('button', { name: '下发报文' }).click();
    const drawer = page.locator('.ant-drawer');
    await expect.poll(() => drawer.textContent(), { timeout: 10_000 }).toContain(`zg/${IMEI}/down`);
    expect(await drawer.textContent()).toContain('"volume": 33');
    await page.context().close();
  });

  it('syncs a lock\'s clock after confirmation', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    await page.goto(url('/lockConfig'));
    const row = page.locator('.ant-table-row').filter({ hasText: IMEI });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await row.getByRole('button', { name: '校时' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s?定/ }).click();
    await row.getByRole('button', { name: '指令队列' }).click();
    await expect.poll(async () => (await page.locator('.ant-drawer .ant-table-row').filter({ hasText: '校时' }).first()
      .locator('[data-state]').getAttribute('data-state')), { timeout: 20_000 }).toBe('SUCCESSFUL');
    await page.context().close();
  });
});
