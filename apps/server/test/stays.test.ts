/**
 * Stays with real simulated locks, on PGlite and PostgreSQL: book -> doors issued by the
 * stays job at the lead time (its pass run with an injected clock) -> the locks confirm -> ready ->
 * check in -> extend -> room change -> check out -> deleted; cancel and no-show; overlaps refused;
 * idempotent add; the 1-hour readiness check and today's not-ready list; tenant isolation; bad input.
 */
import type { EventMap } from '@iot/contract';
import { type Fleet, startFleet } from '@iot/simulator';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { auditLog, locks, lockUsers, stayDoors, stays } from '../src/db/schema.js';
import { attachSimulator } from '../src/demo/keypad.js';
import { runStays } from '../src/modules/stay/job.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, startOutboxEnv, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(ms).toISOString();
const quiet = { warn: () => {} };

describe.skipIf(skipSuite)('stays', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  const rooms: { building: string; floor: string; room: string }[] = [];
  const lockId = (index: number) => env.devices[index]?.lockId as number;
  const send = (method: 'GET' | 'POST', url: string, payload?: object, headers?: Record<string, string>, tenantId?: number) =>
    call(env.ctx.app, token, { method, url, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}), ...(tenantId ? { tenantId } : {}) });
  const post = async (url: string, payload: object) => dataOf(await send('POST', url, payload));
  const detail = async (id: number) => dataOf(await send('GET', `/iot/v1/stay/detail?id=${id}`));
  const waitReadiness = (id: number, readiness: string) => waitFor(() => detail(id), (stay) => stay.readiness === readiness, 15_000);
  const book = (room: object, checkInAt: number, checkOutAt: number, extra: object = {}) =>
    send('POST', '/iot/v1/stay/add', { room, guests: [{ name: '李雷', mobile: '13900000001' }], checkInAt: at(checkInAt), checkOutAt: at(checkOutAt), ...extra });
  const digitsOf = async (credentialId: number) => (await post('/iot/v1/operatePassword/reveal', { id: credentialId })).password as string;
  const attempt = (lock: number, password: string, when: number) =>
    post('/iot/v1/simulator/attemptOpen', { lockId: lock, method: 'password', password, at: at(when) });

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1, 2] });
    token = await signIn(env.ctx.app);
    // Room 0 gets two doors (locks 0 and 2); room 1 has lock 1; room 2 has lock 3, which never answers.
    const rows = await env.ctx.database.system.select().from(locks).where(inArray(locks.id, [lockId(0), lockId(1), lockId(3)]));
    for (const index of [0, 1, 3]) {
      const row = rows.find((lock) => lock.id === lockId(index));
      rooms.push({ building: row?.building as string, floor: row?.floor as string, room: row?.room as string });
    }
    await env.ctx.database.system.update(locks).set(rooms[0] as object).where(eq(locks.id, lockId(2)));
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 3) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    attachSimulator(env.ctx.app, fleet);
    await waitFor(() => fleet.devices.every((d) => d.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    await fleet?.stop();
    await env?.close();
  });

  it('issues the doors at the lead time, follows check-in, extend, room change and check-out', async () => {
    const checkIn = Date.now() + 3 * HOUR;
    const stay = dataOf(await book(rooms[0] as object, checkIn, checkIn + 24 * HOUR, { kind: 'shortRental', reference: 'PMS-1' }));
    expect(stay).toMatchObject({ state: 'BOOKED', readiness: 'pending', issuedAt: null, bufferBeforeMinutes: 30, bufferAfterMinutes: 30, kind: 'shortRental' });
    const dueAt = Date.parse(stay.issueDueAt);
    expect(dueAt).toBeLessThan(checkIn - HOUR); // 1 h before check-in minus at least one heartbeat interval
    // Before the lead time the job issues nothing and says when to wake.
    expect(await runStays(env.ctx.database, box, quiet)).toBeGreaterThan(0);
    expect(await env.ctx.database.system.select().from(stayDoors).where(eq(stayDoors.stayId, stay.id))).toEqual([]);
    await runStays(env.ctx.database, box, quiet, dueAt + 1000);
    const issued = await detail(stay.id);
    expect(issued.doors).toHaveLength(2);
    expect(issued.doors[0].imei).toMatch(/^\d{15}$/);
    expect(issued.issuedAt).not.toBeNull();
    const ready = await waitReadiness(stay.id, 'ready');
    expect(ready.doors.every((door: { userState: string; credentialState: string }) => door.userState === 'normal' && door.credentialState === 'normal')).toBe(true);
    // The guest's digits open both doors inside the window (buffer before included), not before it.
    const digits = await digitsOf(ready.doors[0].credentialId);
    expect(await digitsOf(ready.doors[1].credentialId)).toBe(digits);
    expect(await attempt(lockId(0), digits, checkIn - 20 * 60_000)).toMatchObject({ success: true });
    expect(await attempt(lockId(2), digits, checkIn + HOUR)).toMatchObject({ success: true });
    expect(await attempt(lockId(0), digits, checkIn - 40 * 60_000)).toMatchObject({ success: false, reason: 'notYetValid' });

    expect(await post('/iot/v1/stay/checkIn', { id: stay.id })).toMatchObject({ state: 'CHECKED_IN' });
    const extendedTo = checkIn + 48 * HOUR;
    expect(await post('/iot/v1/stay/edit', { id: stay.id, checkOutAt: at(extendedTo), reference: 'PMS-1b' })).toMatchObject({ checkOutAt: at(extendedTo), reference: 'PMS-1b' });
    await waitReadiness(stay.id, 'ready');
    expect(await attempt(lockId(0), digits, checkIn + 40 * HOUR)).toMatchObject({ success: true });

    const moved = await post('/iot/v1/stay/changeRoom', { id: stay.id, room: rooms[1] });
    expect(moved).toMatchObject({ room: rooms[1]?.room, building: rooms[1]?.building });
    const inNewRoom = await waitReadiness(stay.id, 'ready');
    const oldUsers = inNewRoom.doors.filter((door: { released: boolean }) => door.released).map((door: { lockUserId: number }) => door.lockUserId);
    expect(oldUsers).toHaveLength(2);
    await waitFor(() => env.ctx.database.system.select().from(lockUsers).where(inArray(lockUsers.id, oldUsers)), (rows) => rows.length === 0);
    const newDoor = inNewRoom.doors.find((door: { released: boolean }) => !door.released);
    expect(newDoor.lockId).toBe(lockId(1));
    expect(await digitsOf(newDoor.credentialId)).toBe(digits);
    expect(await attempt(lockId(0), digits, checkIn + HOUR)).toMatchObject({ success: false });

    const out = await post('/iot/v1/stay/checkOut', { id: stay.id });
    expect(out).toMatchObject({ state: 'CHECKED_OUT', readiness: 'none' });
    await waitFor(() => env.ctx.database.system.select().from(lockUsers).where(eq(lockUsers.id, newDoor.lockUserId)), (rows) => rows.length === 0);
    expect((await detail(stay.id)).doors.every((door: { released: boolean; userState: string }) => door.released && door.userState === 'deleted')).toBe(true);
    expect(await attempt(lockId(1), digits, checkIn + HOUR)).toMatchObject({ success: false });
    // Every change wrote its system-log row.
    const audit = await env.ctx.database.system.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.target, String(stay.id)));
    expect(audit.map((row) => row.action).filter((action) => action.includes('/stay/')).sort()).toEqual(['POST /iot/v1/stay/changeRoom', 'POST /iot/v1/stay/checkIn', 'POST /iot/v1/stay/checkOut', 'POST /iot/v1/stay/edit']);
    // A finished stay moves no more.
    expect((await send('POST', '/iot/v1/stay/checkIn', { id: stay.id })).statusCode).toBe(409);
  });

  it('cancels and marks no-shows, deleting what was issued; refuses overlaps in zh and en', async () => {
    const later = Date.now() + 10 * 24 * HOUR;
    const booked = dataOf(await book(rooms[0] as object, later, later + 24 * HOUR));
    const overlap = await book(rooms[0] as object, later + HOUR, later + 30 * HOUR);
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().errors[0]).toMatchObject({ field: 'body.checkInAt', message: { 'zh-CN': expect.stringContaining('该房间'), 'en-US': expect.stringContaining('already has a stay') } });
    expect(await post('/iot/v1/stay/cancel', { id: booked.id })).toMatchObject({ state: 'CANCELLED', readiness: 'none' });
    expect(await env.ctx.database.system.select().from(stayDoors).where(eq(stayDoors.stayId, booked.id))).toEqual([]);
    // The cancelled stay no longer holds the room.
    const again = dataOf(await book(rooms[0] as object, later + HOUR, later + 30 * HOUR));
    expect((await send('POST', '/iot/v1/stay/noShow', { id: again.id })).statusCode).toBe(409); // not yet check-in time
    await post('/iot/v1/stay/cancel', { id: again.id });

    // A walk-in past its lead time is issued at once; a no-show deletes its doors.
    const walkIn = dataOf(await book(rooms[0] as object, Date.now() - 60_000, Date.now() + 5 * HOUR));
    expect(walkIn.issuedAt).not.toBeNull();
    const issued = await waitReadiness(walkIn.id, 'ready');
    expect(await post('/iot/v1/stay/noShow', { id: walkIn.id })).toMatchObject({ state: 'NO_SHOW' });
    const users = issued.doors.map((door: { lockUserId: number }) => door.lockUserId);
    await waitFor(() => env.ctx.database.system.select().from(lockUsers).where(inArray(lockUsers.id, users)), (rows) => rows.length === 0);
  });

  it('books once per Idempotency-Key; the same key with another body is 422', async () => {
    const start = Date.now() + 20 * 24 * HOUR;
    const headers = { 'idempotency-key': 'pms-booking-0001' };
    const payload = { room: rooms[1], guests: [{ name: '韩梅梅', mobile: '13900000002', idCardNumber: '11010519491231002X' }], checkInAt: at(start), checkOutAt: at(start + 24 * HOUR) };
    const first = dataOf(await send('POST', '/iot/v1/stay/add', payload, headers));
    const second = await send('POST', '/iot/v1/stay/add', payload, headers);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(dataOf(second).id).toBe(first.id);
    expect(first.guests[0].idCardMasked).toBe('**************002X');
    const list = dataOf(await send('GET', `/iot/v1/stay/list?guest=${encodeURIComponent('韩梅梅')}`));
    expect(list.total).toBe(1);
    expect(await env.ctx.database.system.select().from(stays).where(eq(stays.id, first.id))).toHaveLength(1);
    const other = await send('POST', '/iot/v1/stay/add', { ...payload, checkOutAt: at(start + 48 * HOUR) }, headers);
    expect(other.statusCode).toBe(422);
    expect(JSON.stringify(list)).not.toContain('11010519491231002X');
  });

  it('checks readiness 1 hour before check-in once, and lists today\'s stays that are not ready', async () => {
    const events: EventMap['stay.notReady'][] = [];
    const stop = env.ctx.database.events.on('stay.notReady', (payload) => { events.push(payload); });
    try {
      // Room 2's lock never answers: its doors stay queued.
      const checkIn = Date.now() + 2 * HOUR;
      const stay = dataOf(await book(rooms[2] as object, checkIn, checkIn + 24 * HOUR));
      await runStays(env.ctx.database, box, quiet, Date.parse(stay.issueDueAt) + 1000);
      expect((await detail(stay.id)).readiness).toBe('queued');
      await runStays(env.ctx.database, box, quiet, checkIn - HOUR + 1000);
      await runStays(env.ctx.database, box, quiet, checkIn - HOUR + 2000);
      await waitFor(() => events.filter((event) => event.stayId === stay.id), (list) => list.length === 1);
      expect(events.find((event) => event.stayId === stay.id)).toMatchObject({ queuedDoors: 1, failedDoors: 0 });
      // Today's list: a walk-in whose door is still queued (checked in a second ago, so it is today).
      const walkIn = dataOf(await book(rooms[2] as object, Date.now() - 1000, Date.now() + HOUR));
      const list = dataOf(await send('GET', '/iot/v1/stay/notReady'));
      expect(list.map((item: { id: number }) => item.id)).toContain(walkIn.id);
      expect(list.every((item: { readiness: string }) => item.readiness !== 'ready')).toBe(true);
    } finally {
      stop();
    }
  });

  it('keeps stays to their data centre', async () => {
    const list = dataOf(await send('GET', '/iot/v1/stay/list'));
    expect(list.total).toBeGreaterThan(0);
    const id = list.records[0].id;
    expect(dataOf(await send('GET', '/iot/v1/stay/list', undefined, undefined, 101)).total).toBe(0);
    expect((await send('GET', `/iot/v1/stay/detail?id=${id}`, undefined, undefined, 101)).statusCode).toBe(404);
    expect((await send('POST', '/iot/v1/stay/cancel', { id }, undefined, 101)).statusCode).toBe(404);
  });

  it('refuses bad input with 400 naming the fields', async () => {
    const response = await send('POST', '/iot/v1/stay/add', { room: { building: 'A', floor: '1', room: '' }, guests: [{ name: '', mobile: '12' }], checkInAt: 'tomorrow', checkOutAt: at(Date.now()) });
    expect(response.statusCode).toBe(400);
    const fields = response.json().errors.map((error: { field: string }) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['body.room.room', 'body.guests.0.name', 'body.guests.0.mobile', 'body.checkInAt']));
    const order = await book(rooms[0] as object, Date.now() + 5 * HOUR, Date.now() + 4 * HOUR);
    expect(order.statusCode).toBe(400);
    expect(order.json().errors[0].field).toBe('body.checkOutAt');
    const noLock = await book({ building: '无', floor: '无', room: '无' }, Date.now() + HOUR, Date.now() + 2 * HOUR);
    expect(noLock.statusCode).toBe(400);
    expect(noLock.json().errors[0]).toMatchObject({ field: 'body.room', message: { 'zh-CN': '该房间没有门锁', 'en-US': 'This room has no lock' } });
  });
});
