/**
 * The notification screens in Chromium against the e2e server (DEMO=on: loopback receivers allowed):
 * on 订阅管理 → 通知渠道 a DingTalk robot channel is refused for a private address (the reason on the URL
 * field), then created for a DingTalk receiver this test starts (it checks the real `timestamp` + HMAC-SHA256
 * `sign`); "发送测试消息" reaches it and the row shows 成功; a rule for every alert goes to that channel
 * (通知规则), and the simulated fleet's next alarm shows in 通知投递记录 as 已发送; escalation, quiet hours and the
 * hourly cap edited in the rule form are kept.
 * Set E2E_SCREENSHOT_DIR to save the three tabs and both forms in both languages at 1366x768 and 1920x1080.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiGet, chooseOption, hasChromium, rows, url, useSignedInPage } from './browser.js';
import { shootBothLanguages } from './shots.js';

const SECRET = 'SECe2e-dingtalk-secret-0001';
/** Stamped per attempt (beforeEach): a retry makes its own channel and rule. */
let CHANNEL = '';
let RULE = '';
beforeEach(() => {
  const stamp = String(Date.now()).slice(-6);
  CHANNEL = `E2E 值班群 ${stamp}`;
  RULE = `E2E 全部告警 ${stamp}`;
});
const shotDir = process.env.E2E_SCREENSHOT_DIR;

