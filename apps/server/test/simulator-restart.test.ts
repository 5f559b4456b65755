/**
 * A restarted simulated lock keeps what it held, on PGlite and PostgreSQL: a cleaner's
 * week-day schedule and a holiday schedule in vacation mode reach the lock; the fleet is stopped and
 * started again as demo/index.ts starts it (fresh secrets, tables from lockTablesByImei); the new lock
 * instance holds the same user type and schedules and refuses at the door as before.
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { attachSimulator, lockTablesByImei } from '../src/demo/keypad.js';
import { issueSimulatorCredentials } from '../src/modules/lockDevice/credentials.js';
import { type AccessEnv, comingDate, localAt, startAccessEnv } from './access-support.js';
import { skipSuite } from './helper.js';
import { TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const CLEANER = { kind: 'weekDay', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], startTime: '09:00', endTime: '12:00' };
const DIGITS = '864209';

describe.skipIf(skipSuite)('a restarted simulated lock', () => {
  let a: AccessEnv;
  let restarted: Fleet | undefined;
  beforeAll(async () => {
    a = await startAccessEnv();
  });
  afterAll(async () => {
    await restarted?.stop();
    await a?.close();
  });

  it('keeps its users’ schedules and its holiday schedules, and goes on enforcing them', async () => {
    const lockId = a.lockId(0);
    const imei = a.env.devices[0]?.imei as string;
    const user = await a.post('/iot/v1/zg/userOperation', { action: 'add', lockId, name: '保洁 重启' });
    const password = await a.post('/iot/v1/zg/foreverPassword', { action: 'add', lockId, lockUserId: user.id, password: DIGITS });
    const schedule = await a.post('/iot/v1/accessSchedule/operate', { action: 'add', lockUserId: user.id, schedule: CLEANER });
    await a.waitSync('access_schedules', schedule.id, 'normal');
    await a.waitSync('credentials', password.id, 'normal');
    // Wednesday of the coming week is a holiday in vacation mode on this lock's building.
    const calendarId = (await a.post('/iot/v1/holidayCalendar/save', { name: '重启假日', buildings: ['A栋'] })).id;
    await a.post('/iot/v1/holidayCalendar/entry', { action: 'add', calendarId, kind: 'holiday', name: '测试假日', startDate: comingDate(2), endDate: comingDate(2), operatingMode: 'vacation' });
    await a.post('/iot/v1/holidayCalendar/apply', { id: calendarId });
    await waitFor(async () => (await a.get(`/iot/v1/holidayCalendar/lockSchedules?calendarId=${calendarId}`)).records,
      (rows: { lockId: number; syncState: string }[]) => rows.some((r) => r.lockId === lockId && r.syncState === 'normal'));

    const answers = async () => {
      const attempt = (at: string) => a.post('/iot/v1/simulator/attemptOpen', { lockId, method: 'password', password: DIGITS, at });
      return [await attempt(localAt(0, '10:00')), await attempt(localAt(0, '13:00')), await attempt(localAt(2, '10:00'))]
        .map((r: { success: boolean; reason: string | null }) => [r.success, r.reason]);
    };
    const expected = [[true, null], [false, 'outsideSchedule'], [false, 'operatingMode']];
    expect(await answers()).toEqual(expected);
    const before = a.fleet.devices[0]?.lock.state;
    const held = before?.users.get(user.userSlot);

    // Restart as demo/index.ts does: fresh secrets, each lock's tables from what the platform confirmed.
    await a.fleet.stop();
    const devices = await issueSimulatorCredentials(a.env.ctx.database, [], [imei]);
    const tables = await lockTablesByImei(a.env.ctx.database, [imei], lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY }));
    restarted = await startFleet({ brokerUrl: a.env.url, devices: devices.map((d) => ({ ...d, tables: tables.get(d.imei) })), heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    attachSimulator(a.env.ctx.app, restarted);
    await waitFor(() => restarted?.devices.every((d) => d.acked > 0), (ok) => ok === true);

    const after = restarted.devices[0]?.lock.state;
    expect(after).not.toBe(before);
    const reloaded = after?.users.get(user.userSlot);
    expect(reloaded?.userType).toBe('scheduleRestrictedUser');
    expect([...(reloaded?.weekDay ?? [])]).toEqual([...(held?.weekDay ?? [])]);
    expect([...(reloaded?.weekDay.values() ?? [])]).toEqual([{ daysMask: 0b0111110, startMinute: 540, endMinute: 720 }]);
    expect([...(after?.holidays ?? [])]).toEqual([...(before?.holidays ?? [])]);
    expect(after?.holidays.size).toBeGreaterThanOrEqual(1);
    expect(await answers()).toEqual(expected);
  });
});
