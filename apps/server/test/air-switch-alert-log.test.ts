/**
 * Air switch alarms on the shared 报警日志 on PGlite and PostgreSQL: listed with the log's
 * filters, exported in the caller's language, acknowledged (with its system-log row) under the log's
 * authority LOCK_ALERT_LOG, through the air switch module's services, inside the data centre.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyAlarmChanges } from '../src/modules/deviceAlert/air-switch.js';
import { call, createTestContext, dataOf, operatorWith, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('air switch alarms on the alarm log', () => {
  let ctx: TestContext;
  let token: string;
  let id: number;
  const get = (url: string, tenantId = 100, as = token) => call(ctx.app, as, { method: 'GET', url, tenantId });
  const post = (url: string, payload: object, tenantId = 100, as = token) => call(ctx.app, as, { method: 'POST', url, payload, tenantId });
  const list = async (query = '', tenantId = 100) => dataOf(await get(`/iot/v1/airSwitch/alertLog/list?${query}`, tenantId)).records;

  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    token = await signIn(ctx.app);
    id = dataOf(await post('/iot/v1/airSwitch/add', { serial: 'AS0000100777', name: '二楼配电箱', model: 'ZG-AS4', location: 'B栋2层' })).id;
    const other = dataOf(await post('/iot/v1/airSwitch/add', { serial: 'AS0000101777', name: 'other', model: 'ZG-AS2' }, 101)).id;
    const alarm = (tenantId: number, airSwitchId: number, circuit: number, kind: string, severity: string, detail: string | null, cleared = false) =>
      ({ tenantId, airSwitchId, circuit, kind, severity, detail, cleared });
    await ctx.database.transaction((tx) => applyAlarmChanges(tx, [
      alarm(100, id, 1, 'trip', 'major', 'overCurrent'), alarm(100, id, 2, 'leakageWarn', 'major', '27'),
      alarm(100, id, 3, 'overVoltage', 'minor', '262'), alarm(101, other, 1, 'overTemperature', 'major', '80'),
    ]));
    await ctx.database.transaction((tx) => applyAlarmChanges(tx, [alarm(100, id, 3, 'overVoltage', 'minor', null, true)]));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('lists the data centre\'s air switch alarms with the log\'s filters, newest first', async () => {
    const all = await list();
    expect(all.map((a: { kind: string }) => a.kind).sort()).toEqual(['leakageWarn', 'overVoltage', 'trip']);
    expect(all[0]).toMatchObject({ serial: 'AS0000100777', airSwitchName: '二楼配电箱' });
    expect((await list('kind=trip')).map((a: { circuit: number; detail: string }) => [a.circuit, a.detail])).toEqual([[1, 'overCurrent']]);
    expect((await list('severity=minor&state=cleared')).map((a: { kind: string }) => a.kind)).toEqual(['overVoltage']);
    expect(await list('keyword=B栋')).toHaveLength(3);
    expect(await list('keyword=nowhere')).toEqual([]);
    expect(await list(`startTime=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect((await list('sortField=occurrences&sortOrder=ascend')).length).toBe(3);
    expect((await list('', 101)).map((a: { kind: string }) => a.kind)).toEqual(['overTemperature']);
    const bad = await get('/iot/v1/airSwitch/alertLog/list?kind=tamper&sortField=imei');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['query.kind', 'query.sortField']);
  });

  it('exports them in the caller\'s language, CSV and Excel', async () => {
    const csv = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/airSwitch/alertLog/export?kind=trip&format=csv&timeZone=Asia/Shanghai', tenantId: 100, headers: { 'accept-language': 'zh-CN' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('跳闸');
    expect(csv.body).toContain('过流');
    expect(csv.body).not.toContain('leakageWarn');
    const xlsx = await get('/iot/v1/airSwitch/alertLog/export?format=xlsx');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('acknowledges under the alarm log\'s authority, once, in the caller\'s data centre only, with a system-log row', async () => {
    const ids = (await list('acknowledged=false')).map((a: { id: number }) => a.id);
    expect(ids).toHaveLength(3);
    const theirs = (await list('', 101))[0].id;
    const logOnly = await operatorWith(ctx.app, token, 'alarm-log-reader', ['LOCK_ALERT_LOG']);
    expect((await get('/iot/v1/airSwitch/alerts', 100, logOnly.token)).statusCode).toBe(403); // 空开分析 is another authority
    expect(dataOf(await post('/iot/v1/airSwitch/alertLog/acknowledge', { ids: [...ids, theirs], note: '电工已到场 electrician on site' }, 100, logOnly.token))).toEqual({ acknowledged: 3 });
    expect(dataOf(await post('/iot/v1/airSwitch/alertLog/acknowledge', { ids }))).toEqual({ acknowledged: 0 });
    expect((await list('acknowledged=true')).map((a: { acknowledgedBy: string }) => a.acknowledgedBy)).toEqual(['alarm-log-reader', 'alarm-log-reader', 'alarm-log-reader']);
    // The note is kept with the acknowledgement, as on lock alerts; a note over the limit is a 400 on body.note.
    expect(new Set((await list('acknowledged=true')).map((a: { acknowledgeNote: string }) => a.acknowledgeNote))).toEqual(new Set(['电工已到场 electrician on site']));
    const long = await post('/iot/v1/airSwitch/alertLog/acknowledge', { ids, note: 'x'.repeat(1000) });
    expect([long.statusCode, long.json().errors?.[0]?.field]).toEqual([400, 'body.note']);
    expect((await list('acknowledged=false', 101))).toHaveLength(1);
    const logged = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`
      select count(*)::int as n from audit_log where username = 'alarm-log-reader' and action like '%/airSwitch/alertLog/acknowledge%'`));
    expect(logged[0]?.n).toBe(1);
    const operator = await operatorWith(ctx.app, token, 'no-alarm-log', ['AIRSWITCH_RULE']);
    expect((await get('/iot/v1/airSwitch/alertLog/list', 100, operator.token)).statusCode).toBe(403);
  });

  it('keeps the kinds apart in the one alerts table: the locks\' log, acknowledgement and counts see no air switch alarm', async () => {
    expect(dataOf(await get('/iot/v1/lockAlert/list?current=1&size=50')).total).toBe(0);
    const ids = (await list()).map((a: { id: number }) => a.id);
    await ctx.database.transaction((tx) => applyAlarmChanges(tx, [{ tenantId: 100, airSwitchId: id, circuit: 4, kind: 'trip', severity: 'critical', detail: 'shortCircuit', cleared: false }]));
    const fresh = (await list('acknowledged=false')).map((a: { id: number }) => a.id);
    expect(fresh).toHaveLength(1);
    expect(dataOf(await post('/iot/v1/lockAlert/acknowledge', { ids: [...ids, ...fresh] }))).toEqual({ acknowledged: 0 });
    expect(await list('acknowledged=false')).toHaveLength(1);
    expect(dataOf(await get('/iot/v1/lockDevice/analysis')).alarmsOpen).toEqual({ critical: 0, major: 0, minor: 0, warning: 0 });
  });
});
