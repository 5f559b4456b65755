/**
 * Packages and payments in a real browser against the started server and its sandbox payment provider: buy a
 * package on 套餐, pay on the sandbox's pay page (a real HTTP server; its notification is signed and
 * encrypted, and may come twice or 8 s late), see the order paid and the lock's service end move a
 * year in 门锁信息, then refund it on 订单管理 and see REFUND. The pay page is on the console's origin.
 */
import type { LockRecord, OrderRecord, Page as ApiPage } from '@iot/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, chooseOption, goInApp, hasChromium, launchBrowser, newPage, rows, signInThroughUi } from './browser.js';

const IMEI = '861234500000000';
const DAY = 86_400_000;

describe.skipIf(!hasChromium)('packages, WeChat Pay and refunds in the console', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launchBrowser(); });
  afterAll(() => browser?.close());

  it('buys a package, pays on the sandbox page, sees SUCCESS and the service end move, refunds and sees REFUND', async () => {
    const page = await newPage(browser);
    await signInThroughUi(page);
    const lockOf = async () => (await apiGet<ApiPage<LockRecord>>(page, `/iot/v1/lockDevice/list?keyword=${IMEI}&current=1&size=10`)).records[0] as LockRecord;
    const before = (await lockOf()).serviceEndAt;
    const from = Math.max(before ? Date.parse(before) : 0, Date.now());

    await goInApp(page, '/renew');
    const card = page.locator('.product-card').filter({ hasText: '单锁年度服务' });
    await card.getByRole('button', { name: '购 买' }).or(card.getByRole('button', { name: '购买' })).click();
    await chooseOption(page, 'buy-locks', IMEI, IMEI);
    await page.locator('#buy-submit').click();
    const link = page.locator('#pay-link');
    await link.waitFor({ timeout: 15_000 });
    expect(await page.locator('#pay-qr canvas, #pay-qr svg').count()).toBeGreaterThan(0);
    expect(await page.locator('.ant-modal').textContent()).toContain('¥99.00');

    // The payer's phone: the sandbox's pay page, on the console's own origin, not localhost:<port>.
    const href = await link.getAttribute('href') as string;
    expect(new URL(href).origin).toBe(new URL(page.url()).origin);
    const payer = await browser.newPage();
    await payer.goto(href);
    expect(await payer.textContent('body')).toContain('¥ 99.00');
    await payer.click('#sandbox-confirm');
    expect(await payer.textContent('#sandbox-result')).toContain('支付成功');
    await payer.close();

    await page.locator('.pay-result').filter({ hasText: '支付成功' }).waitFor({ timeout: 30_000 });
    const after = (await lockOf()).serviceEndAt as string;
    expect(Date.parse(after) - from).toBeGreaterThan(360 * DAY);
    await page.keyboard.press('Escape');

    await goInApp(page, '/lockInfo');
    await page.fill('#lock-keyword', IMEI);
    await page.keyboard.press('Enter');
    await expect.poll(() => rows(page, IMEI).first().textContent(), { timeout: 15_000 }).toContain(after.slice(0, 4));

    const [order] = (await apiGet<ApiPage<OrderRecord>>(page, '/iot/v1/wx/orderInfo/list?current=1&size=1')).records as OrderRecord[];
    expect(order?.tradeState).toBe('SUCCESS');
    await goInApp(page, '/orderManagement');
    const row = rows(page, order?.outTradeNo);
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('支付成功');
    await row.locator('.order-refund').click();
    await page.fill('#refund-reason', '测试退款');
    await page.click('#refund-submit');
    // A full refund reads 已退款 (a partial one 部分退款; WeChat Pay's "转入退款" said neither).
    await expect.poll(() => row.locator('.order-state').textContent(), { timeout: 40_000 }).toBe('已退款');
    await expect.poll(() => row.locator('.refund-state').textContent(), { timeout: 20_000 }).toBe('退款成功');
    // A full refund takes the year back.
    expect(Math.abs(Date.parse((await lockOf()).serviceEndAt as string) - from)).toBeLessThan(5 * DAY);
  }, 150_000);
});
