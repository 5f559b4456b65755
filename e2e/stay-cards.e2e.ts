/**
 * 门卡 of 入住管理 (docs/stays.md "Cards") in Chromium, on the lock that beats every 2 s
 * (861234500000000, shared with stay-console.e2e.ts, which runs apart: e2e files run one at a time):
 * a stay issued at once gets a card typed in the 门卡 dialog → the guest's row shows it, the door's
 * card becomes 正常 and the simulated reader opens with it → 收回门卡 (confirmed) → the reader refuses it.
 */
import { describe, expect, it } from 'vitest';
import { apiGet, apiPost, hasChromium, url, useSignedInPage } from './browser.js';
import { emptyRoomOf } from './stay-room.js';

const IMEI = '861234500000000';
const MINUTE = 60_000;
type Stay = { id: number; state: string; doors: { released: boolean; cardState: string | null; cardCredentialId: number | null }[] };
const iso = (ms: number) => new Date(ms).toISOString();

describe.skipIf(!hasChromium)('stays console: cards', () => {
  const session = useSignedInPage();

  it('issues a card to a guest, opens the door with it, and takes it back', async () => {
    const page = session.page;
    const room = await emptyRoomOf(page, IMEI);
    const now = Date.now();
    const guest = `E2E 门卡 ${now % 100_000}`;
    // A card number of this attempt (a retry does not meet the card of the one before it).
    const card = `C0DE${String(now % 100_000_000).padStart(8, '0')}`;
    const stay = await apiPost<Stay>(page, '/iot/v1/stay/add', { room, checkInAt: iso(now + 2 * MINUTE), checkOutAt: iso(now + 60 * MINUTE), guests: [{ name: guest, mobile: '13812340018' }] });
    const present = () => apiPost<{ success: boolean }>(page, '/iot/v1/simulator/attemptOpen', { imei: IMEI, method: 'card', cardNumber: card, at: iso(now + 10 * MINUTE) });
    const detail = () => apiGet<Stay>(page, `/iot/v1/stay/detail?id=${stay.id}`);

    await page.goto(url(`/roomInquiry?imei=${IMEI}`));
    await page.locator('.room-stays').click({ timeout: 60_000 });
    const row = page.locator('.stay-drawer .ant-table-row', { hasText: guest });
    await row.locator('.stay-card').click();
    const modal = page.locator('.ant-modal', { hasText: '发放门卡' });
    await modal.getByText('该住客尚未领取门卡').waitFor();
    await modal.locator('#stay-card-number').fill('xyz');
    await modal.getByRole('button', { name: /发\s*放/ }).click();
    await modal.getByText('卡号须为 8-20 位十六进制字符').waitFor();
    await modal.locator('#stay-card-number').fill(card.toLowerCase());
    await modal.getByRole('button', { name: /发\s*放/ }).click();
    await modal.waitFor({ state: 'hidden' });
    await row.locator('.stay-guest-card', { hasText: card }).waitFor();

    await expect.poll(async () => (await detail()).doors.find((door) => !door.released)?.cardState, { timeout: 30_000, interval: 500 }).toBe('normal');
    expect((await present()).success).toBe(true);

    await row.locator('.stay-card').click();
    await modal.getByText(`当前门卡：${card}`).waitFor();
    await modal.locator('.stay-card-take-back').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click();
    await modal.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await detail()).doors.find((door) => !door.released)?.cardCredentialId, { timeout: 30_000, interval: 500 }).toBeNull();
    await expect.poll(async () => (await present()).success, { timeout: 30_000, interval: 500 }).toBe(false);
    await apiPost(page, '/iot/v1/stay/cancel', { id: stay.id });
  });
});
