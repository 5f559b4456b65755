/**
 * The notification inbox in Chromium against the e2e server and its simulated fleet: a rule watches duress
 * alarms (escalating after 1 minute to a second channel); a forced (duress) user of the always-online
 * lock opens its simulated keypad, so the lock raises the silent duress alarm → the header bell's count
 * rises without a reload → the operator opens the bell, clicks the notification, lands on 门锁警告 for
 * that lock and kind and acknowledges with a note → when the escalation would have been due, none was
 * sent (the delivery log has no escalation row and the escalation receiver got nothing).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiGet, apiPost, goInApp, hasChromium, rows, useSignedInPage } from './browser.js';
import { E2E_ONLINE_IMEI } from './global-setup.js';

/** Stamped per attempt (beforeEach): a retry makes its own channels, rule and user. */
let STAMP = '';
beforeEach(() => { STAMP = Date.now().toString(36); });
const DURESS_DIGITS = '739146';
type Paged<T> = { records: T[] };
type Synced = { id: number; syncState: string };

/** A webhook receiver keeping what reaches it as `<path> <body>`. */
async function startReceiver() {
  const received: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    request.on('end', () => { received.push(`${request.url} ${body}`); response.end('ok'); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { received, url: (path: string) => `http://127.0.0.1:${port}${path}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const bell = (page: Page) => page.locator('.inbox-bell');
const unread = async (page: Page) => Number(await bell(page).getAttribute('data-unread'));

describe.skipIf(!hasChromium)('the inbox: a duress alarm reaches the bell, is acknowledged from it and does not escalate', () => {
  const session = useSignedInPage();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => { receiver = await startReceiver(); });
  afterAll(() => receiver?.close());

  it('rings the bell live, opens the alert, acknowledges it with a note, and no escalation follows', async () => {
    const page = session.page;
    const channel = async (name: string, path: string) => (await apiPost<{ id: number }>(page, '/iot/v1/notification/channel',
      { kind: 'webhook', name: `${name} ${STAMP}`, url: receiver.url(path), secret: `e2e-secret-${STAMP}` })).id;
    const duty = await channel('值班群', '/duty');
    const escalation = await channel('主管', '/escalation');
    const rule = await apiPost<{ id: number }>(page, '/iot/v1/notification/rule', { name: `胁迫 ${STAMP}`, kinds: ['duress'], channelIds: [duty], escalateAfterMin: 1, escalationChannelIds: [escalation] });

    // A forced (duress) user with a password on the always-online lock.
    const [lock] = (await apiGet<Paged<{ id: number }>>(page, `/iot/v1/lockDevice/list?keyword=${E2E_ONLINE_IMEI}&current=1&size=1`)).records;
    const user = await apiPost<Synced>(page, '/iot/v1/zg/userOperation', { action: 'add', lockId: lock?.id, name: `胁迫 ${STAMP}`, userType: 'forcedUser' });
    await expect.poll(async () => (await apiGet<Paged<Synced>>(page, `/iot/v1/operateUser/list?lockId=${lock?.id}&keyword=${encodeURIComponent(`胁迫 ${STAMP}`)}&current=1&size=5`))
      .records.find((r) => r.id === user.id)?.syncState, { timeout: 30_000, interval: 300 }).toBe('normal');
    const password = await apiPost<Synced>(page, '/iot/v1/zg/foreverPassword', { action: 'add', lockId: lock?.id, lockUserId: user.id, password: DURESS_DIGITS });
    await expect.poll(async () => (await apiGet<Paged<Synced>>(page, `/iot/v1/operatePassword/list?imei=${E2E_ONLINE_IMEI}&current=1&size=100`))
      .records.find((r) => r.id === password.id)?.syncState, { timeout: 30_000, interval: 300 }).toBe('normal');

    await goInApp(page, '/homepage');
    await bell(page).waitFor({ timeout: 30_000 });
    const before = await unread(page);
    const opened = await apiPost<{ success: boolean }>(page, '/iot/v1/simulator/attemptOpen', { imei: E2E_ONLINE_IMEI, method: 'password', password: DURESS_DIGITS });
    expect(opened.success).toBe(true); // the door opens: the alarm is silent
    await expect.poll(() => unread(page), { timeout: 30_000, interval: 300 }).toBeGreaterThan(before);

    await bell(page).click();
    const item = page.locator('.inbox-drawer .inbox-item[data-unread="true"]').filter({ hasText: '胁迫报警' }).first();
    await item.waitFor({ timeout: 15_000 });
    await item.locator('.ant-list-item-meta').click();
    await page.waitForURL((u) => u.pathname.endsWith('/lockAlert') && u.searchParams.get('imei') === E2E_ONLINE_IMEI && u.searchParams.get('kind') === 'duress', { timeout: 15_000 });

    const row = rows(page).filter({ hasText: E2E_ONLINE_IMEI }).first();
    await row.getByRole('button', { name: '确认告警' }).click();
    await page.getByRole('textbox', { name: '备注（可选）' }).fill('保安已到场，系演练');
    await page.locator('.ant-popconfirm').getByRole('button', { name: /^(确\s*定|OK)$/ }).click();
    type Alert = { kind: string; acknowledgedAt: string | null; acknowledgeNote?: string | null };
    const duress = async () => (await apiGet<Paged<Alert>>(page, `/iot/v1/lockAlert/list?imei=${E2E_ONLINE_IMEI}&kind=duress&current=1&size=5`)).records[0];
    await expect.poll(async () => (await duress())?.acknowledgedAt ?? null, { timeout: 15_000, interval: 300 }).not.toBeNull();
    expect((await duress())?.acknowledgeNote).toBe('保安已到场，系演练');

    // The escalation was due a minute after the notification; wait past it: nothing escalated.
    await expect.poll(() => receiver.received.filter((r) => r.startsWith('/duty')).length, { timeout: 10_000 }).toBeGreaterThan(0); // the duty channel got the alarm
    await new Promise((resolve) => setTimeout(resolve, 65_000));
    type Delivery = { channelId: number | null; escalation: boolean; state: string };
    const log = (await apiGet<Paged<Delivery>>(page, `/iot/v1/notification/delivery?ruleId=${rule.id}&current=1&size=100`)).records;
    expect(log.filter((d) => d.channelId === duty && d.state === 'sent').length).toBeGreaterThan(0);
    expect(log.filter((d) => d.escalation || d.channelId === escalation)).toEqual([]);
    expect(receiver.received.filter((r) => r.startsWith('/escalation'))).toEqual([]);
  }, 180_000);
});
