/**
 * The room of a simulated lock for the stays' e2e files (the flows share one fast-beating lock and run
 * one file at a time): found through lockRoomList, and emptied of the stays an earlier file or attempt
 * left there (booked ones cancelled, checked-in or suspended ones checked out).
 */
import type { Page } from 'playwright-core';
import { apiGet, apiPost } from './browser.js';

export interface Room {
  building: string;
  floor: string;
  room: string;
}

/** The room of the lock with IMEI `imei`, with no active stay left in it. */
export async function emptyRoomOf(page: Page, imei: string): Promise<Room> {
  const [lock] = await apiGet<{ location: Room }[]>(page, `/iot/v1/lockDevice/lockRoomList?keyword=${imei}&size=1`);
  const room = lock?.location ?? { building: '', floor: '', room: '' };
  const stays = await apiGet<{ records: { id: number; state: string }[] }>(page, `/iot/v1/stay/list?${new URLSearchParams({ ...room, current: '1', size: '50' })}`);
  for (const old of stays.records) {
    if (old.state === 'BOOKED') await apiPost(page, '/iot/v1/stay/cancel', { id: old.id });
    if (old.state === 'CHECKED_IN' || old.state === 'SUSPENDED') await apiPost(page, '/iot/v1/stay/checkOut', { id: old.id });
  }
  return room;
}
