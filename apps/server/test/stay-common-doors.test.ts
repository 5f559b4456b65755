/**
 * Common doors of stays (docs/stays.md "Common doors") with real simulated locks, on PGlite
 * and PostgreSQL: an entrance (building) and a floor gate (floor) marked through the API serve a room's
 * stay (the guest's digits open them at the simulated keypad), a floor gate of another floor does not;
 * unmarking a door takes the guest's user off it; bad input, a lock outside the data centre, the system log.
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
const BUILDING = '公共门楼';
type Door = { lockId: number; released: boolean; credentialId: number };

describe.skipIf(skipSuite)('common doors of stays', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  const lockId = (index: number) => env.devices[index]?.lockId as number;
  const send = (method: 'GET' | 'POST', url: string, payload?: object, tenantId?: number) =>
    call(env.ctx.app, token, { method, url, ...(payload ? { payload } : {}), ...(tenantId ? { tenantId } : {}) });
  const post = async (url: string, payload: object) => dataOf(await send('POST', url, payload));
  const detail = async (id: number) => dataOf(await send('GET', `/iot/v1/stay/detail?id=${id}`));
  const attempt = (lock: number, password: string, when: number) => post('/iot/v1/simulator/attemptOpen', { lockId: lock, method: 'password', password, at: at(when) });

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1, 2, 3] });
    token = await signIn(env.ctx.app);
    // Lock 0: room 301 on floor 3; lock 1: the entrance on floor 1; lock 2: floor 3's gate; lock 3: floor 5's gate.
    const places = [['3', '301'], ['1', '大门'], ['3', '三层门'], ['5', '五层门']] as const;
    for (const [index, [floor, room]] of places.entries()) {
      await env.ctx.database.system.update(locks).set({ building: BUILDING, floor, room }).where(eq(locks.id, lockId(index)));
    }
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 4) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    attachSimulator(env.ctx.app, fleet);
    await waitFor(() => fleet.devices.every((d) => d.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    await fleet?.stop();
    await env?.close();
  });

  it('issues a room stay on its building entrance and floor gate, and takes it off an unmarked door', async () => {
    const marks = [[1, 'building'], [2, 'floor'], [3, 'floor']] as const;
    for (const [index, commonDoor] of marks) {
      expect(await post('/iot/v1/stay/commonDoor', { lockId: lockId(index), commonDoor })).toMatchObject({ lockId: lockId(index), commonDoor, staysAffected: 0 });
    }
    const listed = dataOf(await send('GET', `/iot/v1/stay/commonDoor/list?building=${encodeURIComponent(BUILDING)}`));
    expect(listed.map((door: { lockId: number; commonDoor: string }) => [door.lockId, door.commonDoor])).toEqual([[lockId(1), 'building'], [lockId(2), 'floor'], [lockId(3), 'floor']]);

    const checkIn = Date.now() + 3 * HOUR;
    const stay = dataOf(await send('POST', '/iot/v1/stay/add', { room: { building: BUILDING, floor: '3', room: '301' }, guests: [{ name: '韩梅梅', mobile: '13900000002' }], checkInAt: at(checkIn), checkOutAt: at(checkIn + 24 * HOUR) }));
    await runStays(env.ctx.database, box, quiet, Date.parse(stay.issueDueAt) + 1000);
    const ready = await waitFor(() => detail(stay.id), (s) => s.readiness === 'ready', 15_000);
    expect(ready.doors.map((door: Door) => door.lockId).sort()).toEqual([lockId(0), lockId(1), lockId(2)].sort());
    const digits = (await post('/iot/v1/operatePassword/reveal', { id: ready.doors[0].credentialId })).password as string;
    for (const index of [0, 1, 2]) expect(await attempt(lockId(index), digits, checkIn + HOUR)).toMatchObject({ success: true });
    expect(await attempt(lockId(3), digits, checkIn + HOUR)).toMatchObject({ success: false });

    // Floor 3's gate is a room's own door again: the issued stay looks at its doors and lets that one go.
    expect(await post('/iot/v1/stay/commonDoor', { lockId: lockId(2), commonDoor: null })).toMatchObject({ commonDoor: null, staysAffected: 1 });
    await runStays(env.ctx.database, box, quiet);
    const after = await waitFor(() => detail(stay.id), (s) => s.readiness === 'ready' && s.doors.some((door: Door) => door.lockId === lockId(2) && door.released), 15_000);
    expect(after.doors.filter((door: Door) => !door.released).map((door: Door) => door.lockId).sort()).toEqual([lockId(0), lockId(1)].sort());
    await waitFor(() => attempt(lockId(2), digits, checkIn + HOUR), (result) => result.success === false, 15_000);
    expect(await attempt(lockId(1), digits, checkIn + HOUR)).toMatchObject({ success: true });

    const logged = await env.ctx.database.system.select().from(auditLog).where(and(eq(auditLog.action, 'POST /iot/v1/stay/commonDoor'), eq(auditLog.result, 'success')));
    expect(logged.map((row) => row.target).sort()).toEqual([lockId(1), lockId(2), lockId(2), lockId(3)].map(String).sort());
  });

  it('refuses a scope it does not know, a lock outside the data centre, and a room with only common doors', async () => {
    const bad = await send('POST', '/iot/v1/stay/commonDoor', { lockId: lockId(1), commonDoor: 'roof' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('body.commonDoor');
    expect((await send('POST', '/iot/v1/stay/commonDoor', { lockId: lockId(1), commonDoor: 'building' }, 101)).statusCode).toBe(404);
    const none = await send('POST', '/iot/v1/stay/add', { room: { building: BUILDING, floor: '3', room: '399' }, guests: [{ name: '韩梅梅', mobile: '13900000002' }], checkInAt: at(Date.now() + HOUR), checkOutAt: at(Date.now() + 2 * HOUR) });
    expect(none.statusCode).toBe(400);
    expect(dataOf(await send('GET', '/iot/v1/stay/commonDoor/list', undefined, 101))).toEqual([]);
  });
});
