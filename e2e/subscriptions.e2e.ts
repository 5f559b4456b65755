/**
 * The open platform's subscriptions in a real browser against the started server (DEMO=on: the embedded demo receiver): create
 * a customer code, generate its key (shown once), save a push configuration for the demo receiver
 * (the verification handshake passes), type a password on a simulated lock's keypad, see the unlock
 * delivered with HTTP 200 in the delivery log; stop the receiver, see deliveries retried (503) and the
 * ones behind them wait (per-lock order), start it again and see the backlog delivered.
 */
import type { DeliveryRecord, Page as ApiPage } from '@iot/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, hasChromium, launchBrowser, newPage, rows, signInThroughUi, url } from './browser.js';

/** Stamped per attempt: a retry creates its own code (customer codes are unique; a module-level stamp made a retry's add a 409 whose dialog then covered the table). */
const newCode = () => `E2E-PUSH-${String(Date.now()).slice(-6)}`;
const IMEI = '861234500000003'; // tenant 100, never asleep

describe.skipIf(!hasChromium)('subscriptions in the console', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  const deliveries = (page: Page, code: string) => apiGet<ApiPage<DeliveryRecord>>(page, `/nbdev/delivery/list?customerCode=${code}&size=200`).then((p) => p.records);
  const unlock = (page: Page) => apiPost(page, '/iot/v1/simulator/attemptOpen', { imei: IMEI, method: 'password', password: '000000' });

  it('pushes an unlock to the demo receiver, retries while it is stopped and drains when it is back', async () => {
    const CODE = newCode();
    const page = await newPage(browser);
    await signInThroughUi(page);
    await apiPost(page, '/nbdev/demoReceiver', { running: true }); // an earlier attempt may have stopped it
    await page.goto(url('/subscriptionManagement'));
    await page.getByRole('button', { name: '新增客户编码' }).click();
    await page.locator('#code-customerCode').fill(CODE);
    await page.locator('#code-name').fill('端到端测试');
    await page.getByRole('dialog').getByRole('button', { name: '确 定' }).or(page.getByRole('dialog').getByRole('button', { name: '确定' })).click();
    const row = rows(page, CODE);
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);

    await row.getByRole('button', { name: '生成密钥' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    const secret = page.getByTestId('new-secret');
    const refusal = page.locator('.ant-message-error');
    await secret.or(refusal).first().waitFor({ timeout: 45_000 });
    expect(await refusal.allTextContents(), 'generating the key was refused').toEqual([]);
    expect(await secret.textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: '我已保存' }).click();

    const { url: receiverUrl } = await apiGet<{ url: string }>(page, '/nbdev/demoReceiver');
    await row.getByRole('button', { name: '推送配置' }).click();
    await page.locator('#config-url').fill(receiverUrl);
    await page.getByRole('button', { name: '验证并保存' }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(receiverUrl);

    await unlock(page);
    await page.goto(url(`/subscriptionManagement?tab=deliveries&customerCode=${CODE}`));
    const delivered = rows(page).filter({ hasText: '开锁记录' }).filter({ hasText: '已送达' }).filter({ hasText: '200' });
    await expect.poll(() => delivered.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

    // Stop the receiver: the next unlock is retried with backoff.
    await page.goto(url('/subscriptionManagement'));
    await page.getByTestId('demo-receiver-toggle').click();
    await expect.poll(() => page.getByText('演示接收端已停止').count(), { timeout: 10_000 }).toBe(1);
    await unlock(page);
    await unlock(page);
    await expect.poll(async () => (await deliveries(page, CODE)).filter((d) => d.state === 'pending' && d.lastStatus === 503).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    // The retried ones are each lock's oldest pending delivery: the log filtered to pending, 100 a page.
    await page.goto(url(`/subscriptionManagement?tab=deliveries&customerCode=${CODE}&state=pending&size=100`));
    await expect.poll(() => rows(page).filter({ hasText: '待重试' }).filter({ hasText: '503' }).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

    // Start it again: each lock's first retry (about 10 s) succeeds and the backlog behind it drains
    // (the simulated fleet keeps adding events: judged on those queued while it was stopped).
    const backlog = Math.max(...(await deliveries(page, CODE)).map((d) => d.id));
    await page.goto(url('/subscriptionManagement'));
    await page.getByTestId('demo-receiver-toggle').click();
    await expect.poll(async () => {
      const queued = (await deliveries(page, CODE)).filter((d) => d.id <= backlog);
      return queued.length >= 3 && queued.every((d) => d.state === 'delivered');
    }, { timeout: 90_000, interval: 1000 }).toBe(true);
    await page.goto(url(`/subscriptionManagement?tab=deliveries&customerCode=${CODE}&state=delivered&size=100`));
    await expect.poll(() => rows(page).filter({ hasText: '已送达' }).count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  }, 200_000);
});
