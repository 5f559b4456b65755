/**
 * Device types and the lock registry in Chromium: register a lock in 门锁信息 marked simulated, see its secret once, see the demo
 * simulator bring it online, open its 设备信息 page from its IMEI link, add it to a group (门锁信息's
 * batch action, a group created in 分组管理) and find it in that group's list and on its page.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { chooseOption, goInApp, hasChromium, rows, useSignedInPage } from './browser.js';

const IMEI = imeiWithCheckDigit(`3569${String(Date.now()).slice(-10)}`);
const GROUP = `e2e 分组 ${IMEI.slice(-4)}`;

describe.skipIf(!hasChromium)('device registry, 设备信息 and groups', () => {
  const signedIn = useSignedInPage();

  const searchLockInfo = async (keyword: string) => {
    await goInApp(signedIn.page, '/lockInfo');
    await signedIn.page.fill('#lock-keyword', keyword);
    await signedIn.page.getByRole('button', { name: '查 询' }).or(signedIn.page.getByRole('button', { name: '查询' })).click();
    // The URL, polled: 门锁信息's tab may already hold this search (tabs keep their location),
    // and then no navigation comes for waitForURL to wait for.
    await expect.poll(() => new URL(signedIn.page.url()).searchParams.get('keyword'), { timeout: 30_000 }).toBe(keyword);
    await expect.poll(() => rows(signedIn.page, keyword).count(), { timeout: 30_000 }).toBe(1);
  };

  it('registers a simulated lock, shows its secret once, and sees it come online', async () => {
    await goInApp(signedIn.page, '/lockInfo');
    await signedIn.page.getByRole('button', { name: /登记门锁/ }).click();
    await signedIn.page.fill('#lock-imei', IMEI);
    await signedIn.page.fill('#lock-name', 'e2e 登记门锁');
    await chooseOption(signedIn.page, 'lock-model', 'ZG-NB100'); // checked and retried: the types arrive after the dialog opens
    await signedIn.page.fill('#lock-building', 'E栋');
    await signedIn.page.click('#lock-simulated');
    await signedIn.page.locator('.ant-modal-footer .ant-btn-primary').first().click();
    const secret = signedIn.page.locator('.device-secret');
    await expect.poll(() => secret.textContent(), { timeout: 15_000 }).toMatch(/^[0-9a-f]{32}$/);
    const shown = (await secret.textContent()) ?? '';
    await signedIn.page.getByRole('button', { name: /我已保存密钥/ }).click();
    // Shown once: closing the dialog forgets it, nowhere on the signedIn.page any more.
    await expect.poll(() => signedIn.page.locator('.device-secret:visible').count()).toBe(0);
    await expect.poll(() => signedIn.page.content(), { timeout: 10_000 }).not.toContain(shown);
    await searchLockInfo(IMEI);
    // The demo simulator starts it within seconds; its heartbeats make it online.
    await expect.poll(() => rows(signedIn.page, IMEI).first().textContent(), { timeout: 60_000 }).toContain('在线');
  });

  it('opens 设备信息 from the IMEI link', async () => {
    await searchLockInfo(IMEI);
    await rows(signedIn.page, IMEI).first().locator('a.lock-link', { hasText: IMEI }).click();
    await signedIn.page.waitForURL((u) => u.pathname === '/api/Information' && u.searchParams.get('imei') === IMEI);
    await expect.poll(() => signedIn.page.locator('.information-imei').textContent(), { timeout: 30_000 }).toBe(IMEI);
    await expect.poll(() => signedIn.page.locator('.information-online').textContent(), { timeout: 30_000 }).toBe('在线');
    expect(await signedIn.page.locator('.information-config').count()).toBe(1);
    expect(await signedIn.page.locator('.information-credentials .ant-table-row').count()).toBe(4);
  });

  it('adds it to a new group from 门锁信息 and finds it in the group\'s list and on its page', async () => {
    await goInApp(signedIn.page, '/groupManagement');
    await signedIn.page.click('#group-create');
    await signedIn.page.fill('#group-name', GROUP);
    await signedIn.page.locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(() => rows(signedIn.page, GROUP).count(), { timeout: 15_000 }).toBe(1);

    await searchLockInfo(IMEI);
    await rows(signedIn.page, IMEI).first().locator('.ant-checkbox-input').check();
    await signedIn.page.click('#lock-add-to-group');
    await signedIn.page.locator('#group-pick').click();
    await signedIn.page.locator('.ant-select-item-option', { hasText: GROUP }).click();
    await signedIn.page.click('#group-add-ok');
    await expect.poll(() => signedIn.page.locator('.ant-message-success').textContent(), { timeout: 15_000 }).toContain('已添加 1 把门锁');

    await goInApp(signedIn.page, '/groupManagement');
    await expect.poll(() => rows(signedIn.page, GROUP).first().textContent(), { timeout: 15_000 }).toContain('1');
    await rows(signedIn.page, GROUP).first().locator('.group-name').click();
    await expect.poll(() => signedIn.page.locator('.group-members .ant-table-row').filter({ hasText: IMEI }).count(), { timeout: 15_000 }).toBe(1);
    // The group's list in 门锁信息, and the group on the lock's own signedIn.page.
    await signedIn.page.getByRole('link', { name: '在门锁信息中查看' }).click();
    await signedIn.page.waitForURL((u) => u.pathname === '/api/lockInfo' && u.searchParams.has('groupId'));
    await expect.poll(() => rows(signedIn.page).allTextContents(), { timeout: 15_000 }).toEqual([expect.stringContaining(IMEI)]);
    await rows(signedIn.page, IMEI).first().locator('a.lock-link', { hasText: IMEI }).click();
    await expect.poll(() => signedIn.page.locator('.information-groups').textContent(), { timeout: 30_000 }).toContain(GROUP);
  });
});
