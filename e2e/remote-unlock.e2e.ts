/**
 * Remote unlock in a real browser against the started server and its simulated fleet
 * (global-setup.ts: two always-online 4G Cat.1 locks, E2E_ONLINE_IMEI first, beside the NB-IoT ones):
 * - an operator opens an always-online lock's 设备信息, asks for a remote unlock with a reason, sees it
 *   reach the lock (SUCCESSFUL) and the unlock record with method 远程 and the operator's name;
 * - a sleeping NB-IoT lock's card says why it offers none;
 * - a high-security door waits for a second operator: the demo `operator` (given the approving
 *   authority for this test, then restored) signs in, approves, and the door opens.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, apiPost, hasChromium, launchBrowser, newPage, rows, signInThroughUi, url } from './browser.js';
import { E2E_ONLINE_IMEI, E2E_OPERATOR_PASSWORD, E2E_SLEEPING_IMEI } from './global-setup.js';

/** The second always-online lock: marked high-security here. */
const HIGH_SECURITY_IMEI = '861234590000001';
const STAMP = Date.now().toString(36);

const card = (page: Page) => page.locator('.information-remote-unlock');
/** The raw state (data-state) of the card's request row whose reason is `reason`. */
const stateOf = (page: Page, reason: string) => rows(page, reason).locator('[data-state]').getAttribute('data-state');

async function openInformation(page: Page, imei: string) {
  await page.goto(url(`/Information?imei=${imei}`));
  await card(page).waitFor({ timeout: 60_000 });
}

async function askRemoteUnlock(page: Page, reason: string, button: RegExp) {
  await card(page).locator('.remote-unlock-reason').fill(reason);
  await card(page).getByRole('button', { name: button }).click();
  await expect.poll(() => rows(page, reason).count(), { timeout: 15_000 }).toBe(1);
}

/** The lock's remote unlock records (method remote) as 开锁日志 lists them: operator per row. */
async function remoteRecords(page: Page, imei: string): Promise<string[]> {
  await page.goto(url(`/lockOpenRecordLog?imei=${imei}&method=remote`));
  const remote = rows(page).filter({ hasText: '远程' });
  await expect.poll(() => remote.count(), { timeout: 30_000 }).toBeGreaterThan(0);
  return remote.allTextContents();
}

describe.skipIf(!hasChromium)('remote unlock in 设备信息', () => {
  let browser: Browser;
  let admin: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newPage(browser);
    await signInThroughUi(admin);
  });
  afterAll(() => browser?.close());

  it('opens an always-online lock: the request reaches it and the unlock record says remote and who asked', async () => {
    await openInformation(admin, E2E_ONLINE_IMEI);
    expect(await admin.locator('.information-page').textContent()).toContain('常在线（4G Cat.1 / Wi-Fi）');
    // A reason is required: the button waits for one.
    expect(await card(admin).getByRole('button', { name: /立即开锁/ }).isDisabled()).toBe(true);
    const reason = `访客忘带钥匙 e2e-${STAMP}`;
    await askRemoteUnlock(admin, reason, /立即开锁/);
    await expect.poll(() => stateOf(admin, reason), { timeout: 45_000, interval: 300 }).toBe('SUCCESSFUL');
    expect(await rows(admin, reason).textContent()).toContain('admin');
    expect((await remoteRecords(admin, E2E_ONLINE_IMEI)).some((text) => text.includes('admin') && text.includes('成功'))).toBe(true);
  });

  it('a sleeping NB-IoT lock says why it offers no remote unlock', async () => {
    await openInformation(admin, E2E_SLEEPING_IMEI);
    expect(await card(admin).textContent()).toContain('NB-IoT 休眠门锁');
    expect(await card(admin).locator('.remote-unlock-reason').count()).toBe(0);
  });

  describe('a high-security door', () => {
    const reason = `机房巡检 e2e-${STAMP}`;
    let operatorId: number;
    let before: { bound: { id: number }[] };
    let roleId: number;
    beforeAll(async () => {
      // The demo operator may approve for these tests (a role with LOCK_REMOTE_UNLOCK_APPROVE beside its own), restored after.
      const accounts = await apiGet<{ records: { id: number; username: string }[] }>(admin, '/v1/account/queryAll?keyword=operator&current=1&size=10');
      operatorId = accounts.records.find((account) => account.username === 'operator')?.id as number;
      before = await apiGet<{ bound: { id: number }[] }>(admin, `/v1/account/queryRoles?accountId=${operatorId}`);
      roleId = (await apiPost<{ id: number }>(admin, '/v1/sysRole/add', { name: `e2e 审批远程开锁 ${STAMP}`, authorities: ['LOCK_REMOTE_UNLOCK_APPROVE'] })).id;
      await apiPost(admin, '/v1/sysUserRole/bind', { accountId: operatorId, roleIds: [...before.bound.map((r) => r.id), roleId] });
    });
    afterAll(async () => {
      if (roleId === undefined) return;
      await apiPost(admin, '/v1/sysUserRole/bind', { accountId: operatorId, roleIds: before.bound.map((r) => r.id) });
      await apiPost(admin, '/v1/sysRole/delete', { id: roleId });
    });

    it('is marked high-security; a request waits for a second operator, and the requester cannot approve it', async () => {
      await openInformation(admin, HIGH_SECURITY_IMEI);
      await card(admin).locator('.ant-switch').click();
      await expect.poll(() => card(admin).getByRole('button', { name: /申请开锁/ }).count(), { timeout: 30_000 }).toBe(1);
      await askRemoteUnlock(admin, reason, /申请开锁/);
      expect(await stateOf(admin, reason)).toBe('awaitingApproval');
      expect(await rows(admin, reason).getByRole('button', { name: /批\s*准/ }).count()).toBe(0);
    });

    it('the other demo account approves it; the door opens and the unlock record names the requester', async () => {
      const operator = await newPage(browser);
      await signInThroughUi(operator, 'operator', E2E_OPERATOR_PASSWORD);
      await openInformation(operator, HIGH_SECURITY_IMEI);
      await rows(operator, reason).getByRole('button', { name: /批\s*准/ }).click();
      await expect.poll(() => stateOf(operator, reason), { timeout: 45_000, interval: 300 }).toBe('SUCCESSFUL');
      expect(await rows(operator, reason).textContent()).toMatch(/admin.*operator/);
      await operator.context().close();
      // The requester's page shows it done too; the unlock record names the requester.
      await expect.poll(() => stateOf(admin, reason), { timeout: 30_000, interval: 500 }).toBe('SUCCESSFUL');
      expect((await remoteRecords(admin, HIGH_SECURITY_IMEI)).some((text) => text.includes('admin'))).toBe(true);
    });
  });
});
