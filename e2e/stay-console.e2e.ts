/**
 * 入住管理's console pieces in Chromium, on a lock that beats every 2 s (861234500000000,
 * whose credentials no other e2e file touches): a booked stay's check-out is moved 30 minutes later and
 * its kind made 长租 in 修改 (the booking form's fields, filled with the stay) → saved; 门锁 shows the
 * door with the lock's IMEI and its user and password 正常; 今日未就绪 on 产品 RoomInquiry opens, lists a
 * stay booked for later today that is not issued yet (when later today is still today in the data
 * centre's zone) and its room picks the room's lock. Both stays are cancelled at the end.
 * 重试: on a lock registered here that never connects, a stay's door whose commands were cancelled
 * (添加失败) is retried from 门锁 → 添加中; the stay is cancelled and the lock decommissioned.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { apiGet, apiPost, chooseOption, hasChromium, url, useSignedInPage } from './browser.js';
import { emptyRoomOf } from './stay-room.js';

const IMEI = '861234500000000';
const MINUTE = 60_000;
type Stay = { id: number; state: string; kind: string; checkOutAt: string };
const iso = (ms: number) => new Date(ms).toISOString();
/** `YYYY-MM-DD HH:mm` plus `minutes`, as wall-clock arithmetic (no zone). */
function plusMinutes(wall: string, minutes: number): string {
  const [, y, mo, d, h, mi] = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/.exec(wall) ?? [];
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi)) + minutes * MINUTE);
  return at.toISOString().slice(0, 16).replace('T', ' ');
}

