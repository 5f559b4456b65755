/**
 * Issue #3 log pages in a real browser against the e2e server's simulated fleet (10 locks, 2 s
 * heartbeats, SIM_ACTIVITY=high): each page lists real simulator traffic; the heartbeat charts render;
 * the journal shows a timeline; an export downloads.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, newPage, signInThroughUi, goInApp, rows } from './browser.js';

describe.skipIf(!hasChromium)('device log pages', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser);
    await signInThroughUi(page);
  });
  afterAll(() => browser?.close());

  it('上报日志 lists the fleet\'s uplinks and exports them as CSV', async () => {
    await goInApp(page, '/commandUpLog');
    await expect.poll(() => rows(page, '开锁记录').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await rows(page, '配置上报').count() + (await rows(page, '门状态').count())).toBeGreaterThan(0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /导出 CSV/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^uplink-log-\d+\.csv$/);
  });

  it('开锁日志 shows unlock records as they arrive', async () => {
    await goInApp(page, '/lockOpenRecordLog');
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.locator('.ant-table-tbody').textContent()).toMatch(/成功|失败/);
  });

  it('心跳日志 draws battery and signal charts of a lock and lists heartbeats', async () => {
    await goInApp(page, '/heartbeatLog');
    await expect.poll(() => page.locator('.heartbeat-chart canvas').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.locator('#lock-select').count()).toBe(1);
  });

  it('报警日志 and 门锁警告 list the alarms the locks raise', async () => {
    await goInApp(page, '/lockAlertLog');
    await expect.poll(() => rows(page).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await goInApp(page, '/lockAlert');
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const first = await rows(page).first().textContent();
    expect(first).toMatch(/紧急|重要|次要|提示/);
  });

  it('门锁日志 shows one lock\'s timeline', async () => {
    await goInApp(page, '/lockJournal');
    await expect.poll(() => page.locator('.lock-journal .ant-timeline-item').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // Several sources merged into one timeline; which ones fill the newest 500 entries depends on how
    // long the simulated fleet has been running (heartbeats are summarised per 5 minutes).
    const text = (await page.locator('.lock-journal').textContent()) ?? '';
    expect(['心跳', '开锁', '告警', '上报'].filter((kind) => text.includes(kind)).length).toBeGreaterThanOrEqual(2);
  });
});
