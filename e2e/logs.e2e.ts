/**
 * The log pages in a real browser against the e2e server's simulated fleet (10 locks, 2 s
 * heartbeats, SIM_ACTIVITY=high): each page lists real simulator traffic; the heartbeat charts render;
 * the journal shows a timeline; an export downloads; a high-volume log opens on the last 7 days, which
 * the operator can clear.
 */
import { describe, expect, it } from 'vitest';
import { goInApp, hasChromium, rows, url, useSignedInPage } from './browser.js';

const KEYWORD = '861234500000002';

describe.skipIf(!hasChromium)('device log pages', () => {
  const signedIn = useSignedInPage();

  // First: the range is set when the page opens (an open tab keeps its table and its view).
  it('上报日志 opens on the last 7 days, shown in the time filter; clearing it lists all time, 重置 brings it back', async () => {
    const { page } = signedIn;
    await goInApp(page, '/commandUpLog');
    const startTime = () => new URL(page.url()).searchParams.get('startTime');
    await expect.poll(startTime, { timeout: 10_000 }).not.toBeNull();
    const days = (Date.now() - Date.parse(startTime() ?? '')) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    const start = page.locator('.table-filters .ant-picker-range input').first();
    await expect.poll(() => start.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await page.locator('.table-filters .ant-picker-range').hover();
    await page.locator('.table-filters .ant-picker-clear').click();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(startTime).toBeNull();
    await expect.poll(() => start.inputValue()).toBe('');
    await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: /重\s*置/ }).click();
    await expect.poll(startTime).not.toBeNull();
  });

  it('上报日志 opened again from the menu starts on the last 7 days; the back button returns to the all-time view', async () => {
    const { page } = signedIn;
    await goInApp(page, '/commandUpLog');
    const startTime = () => new URL(page.url()).searchParams.get('startTime');
    await expect.poll(startTime).not.toBeNull();
    await page.locator('.table-filters .ant-picker-range').hover();
    await page.locator('.table-filters .ant-picker-clear').click();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(startTime).toBeNull(); // all time, made by the table: kept
    await page.waitForTimeout(500);
    expect(startTime()).toBeNull();
    await page.getByRole('menuitem', { name: '上报日志' }).click(); // the page's own menu item: its bare path
    await expect.poll(startTime).not.toBeNull();
    const start = page.locator('.table-filters .ant-picker-range input').first();
    await expect.poll(() => start.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await page.goBack();
    await expect.poll(startTime).toBeNull();
    await expect.poll(() => start.inputValue()).toBe('');
  });

  // A slow machine (CI) paints the form before its effects run: a keyword typed at once must survive the opening range.
  it('开锁日志 keeps a keyword typed the moment the page opens, on a CPU slowed 6 times', async () => {
    const { page } = signedIn;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await page.goto(url('/lockOpenRecordLog'));
        await page.getByPlaceholder('IMEI / 名称 / 房间').fill(KEYWORD);
        await page.getByRole('button', { name: /查\s?询/ }).click();
        await expect.poll(() => new URL(page.url()).searchParams.get('keyword')).toBe(KEYWORD);
        expect(new URL(page.url()).searchParams.get('startTime')).not.toBeNull();
        expect(await page.getByPlaceholder('IMEI / 名称 / 房间').inputValue()).toBe(KEYWORD);
      }
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
  });

  it('上报日志 lists the fleet\'s uplinks and exports them as CSV', async () => {
    await goInApp(signedIn.page, '/commandUpLog');
    await expect.poll(() => rows(signedIn.page, '开锁记录').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await rows(signedIn.page, '配置上报').count() + (await rows(signedIn.page, '门状态').count())).toBeGreaterThan(0);
    const download = signedIn.page.waitForEvent('download');
    await signedIn.page.getByRole('button', { name: /导出 CSV/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^uplink-log-\d+\.csv$/);
  });

  it('开锁日志 shows unlock records as they arrive', async () => {
    await goInApp(signedIn.page, '/lockOpenRecordLog');
    await expect.poll(() => rows(signedIn.page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await signedIn.page.locator('.ant-table-tbody').textContent()).toMatch(/成功|失败/);
  });

  it('心跳日志 draws battery and signal charts of a lock and lists heartbeats, asking for no other lock\'s rows first', async () => {
    const asked: URL[] = [];
    const record = (request: { url(): string }) => {
      const address = new URL(request.url());
      if (address.pathname.endsWith('/logHeartbeat/list')) asked.push(address);
    };
    signedIn.page.on('request', record);
    try {
      // A full load: every attempt (retries too) starts without cached rows, as a first visit does.
      await signedIn.page.goto(url('/heartbeatLog'));
      await expect.poll(() => signedIn.page.locator('.heartbeat-chart canvas').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
      await expect.poll(() => rows(signedIn.page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await signedIn.page.locator('#lock-select').count()).toBe(1);
    } finally {
      signedIn.page.off('request', record);
    }
    // The page waits for its lock picker: the data centre's rows never show under the picked lock.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((address) => !address.searchParams.get('imei'))).toEqual([]);
  });

  it('报警日志 and 门锁警告 list the alarms the locks raise', async () => {
    await goInApp(signedIn.page, '/lockAlertLog');
    await expect.poll(() => rows(signedIn.page).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await goInApp(signedIn.page, '/lockAlert');
    await expect.poll(() => rows(signedIn.page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const first = await rows(signedIn.page).first().textContent();
    expect(first).toMatch(/紧急|重要|次要|提示/);
  });

  it('门锁日志 shows one lock\'s timeline', async () => {
    await goInApp(signedIn.page, '/lockJournal');
    await expect.poll(() => signedIn.page.locator('.lock-journal .ant-timeline-item').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // Several sources merged into one timeline; which ones fill the newest 500 entries depends on how
    // long the simulated fleet has been running (heartbeats are summarised per 5 minutes).
    const text = (await signedIn.page.locator('.lock-journal').textContent()) ?? '';
    expect(['心跳', '开锁', '告警', '上报'].filter((kind) => text.includes(kind)).length).toBeGreaterThanOrEqual(2);
  });
});
