/**
 * The in-console inbox, escalation and quiet hours on both databases: a matched alarm lands
 * in the inbox of every account that may see it (administrators, holders of LOCK_ALERT_LOG), not in
 * others'; each account lists (newest first, unread count) and marks read its own items only, per data
 * centre; escalation fires after N minutes without acknowledgement on the job's clock (moved by the
 * test), and an acknowledgement with a note stops it; quiet hours log non-critical deliveries as
 * suppressed while critical ones go out.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { applyAlarmChanges } from '../src/modules/deviceAlert/air-switch.js';
import { applyAlarms } from '../src/modules/deviceAlert/lock.js';
import { startNotificationWorker, type NotificationWorker } from '../src/modules/notification/worker.js';
import { egressPolicyOf } from '../src/modules/subscription/egress.js';
import { call, createTestContext, dataOf, operatorWith, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { SECRETS, startRobots } from './notification-receivers.js';

const API = '/iot/v1/notification';
const MINUTE = 60_000;

describe.skipIf(skipSuite)('notification inbox, escalation and quiet hours', () => {
  let ctx: TestContext;
  let admin: string;
  let watcher: { id: number; token: string };
  let clerk: { id: number; token: string };
  let robots: Awaited<ReturnType<typeof startRobots>>;
  let worker: NotificationWorker;
  let lockIds: number[];
  let wecom: number;
  let escalation: number;
  let clock = Date.now();
  let seq = 1;
  const alarm = async (lockId: number, kind: protocol.AlarmKind) => {
    const message = { msgId: `i${seq}`, seq: seq++, type: 'alarm' as const, ts: clock, data: { kind, cleared: false } };
    await ctx.database.withTenant(100, (tx) => applyAlarms(tx, [{ lockId, tenantId: 100, message }]));
    await worker.drain();
  };
  const inbox = async (token: string, query = '', tenantId = 100) => dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/inbox?size=50${query}`, tenantId }));
  const read = (token: string, payload: object) => call(ctx.app, token, { method: 'POST', url: `${API}/inbox/read`, payload });
  const rule = async (payload: Record<string, unknown>) => dataOf(await call(ctx.app, admin, { method: 'POST', url: `${API}/rule`, payload: { stormWindowS: 0, ...payload } }));
  const deliveries = async (ruleId: number) => dataOf(await call(ctx.app, admin, { method: 'GET', url: `${API}/delivery?size=100&ruleId=${ruleId}` })).records as
    { state: string; escalation: boolean; lastError: string | null; channelId: number }[];

  beforeAll(async () => {
    ctx = await createTestContext({ PUSH_ALLOWED_NETWORKS: 'loopback' }, 3);
    admin = await signIn(ctx.app);
    watcher = await operatorWith(ctx.app, admin, 'watcher', ['LOCK_ALERT_LOG']);
    clerk = await operatorWith(ctx.app, admin, 'clerk', ['LOOK_INFO']);
    robots = await startRobots();
    worker = startNotificationWorker({
      database: ctx.database, box: lazySecretBox(ctx.config), policy: egressPolicyOf(ctx.config), log: ctx.app.log, scheduleMs: [20], now: () => new Date(clock),
    });
    lockIds = (await rowsOf<{ id: number }>(ctx.database.system.execute(sql`select id from locks where tenant_id = 100 order by id limit 3`))).map((row) => row.id);
    const channel = async (name: string) => dataOf(await call(ctx.app, admin, {
      method: 'POST', url: `${API}/channel`, payload: { kind: 'wecom', name, url: robots.url('/wecom'), secret: SECRETS.wecom },
    })).id as number;
    wecom = await channel('duty group');
    escalation = await channel('managers');
  });
  afterAll(async () => {
    await worker?.close();
    await robots?.close();
    await ctx?.close();
  });

  it('lands in the inbox of the accounts that see lock alerts, newest first, and each marks its own read', async () => {
    await rule({ name: 'tamper', kinds: ['tamper'], channelIds: [wecom] });
    await alarm(lockIds[0] as number, 'tamper');
    await alarm(lockIds[1] as number, 'tamper');
    const mine = await inbox(watcher.token);
    expect(mine).toMatchObject({ total: 2, unread: 2 });
    expect(mine.records.map((r: { deviceId: number }) => r.deviceId)).toEqual([lockIds[1], lockIds[0]]);
    expect(mine.records[0]).toMatchObject({ kind: 'tamper', severity: 'critical', deviceKind: 'lock', readAt: null, acknowledgedAt: null });
    expect(mine.records[0].alertId).toBeGreaterThan(0);
    expect((await inbox(admin)).unread).toBe(2);
    expect((await inbox(clerk.token)).total).toBe(0); // no 门锁警告 key: not a recipient

    // The clerk cannot mark the watcher's items; the watcher marks one, then all.
    const [newest, oldest] = mine.records as { id: number }[];
    expect(dataOf(await read(clerk.token, { ids: [newest?.id] }))).toEqual({ read: 0, unread: 0 });
    expect(dataOf(await read(watcher.token, { ids: [oldest?.id] }))).toEqual({ read: 1, unread: 1 });
    expect((await inbox(watcher.token, '&unread=true')).records.map((r: { id: number }) => r.id)).toEqual([newest?.id]);
    expect(dataOf(await read(watcher.token, { all: true }))).toEqual({ read: 1, unread: 0 });
    expect((await inbox(admin)).unread).toBe(2); // the administrator's items are its own
    expect((await read(watcher.token, { ids: [] })).statusCode).toBe(400);
  });

  it('keeps the inbox to its data centre', async () => {
    expect(await inbox(admin, '', 101)).toMatchObject({ total: 0, unread: 0, records: [] });
    expect(dataOf(await call(ctx.app, admin, { method: 'POST', url: `${API}/inbox/read`, payload: { all: true }, tenantId: 101 }))).toEqual({ read: 0, unread: 0 });
    expect((await inbox(admin)).unread).toBe(2);
  });

  it('escalates an alert not acknowledged within N minutes, and not one acknowledged in time', async () => {
    const saved = await rule({ name: 'forced open', kinds: ['forcedOpen'], channelIds: [wecom], escalateAfterMin: 5, escalationChannelIds: [escalation] });
    expect(saved).toMatchObject({ escalateAfterMin: 5, escalationChannelIds: [escalation], quietHours: null });
    await alarm(lockIds[0] as number, 'forcedOpen');
    clock += 4 * MINUTE;
    await worker.drain();
    expect((await deliveries(saved.id)).filter((d) => d.escalation)).toEqual([]);
    clock += 2 * MINUTE;
    await worker.drain();
    const escalated = (await deliveries(saved.id)).filter((d) => d.escalation);
    expect(escalated).toMatchObject([{ state: 'sent', channelId: escalation }]);

    await alarm(lockIds[1] as number, 'forcedOpen');
    const [item] = (await inbox(watcher.token)).records as { alertId: number; kind: string }[];
    expect(item?.kind).toBe('forcedOpen');
    const acknowledged = await call(ctx.app, watcher.token, { method: 'POST', url: '/iot/v1/lockAlert/acknowledge', payload: { ids: [item?.alertId], note: '保安已到场 guard on site' } });
    expect(dataOf(acknowledged)).toEqual({ acknowledged: 1 });
    clock += 10 * MINUTE;
    await worker.drain();
    expect((await deliveries(saved.id)).filter((d) => d.escalation)).toHaveLength(1);
    const alerts = dataOf(await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/lockAlert/list?kind=forcedOpen&acknowledged=true` })).records;
    expect(alerts[0]).toMatchObject({ id: item?.alertId, acknowledgedBy: 'watcher', acknowledgeNote: '保安已到场 guard on site' });
    expect((await inbox(watcher.token)).records[0].acknowledgedAt).not.toBeNull();
  });

  it('suppresses non-critical deliveries in quiet hours (logged), critical ones still go out, the inbox still gets both', async () => {
    const saved = await rule({ name: 'night', kinds: ['doorLeftOpen', 'duress'], channelIds: [wecom], quietHours: { start: '22:00', end: '07:00' } });
    expect(saved.quietHours).toEqual({ start: '22:00', end: '07:00' });
    const before = (await inbox(watcher.token)).total;
    clock = Date.parse('2026-11-27T15:30:00Z'); // 23:30 in Asia/Shanghai
    await alarm(lockIds[2] as number, 'doorLeftOpen');
    await alarm(lockIds[2] as number, 'duress');
    expect((await deliveries(saved.id)).map((d) => [d.state, d.lastError])).toEqual([['sent', null], ['suppressed', 'quiet hours']]);
    clock = Date.parse('2026-11-28T04:00:00Z'); // 12:00
    await alarm(lockIds[1] as number, 'doorLeftOpen');
    expect((await deliveries(saved.id))[0]?.state).toBe('sent');
    expect((await inbox(watcher.token)).total).toBe(before + 3);
    const refused = await call(ctx.app, admin, { method: 'POST', url: `${API}/rule`, payload: { name: 'bad', channelIds: [wecom], quietHours: { start: '25:00', end: '07:00' } } });
    expect(refused.statusCode).toBe(400);
  });

  it('links each air switch alarm to its own circuit\'s alert: acknowledging one acknowledges its item only', async () => {
    const box = dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/airSwitch/add', payload: { serial: 'AS0000100888', name: '配电箱', model: 'ZG-AS4' } })).id as number;
    await rule({ name: 'trips', kinds: ['trip'], channelIds: [wecom] });
    // Both circuits trip in one uplink batch: one burst for the rules.
    await ctx.database.withTenant(100, (tx) => applyAlarmChanges(tx, [1, 2].map((circuit) =>
      ({ tenantId: 100, airSwitchId: box, circuit, kind: 'trip', severity: 'critical', detail: 'shortCircuit', cleared: false }))));
    await worker.drain();
    const items = (await inbox(admin)).records.filter((r: { deviceKind: string }) => r.deviceKind === 'airSwitch') as { alertId: number; acknowledgedAt: string | null }[];
    const alerts = dataOf(await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/airSwitch/alerts?airSwitchId=${box}` })).records as { id: number; circuit: number }[];
    const alertOf = (circuit: number) => alerts.find((a) => a.circuit === circuit)?.id;
    expect(items.map((item) => item.alertId).sort()).toEqual([alertOf(1), alertOf(2)].sort());
    const acknowledged = await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/airSwitch/alerts/acknowledge', payload: { ids: [alertOf(1)] } });
    expect(dataOf(acknowledged)).toEqual({ acknowledged: 1 });
    const after = (await inbox(admin)).records.filter((r: { deviceKind: string }) => r.deviceKind === 'airSwitch') as { alertId: number; acknowledgedAt: string | null }[];
    expect(after.map((item) => [item.alertId, item.acknowledgedAt !== null]).sort()).toEqual([[alertOf(1), true], [alertOf(2), false]].sort());
  });
});
