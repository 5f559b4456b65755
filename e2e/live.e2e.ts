/**
 * The live console in a real browser against the started server and its simulated fleet:
 * the header's dot says the stream is live; a page whose data no event changes makes no request
 * while it is (polling only stands in for a stream that is down); an alarm raised by a simulated lock
 * (five wrong passwords on its keypad: the platform's bruteForce alarm) shows in 门锁警告 without a
 * reload, after the stream carried it; a temporary password goes 添加中 -> 正常 on screen after the
 * stream carried its credential.sync. The stream's messages are read from the browser itself (CDP
 * Network.eventSourceMessageReceived). No wall-clock assertion: conditions are polled with generous
 * deadlines.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, chooseOption, hasChromium, launchBrowser, newPage, signInThroughUi, url } from './browser.js';

const ALARM_IMEI = '861234500000006';
// Data centre 100, and not the lock credentials.e2e.ts fills with temporary passwords (861234500000002).
const PASSWORD_IMEI = ALARM_IMEI;

interface StreamMessage { event: string; data: Record<string, unknown> }

/** Records every message the page's EventSource receives. */
async function recordStream(page: Page): Promise<{ messages: StreamMessage[]; session: CDPSession }> {
  const session = await page.context().newCDPSession(page);
  const messages: StreamMessage[] = [];
  session.on('Network.eventSourceMessageReceived', (event) => {
    try {
      messages.push({ event: event.eventName, data: JSON.parse(event.data) });
    } catch {
      /* not JSON: not ours */
    }
  });
  await session.send('Network.enable');
  return { messages, session };
}

/** Waits until the header's dot says live. */
const live = (page: Page) => page.locator('.live-indicator[data-live="live"]').waitFor({ timeout: 30_000 });

/** The lock id of an IMEI, read through the API as the console would. */
async function lockIdOf(page: Page, imei: string): Promise<number> {
  const data = await apiGet<{ records: { id: number; imei: string }[] }>(page, `/iot/v1/lockDevice/list?keyword=${imei}&size=5`);
  const lock = data.records.find((record) => record.imei === imei);
  if (!lock) throw new Error(`no lock ${imei}`);
  return lock.id;
}

const touches = (message: StreamMessage, lockId: number) =>
  message.data.lockId === lockId || (Array.isArray(message.data.lockIds) && message.data.lockIds.includes(lockId));

describe.skipIf(!hasChromium)('live console', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  it('shows the stream live and makes no request for a page no event changes', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    await page.goto(url('/orderManagement'));
    await live(page);
    await page.locator('.ant-table').first().waitFor({ timeout: 20_000 });
    const lists: string[] = [];
    page.on('request', (request) => { if (request.url().includes('/iot/v1/wx/orderInfo/list')) lists.push(request.url()); });
    // The page's fallback polls every 5 s: three periods without a request show it is off while live.
    await page.waitForTimeout(15_000);
    await live(page);
    expect(lists).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('shows an alarm a simulated lock raises in 门锁警告 without a reload', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    const stream = await recordStream(page);
    await page.goto(url('/lockAlert'));
    await live(page);
    const lockId = await lockIdOf(page, ALARM_IMEI);
    await page.getByPlaceholder('IMEI / 名称 / 房间').fill(ALARM_IMEI);
    await page.getByRole('button', { name: /查\s?询/ }).click();
    const bruteForce = page.locator('.ant-table-row').filter({ hasText: ALARM_IMEI }).filter({ hasText: '暴力' });
    const before = (await bruteForce.count()) > 0 ? await bruteForce.first().textContent() : null;
    const heard = stream.messages.length;
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) navigations.push(frame.url()); });

    // Five wrong passwords on the lock's keypad: the lock reports each failure, the platform raises bruteForce.
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await apiPost<{ success: boolean }>(page, '/iot/v1/simulator/attemptOpen', { imei: ALARM_IMEI, method: 'password', password: '0000009' });
      expect(result.success).toBe(false);
    }
    await expect.poll(() => stream.messages.slice(heard).some((m) => m.event === 'lock.alarm' && touches(m, lockId)), { timeout: 45_000, interval: 250 }).toBe(true);
    await expect.poll(async () => ((await bruteForce.count()) > 0 ? await bruteForce.first().textContent() : null), { timeout: 30_000, interval: 250 })
      .not.toBe(before);
    expect(await bruteForce.first().textContent()).toContain('未解除');
    expect(navigations).toEqual([]); // no reload
    await page.context().close();
  }, 120_000);

  it('shows a temporary password go from 添加中 to 正常 once the stream says the lock has it', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    const stream = await recordStream(page);
    await page.goto(url('/voucherPasswordManage'));
    await live(page);
    await chooseOption(page, 'credential-lock', PASSWORD_IMEI, PASSWORD_IMEI);
    await page.getByRole('button', { name: /新增密码/ }).click();
    const modal = page.locator('.password-modal');
    await expect.poll(() => modal.locator('.ant-select-content, .ant-select-selection-item').first().textContent()).toContain(PASSWORD_IMEI);
    // Temporary: valid from an hour ago to tomorrow (to the minute), as in credentials.e2e.ts.
    const range = modal.locator('.ant-picker-range input');
    const minute = (offsetMs: number) => new Date(Date.now() + offsetMs - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16).replace('T', ' ');
    for (const [input, offset] of [[range.nth(0), -3_600_000], [range.nth(1), 2 * 86_400_000]] as const) {
      await input.click();
      await input.fill(minute(offset));
      await input.press('Enter');
    }
    await modal.locator('#password-digits').fill(String(Date.now()).slice(-7));
    const added = page.waitForResponse((r) => r.url().includes('/iot/v1/zg/tempPassword') && r.request().method() === 'POST');
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    const row = (await (await added).json()).data as { id: number; syncState: string };
    expect(row.syncState).toBe('adding');
    const badge = page.locator(`.ant-table-row[data-row-key="${row.id}"] [data-sync]`);
    const seen = new Set<string | null>();
    await expect.poll(async () => {
      const state = await badge.getAttribute('data-sync').catch(() => null);
      seen.add(state);
      return state;
    }, { timeout: 45_000, interval: 200 }).toBe('normal');
    expect([...seen].every((state) => state === null || state === 'adding' || state === 'normal')).toBe(true);
    // The stream carried the change: its credential.sync for this row came first.
    expect(stream.messages.some((m) => m.event === 'credential.sync' && (m.data.rowId === row.id || m.data.merged !== undefined))).toBe(true);
    await page.context().close();
  }, 120_000);
});
