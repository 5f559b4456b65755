/**
 * Suspended leases, with real simulated locks, on PGlite and PostgreSQL:
 * a checked-in long lease is suspended -> every door's lock user gets a freeze command -> once the lock
 * confirms it the simulated keypad refuses the tenant's code -> the stays job and an extension keep it
 * frozen -> resume unfreezes -> the code opens again -> a suspended lease checks out (users deleted).
 * Refusals in zh/en: a booked stay, a hotel night, a resume of an active lease, check-in, room and
 * guest changes while suspended.
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { auditLog, locks, lockUsers } from '../src/db/schema.js';
import { attachSimulator } from '../src/demo/keypad.js';
import { runStays } from '../src/modules/stay/job.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, startOutboxEnv, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms).toISOString();
const quiet = { warn: () => {} };

describe.skipIf(skipSuite)('suspended leases', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  const rooms: { building: string; floor: string; room: string }[] = [];
  const lockId = (index: number) => env.devices[index]?.lockId as number;
  const send = (url: string, payload?: object) => call(env.ctx.app, token, { method: payload ? 'POST' : 'GET', url, ...(payload ? { payload } : {}) });
  const post = async (url: string, payload: object) => dataOf(await send(url, payload));
  const detail = async (id: number) => dataOf(await send(`/iot/v1/stay/detail?id=${id}`));
  // The stays job is not started in tests: each poll runs its pass, as credential.sync would wake it.
  const waitReadiness = (id: number, readiness: string) => waitFor(async () => {
    await runStays(env.ctx.database, box, quiet);
    return detail(id);
  }, (stay) => stay.readiness === readiness, 15_000);
  const book = (room: object, kind: string, checkInAt: number, checkOutAt: number) =>
    post('/iot/v1/stay/add', { room, kind, guests: [{ name: '王租客', mobile: '13900000011' }], checkInAt: at(checkInAt), checkOutAt: at(checkOutAt) });
  const attempt = (password: string) => post('/iot/v1/simulator/attemptOpen', { lockId: lockId(0), method: 'password', password, at: at(Date.now()) });
  const refusal = async (url: string, payload: object, en: string) => {
    const response = await send(url, payload);
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0]).toMatchObject({ field: 'body.id', message: { 'zh-CN': expect.any(String), 'en-US': expect.stringContaining(en) } });
  };

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1] });
    token = await signIn(env.ctx.app);
    const rows = await env.ctx.database.system.select().from(locks).where(inArray(locks.id, [lockId(0), lockId(1)]));
    for (const index of [0, 1]) {
      const row = rows.find((lock) => lock.id === lockId(index));
      rooms.push({ building: row?.building as string, floor: row?.floor as string, room: row?.room as string });
    }
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 2) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    attachSimulator(env.ctx.app, fleet);
    await waitFor(() => fleet.devices.every((d) => d.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    await fleet?.stop();
    await env?.close();
  });

  it('freezes the doors of a suspended lease until it is resumed, and checks it out', async () => {
    const lease = await book(rooms[0] as object, 'longLease', Date.now() - 60_000, Date.now() + 30 * DAY);
    await post('/iot/v1/stay/checkIn', { id: lease.id });
    const ready = await waitReadiness(lease.id, 'ready');
    const digits = (await post('/iot/v1/operatePassword/reveal', { id: ready.doors[0].credentialId })).password as string;
    expect(await attempt(digits)).toMatchObject({ success: true });

    const suspended = await post('/iot/v1/stay/suspend', { id: lease.id });
    expect(suspended.state).toBe('SUSPENDED');
    const frozen = await waitReadiness(lease.id, 'suspended');
    const userId = frozen.doors[0].lockUserId as number;
    expect(await env.ctx.database.system.select({ status: lockUsers.status }).from(lockUsers).where(eq(lockUsers.id, userId))).toEqual([{ status: 'frozen' }]);
    expect(await attempt(digits)).toMatchObject({ success: false, reason: 'frozen' });

    // The stays job (run by every poll) and an extension (a window modify) leave the freeze in place.
    await post('/iot/v1/stay/edit', { id: lease.id, checkOutAt: at(Date.now() + 60 * DAY) });
    await waitReadiness(lease.id, 'suspended');
    expect(await attempt(digits)).toMatchObject({ success: false, reason: 'frozen' });
    await refusal('/iot/v1/stay/checkIn', { id: lease.id }, 'resume it');
    await refusal('/iot/v1/stay/changeRoom', { id: lease.id, room: rooms[1] }, 'resume it');
    await refusal('/iot/v1/stay/edit', { id: lease.id, guests: [{ name: '新租客', mobile: '13900000012' }] }, 'resume it');
    await refusal('/iot/v1/stay/suspend', { id: lease.id }, 'cannot become SUSPENDED');

    expect(await post('/iot/v1/stay/resume', { id: lease.id })).toMatchObject({ state: 'CHECKED_IN' });
    await waitReadiness(lease.id, 'ready');
    expect(await attempt(digits)).toMatchObject({ success: true });
    await refusal('/iot/v1/stay/resume', { id: lease.id }, 'Only a suspended lease');

    // Suspended again, then checked out: the frozen user is deleted as usual.
    await post('/iot/v1/stay/suspend', { id: lease.id });
    await waitReadiness(lease.id, 'suspended');
    expect(await post('/iot/v1/stay/checkOut', { id: lease.id })).toMatchObject({ state: 'CHECKED_OUT', readiness: 'none' });
    await waitFor(() => env.ctx.database.system.select().from(lockUsers).where(eq(lockUsers.id, userId)), (rows) => rows.length === 0);
    expect(await attempt(digits)).toMatchObject({ success: false });
    const audit = await env.ctx.database.system.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.target, String(lease.id)), eq(auditLog.result, 'success')));
    expect(audit.map((row) => row.action).filter((action) => /suspend|resume/.test(action)).sort())
      .toEqual(['POST /iot/v1/stay/resume', 'POST /iot/v1/stay/suspend', 'POST /iot/v1/stay/suspend']);
  });

  it('suspends only a checked-in long lease (409 in zh and en)', async () => {
    const later = Date.now() + 10 * DAY;
    const booked = await book(rooms[1] as object, 'longLease', later, later + 30 * DAY);
    const response = await send('/iot/v1/stay/suspend', { id: booked.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0]).toMatchObject({ field: 'body.id', message: { 'zh-CN': expect.stringContaining('SUSPENDED'), 'en-US': 'A stay in state BOOKED cannot become SUSPENDED' } });
    await post('/iot/v1/stay/cancel', { id: booked.id });
    const night = await book(rooms[1] as object, 'hotelNight', Date.now() - 60_000, Date.now() + DAY);
    await post('/iot/v1/stay/checkIn', { id: night.id });
    await refusal('/iot/v1/stay/suspend', { id: night.id }, 'Only a long lease');
    expect((await detail(night.id)).state).toBe('CHECKED_IN');
  });
});