describe.skipIf(!hasChromium)('stays console: edit, doors, not ready today', () => {
  const session = useSignedInPage();

  it('edits a booked stay\'s check-out, shows its doors 正常 and lists today\'s stays not ready', async () => {
    const page = session.page;
    const room = await emptyRoomOf(page, IMEI);
    const now = Date.now();
    const guest = `E2E 修改 ${now % 100_000}`;
    // Check-in in 2 minutes: inside the lead time, so the doors are issued at once.
    const stay = await apiPost<Stay>(page, '/iot/v1/stay/add', { room, checkInAt: iso(now + 2 * MINUTE), checkOutAt: iso(now + 60 * MINUTE), guests: [{ name: guest, mobile: '13812340008' }] });

    await page.goto(url(`/roomInquiry?imei=${IMEI}`));
    await page.locator('.room-stays').click({ timeout: 60_000 });
    const row = page.locator('.stay-drawer .ant-table-row', { hasText: guest });
    await row.locator('.stay-edit').click();
    const modal = page.locator('.stay-edit-modal');
    // Both ends typed and confirmed, as the other range pickers' tests do; the start keeps its value.
    const range = modal.locator('.ant-picker-range input');
    await range.nth(1).waitFor();
    const values = [await range.nth(0).inputValue(), plusMinutes(await range.nth(1).inputValue(), 30)];
    for (const [index, value] of values.entries()) {
      await range.nth(index).click();
      await range.nth(index).fill(value);
      await range.nth(index).press('Enter');
    }
    expect(await modal.locator('.ant-select').filter({ has: page.locator('#stay-kind') }).textContent()).toContain('酒店住宿');
    await chooseOption(page, 'stay-kind', '长租');
    await modal.getByRole('button', { name: /保\s*存/ }).click();
    await modal.waitFor({ state: 'hidden' });
    const moved = await apiGet<Stay>(page, `/iot/v1/stay/detail?id=${stay.id}`);
    expect(Math.ceil((Date.parse(moved.checkOutAt) - Date.parse(stay.checkOutAt)) / MINUTE)).toBe(30);
    expect([stay.kind, moved.kind]).toEqual(['hotelNight', 'longLease']);

    await row.locator('.stay-doors').click();
    const doors = page.locator('.stay-doors-modal');
    await expect.poll(() => doors.locator('.stay-door-state[data-sync="normal"]').count(), { timeout: 30_000, interval: 500 }).toBe(2);
    expect(await doors.textContent()).toContain(IMEI);
    expect(await doors.textContent()).toContain('正常');
    await doors.locator('.ant-modal-close').click();

    // A stay later today (not issued yet: pending) is on the not-ready list when later is still today.
    const later = await apiPost<Stay>(page, '/iot/v1/stay/add', { room, checkInAt: iso(now + 100 * MINUTE), checkOutAt: iso(now + 130 * MINUTE), guests: [{ name: `${guest} 晚`, mobile: '13812340009' }] });
    const listed = (await apiGet<Stay[]>(page, '/iot/v1/stay/notReady')).some((s) => s.id === later.id);
    await page.goto(url('/roomInquiry'));
    await page.locator('.stay-not-ready').click();
    const drawer = page.locator('.stay-not-ready-drawer');
    await drawer.getByText('今日未就绪的入住').waitFor();
    if (listed) {
      const laterRow = drawer.locator('.ant-table-row', { hasText: `${guest} 晚` });
      await laterRow.waitFor();
      expect(await laterRow.textContent()).toContain('待下发');
      await laterRow.locator('.stay-not-ready-room').click();
      await page.waitForURL((u) => u.searchParams.get('imei') === IMEI);
    }
    for (const id of [stay.id, later.id]) await apiPost(page, '/iot/v1/stay/cancel', { id });
  });

  it('retries a failed door from 门锁: its user and password go 添加中', async () => {
    const page = session.page;
    const imei = imeiWithCheckDigit(`3570${String(Date.now()).slice(-10)}`);
    // A lock that never connects: the stay's commands wait in its queue, where they are cancelled (添加失败).
    const room = { building: 'E2E重试楼', floor: '1', room: imei.slice(-4) };
    const lock = await apiPost<{ id: number }>(page, '/iot/v1/lockDevice', { imei, name: `e2e 重试 ${imei.slice(-4)}`, model: 'ZG-NB100', ...room });
    const now = Date.now();
    const stay = await apiPost<Stay>(page, '/iot/v1/stay/add', { room, checkInAt: iso(now + 2 * MINUTE), checkOutAt: iso(now + 60 * MINUTE), guests: [{ name: `E2E 重试 ${now % 100_000}`, mobile: '13812340010' }] });
    const queued = await apiGet<{ records: { id: number }[] }>(page, `/iot/v1/logDownCommand/list?keyword=${imei}&state=QUEUED&size=50`);
    for (const command of queued.records) await apiPost(page, '/iot/v1/logDownCommand/cancel', { id: command.id });
    type Door = { userState: string; credentialState: string };
    await expect.poll(async () => (await apiGet<{ doors: Door[] }>(page, `/iot/v1/stay/detail?id=${stay.id}`)).doors.flatMap((d) => [d.userState, d.credentialState]),
      { timeout: 15_000 }).toEqual(['add_failed', 'add_failed']);

    await page.goto(url(`/roomInquiry?imei=${imei}`));
    await page.locator('.room-stays').click({ timeout: 60_000 });
    await page.locator('.stay-drawer .ant-table-row').first().locator('.stay-doors').click();
    const doors = page.locator('.stay-doors-modal');
    await expect.poll(() => doors.locator('.stay-door-state[data-sync="add_failed"]').count(), { timeout: 15_000 }).toBe(2);
    await doors.locator('.stay-door-retry').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(() => doors.locator('.stay-door-state[data-sync="adding"]').count(), { timeout: 15_000 }).toBe(2);
    expect(await doors.locator('.stay-door-retry').count()).toBe(0);
    expect(await doors.textContent()).toContain('添加中');
    await doors.locator('.ant-modal-close').click();
    await apiPost(page, '/iot/v1/stay/cancel', { id: stay.id });
    // Decommissioned so the fleet's pages do not keep an offline lock (a refusal leaves it, unused, in its own building).
    await apiPost(page, '/iot/v1/lockDevice/decommission', { id: lock.id }).catch(() => undefined);
  });
});
