/**
 * The command outbox in a real browser against the started server and its simulated fleet
 * (global-setup.ts: a 2 s wake window; E2E_SLEEPING_IMEI beats every 10 s and sleeps in between, the
 * other locks beat every 2 s and never sleep):
 * - "a command issued in the console reaches a simulated sleeping lock after its next heartbeat and the
 *   console shows SUCCESSFUL": at a fresh sleep of that lock (what the queue drawer shows: not reachable,
 *   next wake ahead), push a configuration from 门锁配置; its queue shows it QUEUED (held) while the
 *   lock sleeps, sent only after the lock's next heartbeat, then SUCCESSFUL; the lock reports the new
 *   config and 下发日志 shows the payload actually sent;
 * - a clock sync to an awake lock.
 */
import type { HeartbeatLogRecord, LockConfigRecord, LockQueue, Page as ApiPage } from '@iot/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, hasChromium, launchBrowser, newPage, signInThroughUi, url } from './browser.js';
import { E2E_SLEEPING_HEARTBEAT_S, E2E_SLEEPING_IMEI, E2E_WAKE_WINDOW_MS } from './global-setup.js';

const SLEEPING_IMEI = E2E_SLEEPING_IMEI;
/** A lock beating every 2 s: never asleep. */
const AWAKE_IMEI = '861234500000003';
/**
 * The push is issued only while at least this much of the lock's sleep lies ahead, ms (of ~8 s), so
 * the console sees it held even when a loaded machine is slow to submit and to refresh the drawer.
 */
const SLEEP_AHEAD_MS = 5000;

/** The open queue drawer: raw states (data-state) of its rows, top first, and whether it shows the lock reachable now. */
const drawerView = (page: Page) => page.locator('.ant-drawer').evaluate((drawer) => ({
  states: Array.from(drawer.querySelectorAll('.ant-table-row [data-state]'), (tag) => tag.getAttribute('data-state')),
  reachable: drawer.textContent?.includes('当前可达') ?? false,
}));

