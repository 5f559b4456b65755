/**
 * Week-day and year-day schedules with real simulated locks, on PGlite and PostgreSQL:
 * CRUD with the device type's capacity and Matter DlStatus-like refusals (duplicate, occupied,
 * resource exhausted) in zh and en, sync states driven by the lock, the lock enforcing the schedule
 * (refused-by-schedule in the unlock records), who can open at T with reasons, and the bulk template.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecords } from '../src/db/schema.js';
import { type AccessEnv, localAt, startAccessEnv } from './access-support.js';
import { skipSuite } from './helper.js';
import { waitFor } from './outbox-support.js';

const CLEANER = { kind: 'weekDay', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], startTime: '09:00', endTime: '12:00' };

describe.skipIf(skipSuite)('access schedules with simulated locks', () => {
  let a: AccessEnv;
  beforeAll(async () => {
    a = await startAccessEnv();
  });
  afterAll(() => a?.close());

  const addUser = async (index: number, name: string) => {
    const user = await a.post('/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(index), name });
    await a.waitSync('lock_users', user.id, 'normal');
    return user;
  };
  const schedule = (lockUserId: number, value: object) => a.send('POST', '/iot/v1/accessSchedule/operate', { action: 'add', lockUserId, schedule: value }, 'en-US');

  it('gives a cleaner a week-day schedule that reaches the lock and is enforced there, with reasons', async () => {
    const cleaner = await addUser(0, '保洁 王阿姨');
    const password = await a.post('/iot/v1/zg/foreverPassword', { action: 'add', lockId: a.lockId(0), lockUserId: cleaner.id, password: '246813' });
    await a.waitSync('credentials', password.id, 'normal');
    const added = await a.post('/iot/v1/accessSchedule/operate', { action: 'add', lockUserId: cleaner.id, schedule: CLEANER });
    expect(added).toMatchObject({ kind: 'weekDay', index: 0, days: CLEANER.days, startTime: '09:00', endTime: '12:00', syncState: 'adding', userType: 'scheduleRestrictedUser' });
    await a.waitSync('access_schedules', added.id, 'normal');
    const held = a.fleet.devices[0]?.lock.state.users.get(cleaner.userSlot);
    expect([...(held?.weekDay.values() ?? [])]).toEqual([{ daysMask: 0b0111110, startMinute: 540, endMinute: 720 }]);
    expect(held?.userType).toBe('scheduleRestrictedUser');
    // At the door: Monday 10:00 opens, Monday 13:00 and Saturday 10:00 are refused by schedule.
    const attempt = (at: string) => a.post('/iot/v1/simulator/attemptOpen', { lockId: a.lockId(0), method: 'password', password: '246813', at });
    expect(await attempt(localAt(0, '10:00'))).toMatchObject({ success: true, reason: null });
    expect(await attempt(localAt(0, '13:00'))).toMatchObject({ success: false, reason: 'outsideSchedule' });
    expect(await attempt(localAt(5, '10:00'))).toMatchObject({ success: false, reason: 'outsideSchedule' });
    const refused = await waitFor(() => a.env.ctx.database.system.select().from(openRecords)
      .where(and(eq(openRecords.lockId, a.lockId(0)), eq(openRecords.refusal, 'outsideSchedule'))), (rows) => rows.length === 2);
    expect(refused.every((row) => !row.success && row.slot === password.slot)).toBe(true);
    const listed = await a.get(`/iot/v1/lockOpenRecord/list?lockId=${a.lockId(0)}&refusal=outsideSchedule`);
    expect(listed.records.map((r: { refusal: string }) => r.refusal)).toEqual(['outsideSchedule', 'outsideSchedule']);
    // Who can open: the same answers, with the reason.
    const who = async (at: string) => a.get(`/iot/v1/lockDevice/whoCanOpen?lockId=${a.lockId(0)}&at=${encodeURIComponent(at)}`);
    expect((await who(localAt(1, '11:59'))).records.map((r: { id: number }) => r.id)).toContain(password.id);
    const later = await who(localAt(1, '12:00'));
    expect(later).toMatchObject({ operatingMode: 'normal', refused: [{ record: { id: password.id }, reason: 'outsideSchedule' }] });
  });

  it('refuses duplicates, overlaps and schedules past the capacity in Matter DlStatus terms (zh and en)', async () => {
    const user = await addUser(0, '巡检 李');
    const capacity = (await a.get(`/iot/v1/lockDevice/capacity?lockId=${a.lockId(0)}`)).access.weekDaySchedulesPerUser;
    expect(capacity).toBe(4); // ZG-NB100
    expect((await schedule(user.id, CLEANER)).statusCode).toBe(200);
    const duplicate = await schedule(user.id, CLEANER);
    expect([duplicate.statusCode, duplicate.json().code]).toEqual([409, 'SCHEDULE_DUPLICATE']);
    expect(duplicate.json().errors[0].message).toEqual({ 'zh-CN': '该用户已有相同的时间表：周一、周二、周三、周四、周五 09:00-12:00', 'en-US': 'The user already has this schedule: Mon, Tue, Wed, Thu, Fri 09:00-12:00' });
    const overlap = await schedule(user.id, { ...CLEANER, days: ['friday', 'saturday'], startTime: '11:00', endTime: '13:00' });
    // An answer's message is its first field's own message (here: which schedule it overlaps).
    expect([overlap.statusCode, overlap.json().code, overlap.json().message]).toEqual([409, 'SCHEDULE_OCCUPIED', 'Overlaps a schedule the user has: Mon, Tue, Wed, Thu, Fri 09:00-12:00']);
    for (const startTime of ['13:00', '15:00', '17:00']) expect((await schedule(user.id, { ...CLEANER, startTime, endTime: `${Number(startTime.slice(0, 2)) + 1}:00` })).statusCode).toBe(200);
    const full = await schedule(user.id, { ...CLEANER, startTime: '20:00', endTime: '21:00' });
    expect([full.statusCode, full.json().code, full.json().errors[0].message['zh-CN']]).toEqual([409, 'RESOURCE_EXHAUSTED', '该用户的每周时间表已达门锁上限（4 条）']);
    const bad = await schedule(user.id, { ...CLEANER, startTime: '12:00', endTime: '09:00' });
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'body.schedule.endTime']);
    // Year-day schedules are their own table: one fits; end before start is a 400.
    const year = await schedule(user.id, { kind: 'yearDay', localStartTime: localAt(0, '00:00'), localEndTime: localAt(7, '00:00') });
    expect(year.json().data).toMatchObject({ kind: 'yearDay', index: 0 });
    await a.waitSync('access_schedules', year.json().data.id, 'normal');
    // Modify in place (the lock replaces the index), then delete: gone from the lock.
    const list = await a.get(`/iot/v1/accessSchedule/list?lockUserId=${user.id}&kind=weekDay`);
    expect(list.total).toBe(4);
    const first = list.records.find((r: { index: number }) => r.index === 0);
    for (const r of list.records) await a.waitSync('access_schedules', r.id, 'normal');
    const modified = await a.post('/iot/v1/accessSchedule/operate', { action: 'modify', id: first.id, schedule: { ...CLEANER, startTime: '08:00' } });
    expect(modified).toMatchObject({ syncState: 'modifying', startTime: '08:00' });
    await a.waitSync('access_schedules', first.id, 'normal');
    expect(a.fleet.devices[0]?.lock.state.users.get(user.userSlot)?.weekDay.get(0)?.startMinute).toBe(480);
    await a.post('/iot/v1/accessSchedule/operate', { action: 'delete', id: first.id });
    await a.waitSync('access_schedules', first.id, undefined);
    expect(a.fleet.devices[0]?.lock.state.users.get(user.userSlot)?.weekDay.has(0)).toBe(false);
  });

  it('applies a schedule template to every matching user of a group of locks', async () => {
    const users = [await addUser(1, '保洁 张'), await addUser(2, '保洁 赵'), await addUser(2, '经理 钱')];
    const group = await a.post('/iot/v1/lockGroup/add', { name: 'A栋保洁' });
    await a.post('/iot/v1/lockGroup/addMembers', { groupId: group.id, target: { imeis: [a.env.devices[1]?.imei, a.env.devices[2]?.imei] } });
    const result = await a.post('/iot/v1/accessSchedule/applyTemplate', { target: { groupId: group.id }, userKeyword: '保洁', schedules: [CLEANER] });
    expect(result.locks.map((l: { lockId: number; error: string | null; commands: unknown[] }) => [l.lockId, l.error, l.commands.length]))
      .toEqual([[a.lockId(1), null, 1], [a.lockId(2), null, 1]]);
    const listed = await a.get('/iot/v1/accessSchedule/list?keyword=%E4%BF%9D%E6%B4%81&size=50');
    const ofUsers = listed.records.filter((r: { lockUserId: number }) => users.slice(0, 2).some((u) => u.id === r.lockUserId));
    expect(ofUsers).toHaveLength(2);
    for (const r of ofUsers) await a.waitSync('access_schedules', r.id, 'normal');
    // Again with another time: rewritten in place (modify), not added beside.
    const again = await a.post('/iot/v1/accessSchedule/applyTemplate', { target: { groupId: group.id }, userKeyword: '保洁', schedules: [{ ...CLEANER, startTime: '14:00', endTime: '17:00' }] });
    expect(again.locks.every((l: { error: string | null }) => l.error === null)).toBe(true);
    const after = await a.get(`/iot/v1/accessSchedule/list?lockUserId=${users[0]?.id}`);
    expect(after.records.map((r: { index: number; startTime: string }) => [r.index, r.startTime])).toEqual([[0, '14:00']]);
    expect((await a.get(`/iot/v1/accessSchedule/list?lockUserId=${users[2]?.id}`)).total).toBe(0);
  });
});
