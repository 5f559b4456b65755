/**
 * Stays (issue #27) in Chromium with the simulated fleet: a walk-in guest of the room whose lock sleeps
 * (E2E_SLEEPING_IMEI, a heartbeat every 10 s) is checked in on 入住管理 → the code waits for the lock's
 * wake (the light says how many doors are queued; how long it shows depends on where in its sleep the
 * lock is, so it is not asserted) → the light turns to 全部门锁就绪 without a reload → the guest's code
 * opens the simulated keypad → 退房 → once the lock has woken again, the code is refused at the keypad.
 * (Backup codes for a lock still asleep at check-in are not built yet: docs/stays.md.)
 */
import { describe, expect, it } from 'vitest';
import { apiGet, apiPost, hasChromium, url, useSignedInPage } from './browser.js';
import { E2E_SLEEPING_HEARTBEAT_S, E2E_SLEEPING_IMEI } from './global-setup.js';

type Stay = { id: number; state: string; readiness: string; guests: { name: string }[] };
type Detail = Stay & { doors: { credentialId: number | null; credentialState: string | null; released: boolean }[] };
/** Long enough for the sleeping lock to wake twice (its heartbeat every 10 s, the wake window and the commands), ms. */
const WAKE_MS = (E2E_SLEEPING_HEARTBEAT_S * 3 + 15) * 1000;

describe.skipIf(!hasChromium)('stays: from check-in to check-out on a sleeping lock', () => {
  const session = useSignedInPage();

  it('checks a walk-in guest in, shows the door queued then ready, opens with the code, and refuses it after check-out', async () => {
    const page = session.page;
    const [lock] = await apiGet<{ location: { building: string; floor: string; room: string } }[]>(page, `/iot/v1/lockDevice/lockRoomList?keyword=${E2E_SLEEPING_IMEI}&size=1`);
    const room = lock?.location ?? { building: '', floor: '', room: '' };
    // A stay of an earlier attempt would overlap: end it.
    const query = new URLSearchParams({ ...room, current: '1', size: '50' });
    for (const old of (await apiGet<{ records: Stay[] }>(page, `/iot/v1/stay/list?${query}`)).records) {
      if (old.state === 'BOOKED') await apiPost(page, '/iot/v1/stay/cancel', { id: old.id });
      if (old.state === 'CHECKED_IN' || old.state === 'SUSPENDED') await apiPost(page, '/iot/v1/stay/checkOut', { id: old.id });
    }
    const guest = `E2E 住客 ${Date.now() % 100_000}`;
    const checkInAt = new Date(Date.now() + 60_000).toISOString();
    const checkOutAt = new Date(Date.now() + 86_400_000).toISOString();
    const booked = await apiPost<Stay>(page, '/iot/v1/stay/add', { room, kind: 'hotelNight', checkInAt, checkOutAt, guests: [{ name: guest, mobile: '13812345678' }] });

    await page.goto(url(`/roomInquiry?imei=${E2E_SLEEPING_IMEI}`));
    await page.locator('.room-stays').click();
    const row = page.locator('.stay-drawer .ant-table-row', { hasText: guest });
    await row.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: '办理入住' }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000, interval: 300 }).toContain('已入住');
    // The sleeping lock takes the code at its wake and confirms it: no reload in between.
    await expect.poll(() => row.textContent(), { timeout: WAKE_MS, interval: 500 }).toContain('全部门锁就绪');

    const detail = await apiGet<Detail>(page, `/iot/v1/stay/detail?id=${booked.id}`);
    const credentialId = detail.doors.find((door) => door.credentialId !== null)?.credentialId;
    const { password } = await apiPost<{ password: string }>(page, '/iot/v1/operatePassword/reveal', { id: credentialId });
    const attempt = () => apiPost<{ success: boolean }>(page, '/iot/v1/simulator/attemptOpen', { imei: E2E_SLEEPING_IMEI, method: 'password', password });
    expect((await attempt()).success).toBe(true);

    await row.getByRole('button', { name: '退房' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /^(确\s*定|OK)$/ }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000, interval: 300 }).toContain('已退房');
    // The delete reaches the lock at its next wake; from then on the keypad refuses the code.
    await expect.poll(async () => (await attempt()).success, { timeout: WAKE_MS, interval: 1000 }).toBe(false);
  });
});