/** A DingTalk robot at the HTTP boundary: answers errcode 0 only to a request signed with SECRET. */
async function startDingTalk() {
  const verified: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const query = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
      const timestamp = query.get('timestamp') ?? '';
      const sign = createHmac('sha256', SECRET).update(`${timestamp}\n${SECRET}`).digest('base64');
      const ok = query.get('access_token') === 'e2e-token' && query.get('sign') === sign && Math.abs(Date.now() - Number(timestamp)) < 3_600_000;
      if (ok) verified.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { errcode: 0, errmsg: 'ok' } : { errcode: 310000, errmsg: 'sign not match' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { verified, url: `http://127.0.0.1:${port}/robot/send?access_token=e2e-token`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const dialog = (page: Page) => page.locator('.ant-modal:visible');
const ok = (page: Page) => dialog(page).getByRole('button', { name: /^(确\s*定|OK)$/ });
const cancel = (page: Page) => dialog(page).getByRole('button', { name: /^(取\s*消|Cancel)$/ });

describe.skipIf(!hasChromium)('notification channels, rules and deliveries on 订阅管理', () => {
  const session = useSignedInPage();
  let robot: Awaited<ReturnType<typeof startDingTalk>>;
  beforeAll(async () => { robot = await startDingTalk(); });
  afterAll(() => robot?.close());

  it('creates a DingTalk channel, tests it, routes every alert to it and logs the deliveries', async () => {
    const page = session.page;
    await page.goto(url('/subscriptionManagement?tab=channels'));
    await page.getByRole('button', { name: '新增渠道' }).click();
    await page.locator('#channel-name').fill(CHANNEL);
    await page.locator('#channel-url').fill('https://10.20.30.40/robot/send?access_token=e2e-token');
    await page.locator('#channel-secret').fill(SECRET);
    const refused = page.waitForResponse((r) => r.url().endsWith('/iot/v1/notification/channel') && r.request().method() === 'POST', { timeout: 15_000 });
    await ok(page).click();
    // The egress policy refuses a private address: the reason stands under the URL field.
    expect((await refused).status()).toBe(400);
    const urlError = dialog(page).locator('.ant-form-item').filter({ has: page.locator('#channel-url') }).locator('.ant-form-item-explain-error');
    await expect.poll(() => urlError.count(), { timeout: 15_000 }).toBeGreaterThan(0)
      .catch(async (error: Error) => { throw new Error(`${error.message}; the form showed: ${await dialog(page).textContent()}`); });
    await page.locator('#channel-url').fill(robot.url);
    await ok(page).click();
    const row = rows(page, CHANNEL);
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.textContent()).toContain('钉钉机器人');
    expect(await row.textContent()).toContain('未测试');

    await row.getByRole('button', { name: '发送测试消息' }).click();
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toContain('成功');
    expect(robot.verified.length).toBeGreaterThanOrEqual(1);
    if (shotDir) {
      await shootBothLanguages(page, shotDir, 'notification-channels', { en: /DingTalk robot/, zh: /钉钉机器人/ });
      await shootBothLanguages(page, shotDir, 'notification-channel-form', {
        en: /DingTalk robot/, zh: /钉钉机器人/,
        before: () => rows(page, CHANNEL).getByRole('button', { name: /^(编辑|Edit)$/ }).click().then(() => dialog(page).waitFor()),
        after: () => cancel(page).click().then(() => dialog(page).waitFor({ state: 'hidden' })),
      });
      await shootBothLanguages(page, shotDir, 'notification-channel-form-email', {
        en: /DingTalk robot/, zh: /钉钉机器人/,
        before: async () => {
          await page.getByRole('button', { name: /新增渠道|Add channel/ }).click();
          await page.locator('#channel-kind').click();
          await page.locator('.ant-select-dropdown:visible .ant-select-item-option').last().click();
          await page.locator('#channel-host').waitFor();
        },
        after: () => cancel(page).click().then(() => dialog(page).waitFor({ state: 'hidden' })),
      });
    }

    await page.getByRole('tab', { name: '通知规则' }).click();
    await page.getByRole('button', { name: '新增规则' }).click();
    await page.locator('#rule-name').fill(RULE);
    await chooseOption(page, 'rule-channels', CHANNEL);
    await ok(page).click();
    const rule = rows(page, RULE);
    await expect.poll(() => rule.count(), { timeout: 15_000 }).toBe(1);
    expect(await rule.textContent()).toContain(CHANNEL);
    if (shotDir) {
      await shootBothLanguages(page, shotDir, 'notification-rules', { en: /All kinds/, zh: /全部类型/ });
      await shootBothLanguages(page, shotDir, 'notification-rule-form', {
        en: /All kinds/, zh: /全部类型/,
        before: () => rows(page, RULE).getByRole('button', { name: /^(编辑|Edit)$/ }).click().then(() => dialog(page).waitFor()),
        after: () => cancel(page).click().then(() => dialog(page).waitFor({ state: 'hidden' })),
      });
    }

    // The simulated fleet raises alarms every few heartbeats: the first ones reach the robot and the log.
    await page.getByRole('tab', { name: '通知投递记录' }).click();
    const sent = rows(page, CHANNEL).filter({ hasText: '已发送' });
    await expect.poll(() => sent.count(), { timeout: 60_000, interval: 1000 }).toBeGreaterThanOrEqual(1);
    expect(robot.verified.length).toBeGreaterThanOrEqual(2);
    // A search keeps the tab (the filters go to the URL beside ?tab=).
    await chooseOption(page, 'delivery-state', '已发送');
    await page.getByRole('button', { name: /^查\s*询$/ }).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toContain('state=sent');
    expect(page.url()).toContain('tab=notificationDeliveries');
    await expect.poll(() => rows(page).filter({ hasText: '已抑制' }).count(), { timeout: 15_000 }).toBe(0);
    expect(await sent.count()).toBeGreaterThanOrEqual(1);
    if (shotDir) await shootBothLanguages(page, shotDir, 'notification-deliveries', { en: /Sent/, zh: /已发送/ });

    // Escalation, quiet hours and the hourly cap are edited in the form and kept.
    await page.getByRole('tab', { name: '通知规则' }).click();
    await rows(page, RULE).getByRole('button', { name: '编辑' }).click();
    await dialog(page).waitFor();
    await page.locator('#rule-escalateAfterMin').fill('15');
    await chooseOption(page, 'rule-escalationChannels', CHANNEL);
    await page.locator('#rule-hourlyCap').fill('30');
    const times = dialog(page).locator('.ant-picker-range input');
    for (const [index, time] of [[0, '22:00'], [1, '07:00']] as const) {
      await times.nth(index).click();
      await times.nth(index).fill(time);
      await times.nth(index).press('Enter');
    }
    await ok(page).click();
    await dialog(page).waitFor({ state: 'hidden' });
    const saved = (await apiGet<{ name: string; escalateAfterMin: number; escalationChannelIds: number[]; hourlyCap: number; quietHours: unknown }[]>(page, '/iot/v1/notification/rule'))
      .find((r) => r.name === RULE);
    expect(saved).toMatchObject({ escalateAfterMin: 15, hourlyCap: 30, quietHours: { start: '22:00', end: '07:00' } });
    expect(saved?.escalationChannelIds).toHaveLength(1);
    await rows(page, RULE).getByRole('button', { name: '编辑' }).click();
    await expect.poll(() => times.nth(0).inputValue()).toBe('22:00');
    await cancel(page).click();
  }, 240_000);
});