describe.skipIf(!hasChromium)('command outbox in the console', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  it('holds a config push for a sleeping lock until its next heartbeat, then shows SUCCESSFUL; the log shows the payload sent', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    await page.goto(url('/lockConfig'));
    const row = page.locator('.ant-table-row').filter({ hasText: SLEEPING_IMEI });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('NB 休眠');
    // The lock reports its real interval, so the console's next wake (last heartbeat + interval) is true.
    const lockOf = async () => (await apiGet<ApiPage<LockConfigRecord>>(page, `/iot/v1/lockConfigList?keyword=${SLEEPING_IMEI}&current=1&size=10`)).records[0];
    await expect.poll(async () => (await lockOf())?.heartbeatIntervalS, { timeout: 20_000 }).toBe(E2E_SLEEPING_HEARTBEAT_S);
    const lock = await lockOf() as LockConfigRecord;
    expect(lock.alwaysOnline).toBe(false);
    await expect.poll(async () => { // both read in one go; a heartbeat arriving in between just retries
      const [current, beats] = await Promise.all([lockOf(), apiGet<ApiPage<HeartbeatLogRecord>>(page, `/iot/v1/logHeartbeat/list?imei=${SLEEPING_IMEI}&current=1&size=1`)]);
      const last = beats.records[0];
      return current?.nextWakeAt && last ? Date.parse(current.nextWakeAt) - Date.parse(last.receivedAt) : null;
    }, { timeout: 20_000 }).toBe(E2E_SLEEPING_HEARTBEAT_S * 1000);

    await row.getByRole('button', { name: '下发配置' }).click();
    await page.locator('#config-volume').fill('33');
    // Start at a fresh sleep, as the lock's queue shows it: its last uplink's wake window is over and
    // most of the sleep lies ahead (else wait for the next cycle), then submit at once.
    let before: LockQueue | undefined;
    await expect.poll(async () => {
      before = await apiGet<LockQueue>(page, `/iot/v1/logDownCommand/simpleList?lockId=${lock.id}`);
      return !before.awake && before.nextWakeAt !== null && Date.parse(before.nextWakeAt) - Date.now() >= SLEEP_AHEAD_MS;
    }, { timeout: 3 * E2E_SLEEPING_HEARTBEAT_S * 1000, interval: 200 }).toBe(true);
    await page.locator('.ant-modal').getByRole('button', { name: '下 发' }).or(page.locator('.ant-modal').getByRole('button', { name: '下发' })).click();

    // The lock's queue opens: the push is held (QUEUED, lock not reachable) while the lock sleeps...
    await expect.poll(async () => (await drawerView(page)).states.length, { timeout: 5000, interval: 100 }).toBeGreaterThanOrEqual(1);
    const held = await drawerView(page);
    expect(held.states[0]).toBe('QUEUED');
    expect(held.reachable).toBe(false);
    // ...and reaches SUCCESSFUL after the lock's next heartbeat.
    const seen: (string | null)[] = [];
    await expect.poll(async () => {
      const state = (await drawerView(page)).states[0] ?? null;
      if (seen.at(-1) !== state) seen.push(state);
      return state;
    }, { timeout: 3 * E2E_SLEEPING_HEARTBEAT_S * 1000, interval: 200 }).toBe('SUCCESSFUL');
    expect(seen[0]).toBe('QUEUED');
    expect(seen.every((state) => ['QUEUED', 'SENT', 'DELIVERED', 'SUCCESSFUL'].includes(state as string))).toBe(true);
    expect(await page.locator('.ant-drawer').textContent()).toContain('配置下发');
    const after = await apiGet<LockQueue>(page, `/iot/v1/logDownCommand/simpleList?lockId=${lock.id}`);
    const command = after.commands.find((c) => c.type === 'configPush' && c.state === 'SUCCESSFUL');
    expect(command?.attempts).toBe(1);
    const [queuedAt, sentAt] = [Date.parse(command?.createdAt as string), Date.parse(command?.sentAt as string)];
    // Sent only once the lock woke up: a heartbeat of the lock arrived between queueing and sending,
    // past the wake window of the uplink seen before the push.
    const beats = await apiGet<ApiPage<HeartbeatLogRecord>>(page,
      `/iot/v1/logHeartbeat/list?imei=${SLEEPING_IMEI}&startTime=${encodeURIComponent(new Date(queuedAt).toISOString())}&current=1&size=20`);
    const wakeUp = beats.records.map((beat) => Date.parse(beat.receivedAt)).filter((at) => at > queuedAt && at <= sentAt);
    expect(wakeUp.length).toBeGreaterThanOrEqual(1);
    expect(sentAt - Date.parse(before?.lastUplinkAt as string)).toBeGreaterThan(E2E_WAKE_WINDOW_MS);
    await page.locator('.ant-drawer-close').click();
    // The lock reported its new configuration.
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('音量 (%): 33');

    await page.goto(url('/commandDownLog'));
    const logRow = page.locator('.ant-table-row').filter({ hasText: SLEEPING_IMEI }).filter({ hasText: '配置下发' }).first();
    await expect.poll(() => logRow.locator('[data-state]').getAttribute('data-state'), { timeout: 15_000 }).toBe('SUCCESSFUL');
    await logRow.getByRole('button', { name: '下发报文' }).click();
    const drawer = page.locator('.ant-drawer');
    await expect.poll(() => drawer.textContent(), { timeout: 10_000 }).toContain(`zg/${SLEEPING_IMEI}/down`);
    expect(await drawer.textContent()).toContain('"volume": 33');
    await page.context().close();
  });

  it('syncs a lock\'s clock after confirmation', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    await page.goto(url('/lockConfig'));
    const row = page.locator('.ant-table-row').filter({ hasText: AWAKE_IMEI });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await row.getByRole('button', { name: '校时' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s?定/ }).click();
    await row.getByRole('button', { name: '指令队列' }).click();
    await expect.poll(async () => (await page.locator('.ant-drawer .ant-table-row').filter({ hasText: '校时' }).first()
      .locator('[data-state]').getAttribute('data-state')), { timeout: 20_000 }).toBe('SUCCESSFUL');
    await page.context().close();
  });
});
