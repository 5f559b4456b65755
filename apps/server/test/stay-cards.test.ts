/**
 * Guests' cards (docs/stays.md "Cards") with real simulated locks, on PGlite and PostgreSQL:
 * a card booked with the guest is held on the room's door beside the password (the simulated reader
 * opens with it); the front desk replaces it and takes it back (POST /iot/v1/stay/card), each a card
 * add / delete with its sync state, and readiness waits for it; check-out drops it with the lock user.
 * Refused: two guests with one card, a card another overlapping stay holds, bad numbers, a guest of
 * another stay, another data centre's stay; the system log records the issue.
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { auditLog, locks } from '../src/db/schema.js';
import { attachSimulator } from '../src/demo/keypad.js';
import { runStays } from '../src/modules/stay/job.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, startOutboxEnv, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(ms).toISOString();
const quiet = { warn: () => {} };
const ROOM = { building: '门卡楼', floor: '2', room: '201' };
type Door = { lockId: number; released: boolean; cardState: string | null; cardCredentialId: number | null };

describe.skipIf(skipSuite)('cards of stays', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  const lockId = () => env.devices[0]?.lockId as number;
  const send = (method: 'GET' | 'POST', url: string, payload?: object, tenantId?: number) =>
    call(env.ctx.app, token, { method, url, ...(payload ? { payload } : {}), ...(tenantId ? { tenantId } : {}) });
  const post = async (url: string, payload: object) => dataOf(await send('POST', url, payload));
  const detail = async (id: number) => dataOf(await send('GET', `/iot/v1/stay/detail?id=${id}`));
  const present = (cardNumber: string, when: number) => post('/iot/v1/simulator/attemptOpen', { lockId: lockId(), method: 'card', cardNumber, at: at(when) });
  const open = (id: number) => detail(id).then((stay) => ({ ...stay, live: stay.doors.filter((door: Door) => !door.released) }));
  const book = (guests: object[], checkIn: number, room = ROOM) =>
    send('POST', '/iot/v1/stay/add', { room, guests, checkInAt: at(checkIn), checkOutAt: at(checkIn + 24 * HOUR) });

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1] });
    token = await signIn(env.ctx.app);
    await env.ctx.database.system.update(locks).set(ROOM).where(eq(locks.id, lockId()));
    await env.ctx.database.system.update(locks).set({ ...ROOM, room: '202' }).where(eq(locks.id, env.devices[1]?.lockId as number));
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 2) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    attachSimulator(env.ctx.app, fleet);
    await waitFor(() => fleet.devices.every((d) => d.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    await fleet?.stop();
    await env?.close();
  });

  it('holds the card on the door, replaces it, takes it back, and drops it at check-out', async () => {
    const checkIn = Date.now() + 2 * HOUR;
    const booked = await book([{ name: '李雷', mobile: '13900000011', cardNumber: 'a1b2c3d4' }], checkIn);
    expect(booked.statusCode).toBe(200);
    const stay = dataOf(booked);
    expect(stay.guests[0].cardNumber).toBe('A1B2C3D4');
    await post('/iot/v1/stay/checkIn', { id: stay.id });
    const ready = await waitFor(() => open(stay.id), (s) => s.readiness === 'ready', 15_000);
    expect(ready.live.map((door: Door) => door.cardState)).toEqual(['normal']);
    expect(await present('A1B2C3D4', checkIn + HOUR)).toMatchObject({ success: true });

    // The front desk hands over another card: the old one is deleted on the lock, the new one added.
    const guestId = stay.guests[0].id;
    const replaced = await post('/iot/v1/stay/card', { id: stay.id, guestId, cardNumber: '00FF00FF' });
    expect(replaced.guests[0].cardNumber).toBe('00FF00FF');
    await waitFor(() => open(stay.id), (s) => s.readiness === 'ready', 15_000);
    await waitFor(() => present('A1B2C3D4', checkIn + HOUR), (result) => result.success === false, 15_000);
    expect(await present('00FF00FF', checkIn + HOUR)).toMatchObject({ success: true });

    // Taken back: the door holds the password only.
    await post('/iot/v1/stay/card', { id: stay.id, guestId, cardNumber: null });
    const without = await waitFor(() => open(stay.id), (s) => s.readiness === 'ready' && s.live.every((door: Door) => door.cardCredentialId === null), 15_000);
    expect(without.guests[0].cardNumber).toBeNull();
    await waitFor(() => present('00FF00FF', checkIn + HOUR), (result) => result.success === false, 15_000);

    // A card given again and the stay checked out: the user's delete drops the card with it.
    await post('/iot/v1/stay/card', { id: stay.id, guestId, cardNumber: '12345678' });
    await waitFor(() => present('12345678', checkIn + HOUR), (result) => result.success === true, 15_000);
    await post('/iot/v1/stay/checkOut', { id: stay.id });
    await runStays(env.ctx.database, box, quiet);
    await waitFor(() => present('12345678', checkIn + HOUR), (result) => result.success === false, 15_000);

    const logged = await env.ctx.database.system.select().from(auditLog).where(and(eq(auditLog.action, 'POST /iot/v1/stay/card'), eq(auditLog.result, 'success')));
    expect(logged.length).toBe(3);
  });

  it('refuses a shared card, a card another stay holds, bad numbers and another stay\'s guest', async () => {
    const checkIn = Date.now() + 30 * HOUR;
    const twice = await book([{ name: '甲', mobile: '13900000021', cardNumber: 'CAFE0001' }, { name: '乙', mobile: '13900000022', cardNumber: 'cafe0001' }], checkIn);
    expect(twice.statusCode).toBe(400);
    expect(JSON.stringify(twice.json())).toContain('body.guests.1.cardNumber');
    const first = dataOf(await book([{ name: '甲', mobile: '13900000021', cardNumber: 'CAFE0001' }], checkIn));
    const held = await book([{ name: '乙', mobile: '13900000022', cardNumber: 'CAFE0001' }], checkIn + HOUR, { ...ROOM, room: '202' });
    expect(held.statusCode).toBe(409);
    expect(JSON.stringify(held.json())).toContain(`#${first.id}`);
    const other = dataOf(await book([{ name: '乙', mobile: '13900000022' }], checkIn + HOUR, { ...ROOM, room: '202' }));
    const taken = await send('POST', '/iot/v1/stay/card', { id: other.id, guestId: other.guests[0].id, cardNumber: 'CAFE0001' });
    expect(taken.statusCode).toBe(409);
    expect(JSON.stringify(taken.json())).toContain('body.cardNumber');
    // After the stays: the same card may be handed to the next guest.
    const later = await book([{ name: '丙', mobile: '13900000023', cardNumber: 'CAFE0001' }], checkIn + 3 * 24 * HOUR);
    expect(later.statusCode).toBe(200);

    const bad = await send('POST', '/iot/v1/stay/card', { id: other.id, guestId: other.guests[0].id, cardNumber: 'not-hex' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('body.cardNumber');
    const stranger = await send('POST', '/iot/v1/stay/card', { id: other.id, guestId: first.guests[0].id, cardNumber: 'BEEF0001' });
    expect(stranger.statusCode).toBe(400);
    expect(JSON.stringify(stranger.json())).toContain('body.guestId');
    expect((await send('POST', '/iot/v1/stay/card', { id: other.id, guestId: other.guests[0].id, cardNumber: 'BEEF0001' }, 101)).statusCode).toBe(404);
    await post('/iot/v1/stay/cancel', { id: first.id });
    const freed = await send('POST', '/iot/v1/stay/card', { id: other.id, guestId: other.guests[0].id, cardNumber: 'CAFE0001' });
    expect(freed.statusCode).toBe(200);
  });
});
