/**
 * The fleet's bulk work in Chromium against the e2e server's simulated fleet: import a 200-row .xlsx with 3 bad rows
 * on 门锁信息 (the dry run lists exactly those 3, the commit registers the 197 and downloads their
 * secrets); 门锁概况 counts them and its attention link opens the filtered 门锁信息; 产品 finds a lock by
 * search and through the building -> floor -> room tree.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { goInApp, hasChromium, useSignedInPage } from './browser.js';

async function importFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('locks');
  sheet.addRow(['IMEI', '名称', '设备类型', '楼栋', '楼层', '房间']);
  for (let i = 0; i < 200; i++) {
    const imei = imeiWithCheckDigit(`86888800${String(i).padStart(6, '0')}`);
    if (i === 50) sheet.addRow([`${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`, 'bad luhn', 'ZG-NB100', 'E2E栋', '1层', '150']);
    else if (i === 100) sheet.addRow([imei, 'unknown type', 'NO-SUCH', 'E2E栋', '2层', '200']);
    else if (i === 150) sheet.addRow([imeiWithCheckDigit('86888800000001'), 'duplicate', 'ZG-NB100', 'E2E栋', '3层', '250']);
    else sheet.addRow([imei, `导入门锁${i}`, 'ZG-NB100', 'E2E栋', `${1 + Math.floor(i / 50)}层`, `${100 + i}`]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.skipIf(!hasChromium)('fleet: import, overview, rooms', () => {
  const signedIn = useSignedInPage();

  it('imports a 200-row .xlsx: the dry run lists the 3 bad rows, the commit registers the 197', async () => {
    await goInApp(signedIn.page, '/lockInfo');
    await signedIn.page.click('#lock-import');
    await signedIn.page.locator('.ant-modal input[type=file]').setInputFiles({ name: 'locks.xlsx', mimeType: 'application/octet-stream', buffer: await importFile() });
    await signedIn.page.click('#import-check');
    const problems = signedIn.page.locator('.import-problems .ant-table-row');
    await expect.poll(() => problems.count(), { timeout: 30_000 }).toBe(3);
    expect(await problems.locator('td:first-child').allTextContents()).toEqual(['52', '102', '152']);
    expect(await signedIn.page.locator('.import-summary').textContent()).toContain('197');
    const download = signedIn.page.waitForEvent('download');
    await signedIn.page.click('#import-commit');
    const secrets = await download;
    expect(secrets.suggestedFilename()).toMatch(/^lock-secrets-.*\.csv$/);
    await signedIn.page.fill('#lock-filter-building', 'E2E栋');
    await signedIn.page.getByRole('button', { name: '查 询' }).or(signedIn.page.getByRole('button', { name: '查询' })).click();
    await expect.poll(() => signedIn.page.locator('.ant-pagination-total-text').textContent(), { timeout: 30_000 }).toContain('197');
  });

  it('门锁概况 counts the fleet and its attention link opens 门锁信息 filtered', async () => {
    await goInApp(signedIn.page, '/lockSurvey');
    const total = signedIn.page.locator('[data-state="total"]');
    await expect.poll(async () => Number(/\d+/.exec((await total.textContent()) ?? '')?.[0] ?? 0), { timeout: 30_000 }).toBeGreaterThanOrEqual(197);
    await expect.poll(() => signedIn.page.locator('[data-survey="buildings"]').textContent()).toContain('E2E栋');
    await signedIn.page.locator('[data-attention="weakSignal"]').click();
    await signedIn.page.waitForURL((u) => u.pathname === '/api/lockInfo' && u.searchParams.get('weakSignal') === 'true');
    await expect.poll(() => signedIn.page.locator('.ant-form-item', { hasText: '需关注' }).textContent(), { timeout: 30_000 }).toContain('信号弱');
  });

  it('产品 finds a lock by search and through the room tree', async () => {
    const imei = imeiWithCheckDigit('86888800000007');
    await goInApp(signedIn.page, '/RoomInquiry');
    await signedIn.page.fill('#room-search', imei);
    await signedIn.page.keyboard.press('Enter');
    await signedIn.page.locator(`.room-search-hit[data-imei="${imei}"]`).click();
    await signedIn.page.waitForURL((u) => u.searchParams.get('imei') === imei);
    await expect.poll(() => signedIn.page.locator('.room-lock-panel').textContent(), { timeout: 30_000 }).toContain('导入门锁7');
    expect(await signedIn.page.locator('.room-lock-panel [data-link="journal"]').getAttribute('href')).toContain(`imei=${imei}`);
    // Through the tree, fresh: building -> floor -> room.
    await signedIn.page.goto(signedIn.page.url().replace(/\?.*$/, ''));
    await expect.poll(() => signedIn.page.locator('.room-tree .ant-tree-treenode', { hasText: 'E2E栋' }).count(), { timeout: 30_000 }).toBe(1);
    await signedIn.page.locator('.room-tree .ant-tree-treenode', { hasText: 'E2E栋' }).locator('.ant-tree-switcher').click();
    await signedIn.page.locator('.room-tree .ant-tree-treenode', { hasText: '1层' }).first().locator('.ant-tree-switcher').click();
    await signedIn.page.locator(`.room-tree [data-imei="${imei}"]`).click();
    await signedIn.page.waitForURL((u) => u.searchParams.get('imei') === imei);
    await expect.poll(() => signedIn.page.locator('.room-lock-panel').textContent(), { timeout: 30_000 }).toContain('导入门锁7');
  });
});
