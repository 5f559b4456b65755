/**
 * Stays in Chromium with the simulated fleet, on the room whose lock sleeps
 * (E2E_SLEEPING_IMEI, a heartbeat every 10 s, ~8 s asleep between wakes): the lock's backup-code pool
 * was filled in advance by the backup-code job → a guest booked for later today (doors open from now:
 * a long buffer before) is checked in on 入住管理 just after the lock fell asleep, so the guest's code
 * is queued (the light: queued) → 备用密码 issues a backup code, shown in a modal → the simulated keypad
 * accepts it at once → the lock wakes: the light turns to 全部门锁就绪 without a reload, the backup code
 * is retired (its delete reaches the lock) and the keypad refuses it, while the guest's own code opens →
 * 退房 → once the lock has woken again, the keypad refuses the guest's code too.
 */
import type { BackupCodePool, BackupCodeRecord, LockQueue } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { apiGet, apiPost, hasChromium, url, useSignedInPage } from './browser.js';
import { E2E_SLEEPING_HEARTBEAT_S, E2E_SLEEPING_IMEI } from './global-setup.js';

type Stay = { id: number; state: string; readiness: string; guests: { name: string }[] };
type Detail = Stay & { doors: { credentialId: number | null; credentialState: string | null; released: boolean }[] };
/** Long enough for the sleeping lock to wake twice (its heartbeat every 10 s, the wake window and the commands), ms. */
const WAKE_MS = (E2E_SLEEPING_HEARTBEAT_S * 3 + 15) * 1000;
/**
 * Check-in starts only while at least this much of the lock's sleep lies ahead, ms (of ~8 s), so the
 * backup code is issued while the guest's code is still queued, even on a loaded machine.
 */
const SLEEP_AHEAD_MS = 6000;
const HOUR = 3600_000;

describe.skipIf(!hasChromium)('stays: from check-in to check-out on a sleeping lock', () => {
  const session = useSignedInPage();

  it('checks a guest in while the lock sleeps, issues a backup code the keypad accepts, retires it once the guest\'s code is 正常, and refuses the codes after check-out', async () => {
    const page = session.page;
    const [lock] = await apiGet<{ id: number; location: { building: string; floor: string; room: string } }[]>(page, `/iot/v1/lockDevice/lockRoomList?keyword=${E2E_SLEEPING_IMEI}&size=1`);
    const lockId = lock?.id as number;
    const room = lock?.location ?? { building: '', floor: '', room: '' };
    // A stay of an earlier attempt would overlap: end it.
    const query = new URLSearchParams({ ...room, current: '1', size: '50' });
    for (const old of (await apiGet<{ records: Stay[] }>(page, `/iot/v1/stay/list?${query}`)).records) {
      if (old.state === 'BOOKED') await apiPost(page, '/iot/v1/stay/cancel', { id: old.id });
      if (old.state === 'CHECKED_IN' || old.state === 'SUSPENDED') await apiPost(page, '/iot/v1/stay/checkOut', { id: old.id });
    }
    // The pool was filled ahead of any stay (it is installed only while the lock is awake): a code is ready.
    await expect.poll(async () => (await apiGet<BackupCodePool>(page, `/iot/v1/stay/backupCodePool?lockId=${lockId}`)).available, { timeout: WAKE_MS, interval: 1000 }).toBeGreaterThan(0);
    // Booked for later today with the doors open from now on (3 h early), so nothing is sent before check-in.
    const guest = `E2E 住客 ${Date.now() % 100_000}`;
    const checkInAt = new Date(Date.now() + 2 * HOUR).toISOString();
    const checkOutAt = new Date(Date.now() + 26 * HOUR).toISOString();
    const booked = await apiPost<Stay>(page, '/iot/v1/stay/add', { room, kind: 'hotelNight', checkInAt, checkOutAt, bufferBeforeMinutes: 180, guests: [{ name: guest, mobile: '13812345678' }] });
    expect(booked.readiness).toBe('pending');

    await page.goto(url(`/roomInquiry?imei=${E2E_SLEEPING_IMEI}`));
    await page.locator('.room-stays').click();
    const row = page.locator('.stay-drawer .ant-table-row', { hasText: guest });
    await row.waitFor({ timeout: 30_000 });
    // Check in at a fresh sleep of the lock, as its queue shows it: its wake window is over and most of the sleep lies ahead.
    await expect.poll(async () => {
      const queue = await apiGet<LockQueue>(page, `/iot/v1/logDownCommand/simpleList?lockId=${lockId}`);
      return !queue.awake && queue.nextWakeAt !== null && Date.parse(queue.nextWakeAt) - Date.now() >= SLEEP_AHEAD_MS;
    }, { timeout: 3 * E2E_SLEEPING_HEARTBEAT_S * 1000, interval: 100 }).toBe(true);
    await row.getByRole('button', { name: '办理入住' }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000, interval: 200 }).toContain('已入住');
    expect(await row.textContent()).toContain('排队中');
    // 备用密码: confirmed, then the modal shows the code.
    await row.getByRole('button', { name: '备用密码' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /^(确\s*定|OK)$/ }).click();
    const shown = page.locator('[data-testid="backup-code"]');
    await shown.waitFor({ timeout: 15_000 });
    const backup = (await shown.textContent())?.trim() as string;
    expect(backup).toMatch(/^\d{6,}$/);
    const attempt = (password: string) => apiPost<{ success: boolean }>(page, '/iot/v1/simulator/attemptOpen', { imei: E2E_SLEEPING_IMEI, method: 'password', password });
    // The lock is still asleep: the backup code opens at once, nothing was sent to it.
    expect((await attempt(backup)).success).toBe(true);
    await page.locator('.ant-modal-footer').getByRole('button', { name: /^(关\s*闭|Close)$/ }).click();

    // The sleeping lock takes the guest's code at its wake and confirms it: no reload in between.
    await expect.poll(() => row.textContent(), { timeout: WAKE_MS, interval: 500 }).toContain('全部门锁就绪');
    // The backup code is retired: its delete reaches the lock (at that wake or the next), then the keypad refuses it.
    await expect.poll(async () => (await apiGet<BackupCodeRecord[]>(page, `/iot/v1/stay/backupCodes?stayId=${booked.id}`))[0]?.userState, { timeout: WAKE_MS, interval: 1000 }).toBe('deleted');
    const [retired] = await apiGet<BackupCodeRecord[]>(page, `/iot/v1/stay/backupCodes?stayId=${booked.id}`);
    expect(retired).toMatchObject({ state: 'retired', retireReason: 'synced' });
    expect((await attempt(backup)).success).toBe(false);

    const detail = await apiGet<Detail>(page, `/iot/v1/stay/detail?id=${booked.id}`);
    const credentialId = detail.doors.find((door) => door.credentialId !== null && !door.released)?.credentialId;
    const { password } = await apiPost<{ password: string }>(page, '/iot/v1/operatePassword/reveal', { id: credentialId });
    expect((await attempt(password)).success).toBe(true);

    await row.getByRole('button', { name: '退房' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: /^(确\s*定|OK)$/ }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000, interval: 300 }).toContain('已退房');
    // The delete reaches the lock at its next wake; from then on the keypad refuses the guest's code, and still the backup code.
    await expect.poll(async () => (await attempt(password)).success, { timeout: WAKE_MS, interval: 1000 }).toBe(false);
    expect((await attempt(backup)).success).toBe(false);
  });
});
