/**
 * Work orders in Chromium against the e2e server: failed keypad attempts on the
 * always-online lock raise an alert → on 门锁警告 the operator selects it and 生成工单 → the work-order
 * tab shows the new order → 开始处理, then 完成 (a battery order asks for the new reading) → the order is done
 * → the technician's photo is added to the closed order (照片) and shown as a thumbnail.
 * Set E2E_SCREENSHOT_DIR to also save the photos dialog in both languages.
 */
import { expect, it, describe } from 'vitest';
import { apiGet, apiPost, hasChromium, url, useSignedInPage } from './browser.js';
import { E2E_ONLINE_IMEI } from './global-setup.js';
import { shootBothLanguages } from './shots.js';

const shotDir = process.env.E2E_SCREENSHOT_DIR;
/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

type Paged<T> = { records: T[] };

describe.skipIf(!hasChromium)('work orders: from an alert to a closed order', () => {
  const session = useSignedInPage();

  it('creates an order from a selected alert and closes it', async () => {
    const page = session.page;
    const alerts = () => apiGet<Paged<{ id: number }>>(page, `/iot/v1/lockAlert/list?keyword=${E2E_ONLINE_IMEI}&current=1&size=1`);
    if ((await alerts()).records.length === 0) {
      for (let i = 0; i < 6; i += 1) await apiPost(page, '/iot/v1/simulator/attemptOpen', { imei: E2E_ONLINE_IMEI, method: 'password', password: '000000' });
      await expect.poll(async () => (await alerts()).records.length, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    }
    await page.goto(url(`/lockAlert?keyword=${E2E_ONLINE_IMEI}`));
    const first = page.locator('.ant-table-row').first();
    await first.waitFor({ timeout: 30_000 });
    await first.locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: /生成工单/ }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /^(确\s*定|OK)$/ }).click();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'workOrders', { timeout: 15_000 });

    const [order] = (await apiGet<Paged<{ id: number; kind: string; state: string }>>(page, '/iot/v1/workOrder/list?current=1&size=1')).records;
    expect(order?.state).toBe('OPEN');
    const row = page.locator(`.ant-table-row[data-row-key="${order?.id}"]`);
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: /开始处理/ }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000, interval: 300 }).toContain('处理中');
    await row.getByRole('button', { name: /^完\s*成$/ }).click();
    if (order?.kind === 'batteryReplacement') {
      await page.locator('#work-order-battery').fill('95');
      await page.locator('.ant-modal:visible').getByRole('button', { name: /^(确\s*定|OK)$/ }).click();
    }
    await expect.poll(() => row.textContent(), { timeout: 15_000, interval: 300 }).toContain('已完成');
    const done = await apiGet<{ state: string }>(page, `/iot/v1/workOrder/detail?id=${order?.id}`);
    expect(done.state).toBe('DONE');
    // The photo of the new battery, added after closing.
    await row.locator('.work-order-photos-button').click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.locator('input[type=file]').setInputFiles({ name: '新电池.png', mimeType: 'image/png', buffer: PNG });
    // The browser shows it (the page's Content-Security-Policy allows the object URL).
    const shown = () => dialog.locator('.work-order-photo img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0).catch(() => false);
    await expect.poll(shown, { timeout: 15_000, interval: 300 }).toBe(true);
    await expect.poll(() => row.locator('.work-order-photos-button').textContent(), { timeout: 15_000, interval: 300 }).toContain('(1)');
    await dialog.locator('.ant-modal-close').click();
    if (shotDir) {
      await shootBothLanguages(page, shotDir, 'work-order-photos', {
        en: /Photos/, zh: /照片/,
        before: async () => { await row.locator('.work-order-photos-button').click(); await expect.poll(shown, { timeout: 15_000, interval: 300 }).toBe(true); },
        after: () => dialog.locator('.ant-modal-close').click(),
      });
    }
    // The alert's row shows the order and its state.
    await page.goto(url(`/lockAlert?keyword=${E2E_ONLINE_IMEI}`));
    await page.locator('.ant-table-row', { hasText: `#${order?.id} 已完成` }).waitFor({ timeout: 30_000 });
  });
});
