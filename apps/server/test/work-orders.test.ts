/**
 * Work orders (docs/work-orders.md): one order from selected
 * alerts, legal and illegal state moves, a closed battery order confirmed or reopened by real
 * heartbeats through the ingest path (the `lock.heartbeat` event after commit), a notification rule
 * opening orders idempotently on raised alarms, tenant isolation and bad input.
 */
import { BATTERY_CONFIRM_TOLERANCE, type protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { storeUplinks, type UplinkRecord } from '../src/gateway/uplink-store.js';
import { type NotificationWorker, startNotificationWorker } from '../src/modules/notification/worker.js';
import { egressPolicyOf } from '../src/modules/subscription/egress.js';
import { startWorkOrderWorker, type WorkOrderWorker } from '../src/modules/workOrder/worker.js';
import { call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

const API = '/iot/v1/workOrder';
type Lock = { id: number; tenant_id: number; imei: string };

describe.skipIf(skipSuite)('work orders', () => {
  let ctx: TestContext;
  let token: string;
  let locks: Lock[];
  let orders: WorkOrderWorker;
  let notifications: NotificationWorker;
  let seq = 70_000;

  const uplink = (lock: Lock, type: protocol.UplinkType, data: object): UplinkRecord =>
    ({ lockId: lock.id, tenantId: lock.tenant_id, imei: lock.imei, message: { msgId: `w${++seq}`, seq, type, ts: Date.now(), data } as protocol.UplinkMessage });
  const heartbeat = async (lock: Lock, battery: number) => {
    await storeUplinks(ctx.database, [uplink(lock, 'heartbeat', { battery, rssi: -80, snr: 5, firmwareVersion: '1.0.0', intervalS: 3600 })]);
    await orders.drain();
  };
  const alarm = async (lock: Lock, kind: string) => {
    await storeUplinks(ctx.database, [uplink(lock, 'alarm', { kind })]);
    await notifications.drain();
  };
  const post = (url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url: `${API}/${url}`, payload, tenantId });
  const alertOf = async (lock: Lock, kind: string) =>
    Number((await rowsOf<{ id: number | string }>(ctx.database.system.execute(sql`select id from alerts where lock_id = ${lock.id} and kind = ${kind} and state = 'active'`)))[0]?.id);

  beforeAll(async () => {
    ctx = await createTestContext({ PUSH_ALLOWED_NETWORKS: 'loopback' }, 4);
    token = await signIn(ctx.app);
    locks = await rowsOf<Lock>(ctx.database.system.execute(sql`select id, tenant_id, imei from locks where tenant_id = 100 and imei like '8%' order by id limit 4`));
    if (locks.length < 4) locks = await rowsOf<Lock>(ctx.database.system.execute(sql`select id, tenant_id, imei from locks where tenant_id = 100 order by id limit 4`));
    orders = startWorkOrderWorker(ctx.database, ctx.app.log);
    notifications = startNotificationWorker({ database: ctx.database, box: lazySecretBox(ctx.config), policy: egressPolicyOf(ctx.config), log: ctx.app.log });
  });
  afterAll(async () => {
    await orders?.close();
    await notifications?.close();
    await ctx?.close();
  });

  it('opens one order from the alerts of several locks, and moves it only along the transition table', async () => {
    const [a, b] = locks as [Lock, Lock];
    await alarm(a, 'lowBattery');
    await alarm(b, 'lowBattery');
    const alertIds = [await alertOf(a, 'lowBattery'), await alertOf(b, 'lowBattery')];
    const created = await post('fromAlerts', { alertIds, priority: 'high' });
    expect(created.statusCode).toBe(200);
    const order = dataOf(created);
    expect(order).toMatchObject({ kind: 'batteryReplacement', priority: 'high', state: 'OPEN', createdBy: 'admin', alertIds, title: '更换电池 (2)' });
    expect(order.locks.map((l: { imei: string }) => l.imei).sort()).toEqual([a.imei, b.imei].sort());
    const byAlert = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/list?alertId=${alertIds[0]}` }));
    expect(byAlert.records.map((r: { id: number }) => r.id)).toEqual([order.id]);
    const byImei = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/list?imei=${b.imei}&state=OPEN` }));
    expect(byImei.records.map((r: { id: number }) => r.id)).toContain(order.id);
    // The default title is in the caller's language (an English console gets an English title).
    const english = await call(ctx.app, token, { method: 'POST', url: `${API}/fromAlerts`, payload: { alertIds: [alertIds[0]] }, headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(dataOf(english).title).toBe('Battery replacement (1)');
    await post('transition', { id: dataOf(english).id, state: 'CANCELLED' });
    // The alert list shows each alert's orders with their states.
    const listed = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockAlert/list?imei=${a.imei}&kind=lowBattery` }));
    expect(listed.records.find((r: { id: number }) => r.id === alertIds[0])?.workOrders)
      .toEqual([{ id: order.id, state: 'OPEN' }, { id: dataOf(english).id, state: 'CANCELLED' }]);

    expect((await post('transition', { id: order.id, state: 'IN_PROGRESS' })).statusCode).toBe(200);
    const noReading = await post('transition', { id: order.id, state: 'DONE' });
    expect([noReading.statusCode, noReading.json().errors[0].field]).toEqual([400, 'body.battery']);
    const cancelled = dataOf(await post('transition', { id: order.id, state: 'CANCELLED', note: '重复 duplicate' }));
    expect(cancelled).toMatchObject({ state: 'CANCELLED', notes: 'admin: 重复 duplicate' });
    const illegal = await post('transition', { id: order.id, state: 'IN_PROGRESS' });
    expect(illegal.statusCode).toBe(409);
    expect(illegal.json().errors[0]).toMatchObject({ field: 'body.state', message: { 'en-US': 'A work order cannot go from Cancelled to In progress' } });
    const edited = await post('edit', { id: order.id, title: '改 edited', kind: 'other', priority: 'low', assigneeId: null, dueAt: null, notes: '' });
    expect([edited.statusCode, edited.json().errors[0].field]).toEqual([409, 'body.id']);
    const logged = await rowsOf<{ action: string }>(ctx.database.system.execute(sql`
      select action from audit_log where target = ${String(order.id)} and action like '%workOrder%' and result = 'success' order by id`));
    expect(logged.map((r) => r.action)).toEqual(['POST /iot/v1/workOrder/transition', 'POST /iot/v1/workOrder/transition']);
  });

  it('confirms a closed battery order on the next good heartbeat, and reopens it on a low one', async () => {
    const [a, , c] = locks as [Lock, Lock, Lock];
    const order = dataOf(await post('add', { title: '换电池 A', kind: 'batteryReplacement', locks: [a.imei, c.id] }));
    const closed = dataOf(await post('transition', { id: order.id, state: 'DONE', battery: 95 }));
    expect(closed).toMatchObject({ state: 'DONE', battery: 95, confirmedAt: null });
    await heartbeat(a, 95 - BATTERY_CONFIRM_TOLERANCE);
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/detail?id=${order.id}` })).confirmedAt).toBeNull(); // c has not reported
    await heartbeat(c, 99);
    const confirmed = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/detail?id=${order.id}` }));
    expect(confirmed.state).toBe('DONE');
    expect(confirmed.confirmedAt).not.toBeNull();

    const second = dataOf(await post('add', { title: '换电池 C', kind: 'batteryReplacement', locks: [c.id] }));
    await post('transition', { id: second.id, state: 'DONE', battery: 90 });
    await heartbeat(c, 12);
    const reopened = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/detail?id=${second.id}` }));
    expect(reopened).toMatchObject({ state: 'OPEN', battery: null, confirmedAt: null, closedAt: null });
    expect(reopened.notes).toContain('12%');
    const audit = await rowsOf<{ action: string }>(ctx.database.system.execute(sql`select action from audit_log where username = 'system' and target = ${String(second.id)}`));
    expect(audit.map((r) => r.action)).toEqual(['work-order-reopened']);
  });

  it('a rule with openWorkOrder opens one order per lock and kind while it is open', async () => {
    const channel = dataOf(await call(ctx.app, token, { method: 'POST', url: '/iot/v1/notification/channel', payload: { kind: 'webhook', name: 'off', url: 'http://127.0.0.1:9/hook', secret: 'matrix-key-1234', enabled: false } }));
    const rule = await call(ctx.app, token, { method: 'POST', url: '/iot/v1/notification/rule', payload: { name: 'tamper', kinds: ['tamper'], minSeverity: 'warning', channelIds: [channel.id], stormWindowS: 0, openWorkOrder: 'tamperInspection' } });
    expect([rule.statusCode, dataOf(rule).openWorkOrder]).toEqual([200, 'tamperInspection']);
    const d = locks[3] as Lock;
    const opened = async () => dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/list?imei=${d.imei}&kind=tamperInspection` })).records as { id: number; state: string; createdBy: string }[];
    await alarm(d, 'tamper');
    await alarm(d, 'tamper'); // a repeat while the order is open
    expect((await opened()).map((o) => [o.state, o.createdBy])).toEqual([['OPEN', `rule:${dataOf(rule).id}`]]);
    await post('transition', { id: (await opened())[0]?.id as number, state: 'DONE' });
    await alarm(d, 'tamper');
    expect((await opened()).map((o) => o.state)).toEqual(['OPEN', 'DONE']);
  });

  it('keeps orders within their data centre', async () => {
    const mine = dataOf(await post('add', { title: 'only 100', kind: 'other', locks: [(locks[0] as Lock).id] }));
    expect((await call(ctx.app, token, { method: 'GET', url: `${API}/detail?id=${mine.id}`, tenantId: 101 })).statusCode).toBe(404);
    expect((await post('transition', { id: mine.id, state: 'CANCELLED' }, 101)).statusCode).toBe(404);
    const list = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/list?size=100`, tenantId: 101 }));
    expect(list.records.map((r: { id: number }) => r.id)).not.toContain(mine.id);
    const foreignLock = await post('add', { title: 'x', kind: 'other', locks: [(locks[0] as Lock).id] }, 101);
    expect([foreignLock.statusCode, foreignLock.json().errors[0].field]).toEqual([400, 'body.locks']);
    const foreignAlert = await post('fromAlerts', { alertIds: [await alertOf(locks[0] as Lock, 'lowBattery')] }, 101);
    expect([foreignAlert.statusCode, foreignAlert.json().errors[0].field]).toEqual([400, 'body.alertIds']);
  });

  it('answers bad input with 400 naming the fields, writing nothing', async () => {
    const before = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from work_orders`));
    const bad = await post('add', { title: '', kind: 'repaint', priority: 'soon', locks: [], dueAt: 'tomorrow' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['body.dueAt', 'body.kind', 'body.locks', 'body.priority', 'body.title']);
    const assignee = await post('add', { title: 'x', kind: 'other', locks: [(locks[0] as Lock).id], assigneeId: 999_999 });
    expect([assignee.statusCode, assignee.json().errors[0].field]).toEqual([400, 'body.assigneeId']);
    const after = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from work_orders`));
    expect(after).toEqual(before);
  });
});
