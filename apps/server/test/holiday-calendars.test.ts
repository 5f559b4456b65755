/**
 * Holiday calendars with real simulated locks, on PGlite and PostgreSQL: entries edited and
 * imported (CSV) with overlap checks, a calendar applied to a building and a group (holiday schedules
 * on the locks with sync states), the holiday's operating mode enforced at the door and in "who can
 * open at T", a 调休 working day running the week-day schedules of a Monday, clearing on delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessEnv, comingDate, localAt, startAccessEnv } from './access-support.js';
import { skipSuite } from './helper.js';
import { waitFor } from './outbox-support.js';

const CLEANER = { kind: 'weekDay', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], startTime: '09:00', endTime: '12:00' };

describe.skipIf(skipSuite)('holiday calendars with simulated locks', () => {
  let a: AccessEnv;
  let calendarId: number;
  beforeAll(async () => {
    a = await startAccessEnv();
  });
  afterAll(() => a?.close());

  const upload = (fields: Record<string, string>, csv: string) => {
    const boundary = '----holiday';
    const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="h.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    return a.env.ctx.app.inject({ method: 'POST', url: '/iot/v1/holidayCalendar/import', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, zw_paas_token: a.token, tenantId: '100' }, payload: parts.join('') + file });
  };
  const lockSchedules = async () => (await a.get(`/iot/v1/holidayCalendar/lockSchedules?calendarId=${calendarId}`)).records;

  it('keeps entries as data: edited with overlap checks, imported from a CSV file', async () => {
    calendarId = (await a.post('/iot/v1/holidayCalendar/save', { name: '中国法定节假日', buildings: ['A栋'] })).id;
    const monday = comingDate(0);
    await a.post('/iot/v1/holidayCalendar/entry', { action: 'add', calendarId, kind: 'holiday', name: '测试假日', startDate: monday, endDate: monday });
    const duplicate = await a.send('POST', '/iot/v1/holidayCalendar/entry', { action: 'add', calendarId, kind: 'holiday', name: '重复', startDate: monday, endDate: monday });
    expect([duplicate.statusCode, duplicate.json().code]).toEqual([409, 'SCHEDULE_DUPLICATE']);
    const overlap = await a.send('POST', '/iot/v1/holidayCalendar/entry', { action: 'add', calendarId, kind: 'holiday', name: '重叠', startDate: comingDate(-1), endDate: monday });
    expect([overlap.statusCode, overlap.json().code]).toEqual([409, 'SCHEDULE_OCCUPIED']);
    const badMode = await a.send('POST', '/iot/v1/holidayCalendar/entry', { action: 'add', calendarId, kind: 'workday', name: '调休', startDate: comingDate(5), endDate: comingDate(5), operatingMode: 'vacation' });
    expect([badMode.statusCode, badMode.json().errors[0].field]).toEqual([400, 'body.operatingMode']);
    // Import: a refused row writes nothing; a good file adds, and replaces an entry of the same kind and start date.
    const refused = (await upload({ calendarId: String(calendarId) }, `开始日期,结束日期,类型（假日/调休上班）,名称\n2027-10-01,2027-10-07,假日,国庆节\nnot-a-date,,假日,坏行\n`)).json().data;
    expect(refused).toMatchObject({ added: 0, problems: [{ row: 3, column: 'startDate' }] });
    const csv = `startDate,endDate,kind,name,operatingMode,worksAs\n${comingDate(5)},,调休上班,调休上班日,,星期一\n2027-10-01,2027-10-07,假日,国庆节,假期（禁止用户开门）,\n`;
    expect((await upload({ calendarId: String(calendarId) }, csv)).json().data).toEqual({ added: 2, replaced: 0, problems: [] });
    expect((await upload({ calendarId: String(calendarId) }, csv)).json().data).toEqual({ added: 0, replaced: 2, problems: [] });
    const entries = await a.get(`/iot/v1/holidayCalendar/entries?calendarId=${calendarId}`);
    expect(entries.map((e: { kind: string; operatingMode: string; worksAs: string | null }) => [e.kind, e.operatingMode, e.worksAs]))
      .toEqual([['holiday', 'vacation', null], ['workday', 'normal', 'monday'], ['holiday', 'vacation', null]]);
    const template = await a.send('GET', '/iot/v1/holidayCalendar/importTemplate?format=csv', undefined, 'en-US');
    expect(template.body).toContain('Start date,End date,Kind (holiday/workday),Name,Operating mode,Works as');
  });

  it('puts the calendar on the locks of its scope and the lock enforces the holiday modes', async () => {
    const user = await a.post('/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(0), name: '保洁 周' });
    const password = await a.post('/iot/v1/zg/foreverPassword', { action: 'add', lockId: a.lockId(0), lockUserId: user.id, password: '135792' });
    const schedule = await a.post('/iot/v1/accessSchedule/operate', { action: 'add', lockUserId: user.id, schedule: CLEANER });
    await a.waitSync('access_schedules', schedule.id, 'normal');
    const applied = await a.post('/iot/v1/holidayCalendar/apply', { id: calendarId });
    // A栋: lock 0 (simulated here) and two more locks of the building whose commands wait in the queue.
    expect(applied.locks.map((l: { commands: unknown[] }) => l.commands.length)).toEqual([3, 3, 3]);
    expect(applied.locks[0].lockId).toBe(a.lockId(0));
    await waitFor(() => lockSchedules(), (rows) => rows.filter((r: { lockId: number; syncState: string }) => r.lockId === a.lockId(0) && r.syncState === 'normal').length === 3);
    expect(a.fleet.devices[0]?.lock.state.holidays.size).toBe(3);
    const attempt = (at: string) => a.post('/iot/v1/simulator/attemptOpen', { lockId: a.lockId(0), method: 'password', password: '135792', at });
    const who = (at: string) => a.get(`/iot/v1/lockDevice/whoCanOpen?lockId=${a.lockId(0)}&at=${encodeURIComponent(at)}`);
    // Monday is a holiday in vacation mode: nobody at the keypad, and who-can-open says why.
    expect(await attempt(localAt(0, '10:00'))).toMatchObject({ success: false, reason: 'operatingMode' });
    expect(await who(localAt(0, '10:00'))).toMatchObject({ operatingMode: 'vacation', records: [], refused: expect.arrayContaining([{ record: expect.objectContaining({ id: password.id }), reason: 'operatingMode' }]) });
    // Tuesday is an ordinary day; Saturday is a 调休 working day run as a Monday: the cleaner may come.
    expect(await attempt(localAt(1, '10:00'))).toMatchObject({ success: true });
    expect(await attempt(localAt(5, '10:00'))).toMatchObject({ success: true });
    expect(await attempt(localAt(6, '10:00'))).toMatchObject({ success: false, reason: 'outsideSchedule' });
    expect((await who(localAt(5, '10:00'))).records.map((r: { id: number }) => r.id)).toContain(password.id);
  });

  it('clears what no longer belongs: a deleted entry at the next apply, a deleted calendar at once; a group scope reaches its locks', async () => {
    const entries = await a.get(`/iot/v1/holidayCalendar/entries?calendarId=${calendarId}`);
    await a.post('/iot/v1/holidayCalendar/entry', { action: 'delete', id: entries[0].id });
    const applied = await a.post('/iot/v1/holidayCalendar/apply', { id: calendarId });
    expect(applied.locks[0]).toMatchObject({ lockId: a.lockId(0), error: null, commands: [expect.anything()] });
    await waitFor(() => lockSchedules(), (rows) => rows.filter((r: { lockId: number }) => r.lockId === a.lockId(0)).length === 2);
    expect(a.fleet.devices[0]?.lock.state.holidays.size).toBe(2);
    const group = await a.post('/iot/v1/lockGroup/add', { name: '节假日分组' });
    await a.post('/iot/v1/lockGroup/addMembers', { groupId: group.id, target: { imeis: [a.env.devices[1]?.imei] } });
    const second = (await a.post('/iot/v1/holidayCalendar/save', { name: '园区停工', groupIds: [group.id] })).id;
    await a.post('/iot/v1/holidayCalendar/entry', { action: 'add', calendarId: second, kind: 'holiday', name: '停工', startDate: comingDate(2), endDate: comingDate(3), operatingMode: 'privacy' });
    expect((await a.post('/iot/v1/holidayCalendar/apply', { id: second })).locks.map((l: { lockId: number }) => l.lockId)).toEqual([a.lockId(1)]);
    await waitFor(() => a.fleet.devices[1]?.lock.state.holidays.size, (n) => n === 1);
    const list = await a.get('/iot/v1/holidayCalendar/list');
    expect(list.records.map((c: { name: string; groupNames: string[]; entries: number }) => [c.name, c.groupNames, c.entries])).toEqual([['中国法定节假日', [], 2], ['园区停工', ['节假日分组'], 1]]);
    const deleted = await a.post('/iot/v1/holidayCalendar/delete', { id: calendarId });
    expect(deleted.locks).toHaveLength(3);
    await waitFor(() => a.fleet.devices[0]?.lock.state.holidays.size, (n) => n === 0);
    expect((await a.send('GET', `/iot/v1/holidayCalendar/entries?calendarId=${calendarId}`)).statusCode).toBe(404);
  });
});
