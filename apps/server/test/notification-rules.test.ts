/**
 * Notification rules end to end below the HTTP boundary of the receivers: alarms applied
 * by the alerts service (as ingest does) raise `lock.alarm`; the notification job matches rules by
 * kind, severity and scope (building, device type), delivers to a WeCom robot that checks its key,
 * counts repeats within the storm window into one notification (logged as suppressed), retries a
 * refusing DingTalk robot and then logs it failed with the reason; another data centre sees none of it.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { startNotificationWorker, type NotificationWorker } from '../src/modules/notification/worker.js';
import { applyAlarms } from '../src/modules/deviceAlert/lock.js';
import { egressPolicyOf } from '../src/modules/subscription/egress.js';
import { call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { SECRETS, startRobots } from './notification-receivers.js';

const API = '/iot/v1/notification';

describe.skipIf(skipSuite)('notification rules', () => {
  let ctx: TestContext;
  let token: string;
  let robots: Awaited<ReturnType<typeof startRobots>>;
  let worker: NotificationWorker;
  let locks: { id: number; model: string }[];
  let wecom: number;
  let seq = 1;
  const alarm = async (lockId: number, kind: protocol.AlarmKind) => {
    const message = { msgId: `m${seq}`, seq: seq++, type: 'alarm' as const, ts: Date.now(), data: { kind, cleared: false } };
    await ctx.database.withTenant(100, (tx) => applyAlarms(tx, [{ lockId, tenantId: 100, message }]));
    await worker.drain();
  };
  const wecomCalls = () => robots.received.filter((r) => r.path === '/wecom' && r.verified).length;
  const rule = async (payload: Record<string, unknown>, tenantId = 100) => call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload, tenantId });
  const deliveries = async (query = '') => dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/delivery?size=100${query}` })).records as
    { state: string; kind: string; deviceId: number; count: number; lastError: string | null; attempts: number }[];

  beforeAll(async () => {
    ctx = await createTestContext({ PUSH_ALLOWED_NETWORKS: 'loopback' }, 3);
    token = await signIn(ctx.app);
    robots = await startRobots();
    worker = startNotificationWorker({ database: ctx.database, box: lazySecretBox(ctx.config), policy: egressPolicyOf(ctx.config), log: ctx.app.log, scheduleMs: [20, 20] });
    locks = await rowsOf<{ id: number; model: string }>(ctx.database.system.execute(sql`select id, model from locks where tenant_id = 100 order by id limit 3`));
    // Fixture: the three locks in buildings A, B and A.
    await ctx.database.system.execute(sql`update locks set building = case when id = ${locks[1]?.id} then 'B' else 'A' end where id = any(${sql.param(locks.map((l) => l.id))}::int[])`);
    wecom = dataOf(await call(ctx.app, token, { method: 'POST', url: `${API}/channel`, payload: { kind: 'wecom', name: 'duty group', url: robots.url('/wecom'), secret: SECRETS.wecom } })).id;
  });
  afterAll(async () => {
    await worker?.close();
    await robots?.close();
    await ctx?.close();
  });

  it('matches by kind, severity and building', async () => {
    const saved = await rule({ name: 'tamper in A', kinds: ['tamper'], minSeverity: 'critical', buildings: ['A'], channelIds: [wecom] });
    expect(saved.statusCode).toBe(200);
    expect(dataOf(saved)).toMatchObject({ kinds: ['tamper'], buildings: ['A'], channelIds: [wecom], stormWindowS: 300 });
    const a = locks[0] as { id: number };
    const b = locks[1] as { id: number };
    await alarm(a.id, 'tamper');
    expect(wecomCalls()).toBe(1);
    await alarm(b.id, 'tamper'); // building B: out of scope
    await alarm(a.id, 'lowBattery'); // another kind
    expect(wecomCalls()).toBe(1);
    const [sent] = await deliveries('&state=sent');
    expect(sent).toMatchObject({ kind: 'tamper', deviceId: a.id, count: 1, attempts: 1 });
    const message = robots.received.filter((r) => r.path === '/wecom').at(-1);
    expect(message?.body).toContain('防撬报警');
  });

  it('matches by minimum severity and device type', async () => {
    const third = locks[2] as { id: number; model: string };
    await rule({ name: 'major on model', minSeverity: 'major', deviceTypes: [third.model], channelIds: [wecom], stormWindowS: 0 });
    const before = wecomCalls();
    await alarm(third.id, 'doorLeftOpen'); // minor: below major
    expect(wecomCalls()).toBe(before);
    await alarm(third.id, 'wrongPasswordLockout'); // major
    expect(wecomCalls()).toBe(before + 1);
  });

  it('storm control: repeats of a kind on a device within the window are one notification with a count', async () => {
    const lock = (locks[0] as { id: number }).id;
    const before = wecomCalls();
    for (let i = 0; i < 3; i++) await alarm(lock, 'tamper');
    expect(wecomCalls()).toBe(before);
    const log = await deliveries();
    expect(log.filter((d) => d.state === 'suppressed' && d.deviceId === lock)).toHaveLength(3);
    expect(log.find((d) => d.state === 'sent' && d.kind === 'tamper' && d.deviceId === lock)?.count).toBe(4);
  });

  it('a burst in one commit: a windowed rule opens one notification counting every repeat, a rule without a window one each', async () => {
    const lock = locks[1] as { id: number; model: string };
    await rule({ name: 'duress in B', kinds: ['duress'], buildings: ['B'], channelIds: [wecom] });
    const perAlarm = lock.model === (locks[2] as { model: string }).model ? 1 : 0; // 'major on model' above has no storm window
    const before = wecomCalls();
    const messages = Array.from({ length: 4 }, () => ({ msgId: `m${seq}`, seq: seq++, type: 'alarm' as const, ts: Date.now(), data: { kind: 'duress' as const, cleared: false } }));
    await ctx.database.withTenant(100, (tx) => applyAlarms(tx, messages.map((message) => ({ lockId: lock.id, tenantId: 100, message }))));
    await worker.drain();
    expect(wecomCalls()).toBe(before + 1 + 4 * perAlarm);
    const log = (await deliveries()).filter((d) => d.kind === 'duress' && d.deviceId === lock.id);
    expect(log.filter((d) => d.state === 'suppressed')).toHaveLength(3);
    expect(log.find((d) => d.state === 'sent' && d.count === 4)).toBeDefined();
  });

  it('retries a refusing channel, then logs it failed with the reason', async () => {
    const refusing = dataOf(await call(ctx.app, token, {
      method: 'POST', url: `${API}/channel`, payload: { kind: 'dingtalk', name: 'wrong sign', url: robots.url('/dingtalk?access_token=t'), secret: 'SECwrong-secret' },
    })).id;
    const saved = dataOf(await rule({ name: 'duress', kinds: ['duress'], minSeverity: 'critical', channelIds: [refusing] }));
    await alarm((locks[0] as { id: number }).id, 'duress');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await worker.drain();
    const [failed] = await deliveries(`&ruleId=${saved.id}`);
    expect(failed).toMatchObject({ state: 'failed', attempts: 3 });
    expect(failed?.lastError).toContain('310000');
  });

  it('filters the delivery log by creation time, both ends included, and refuses a reversed range on endTime', async () => {
    const all = await deliveries();
    expect(all.length).toBeGreaterThan(0);
    const hour = 3_600_000;
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    expect(await deliveries(`&startTime=${iso(Date.now() - hour)}&endTime=${iso(Date.now() + hour)}`)).toHaveLength(all.length);
    expect(await deliveries(`&startTime=${iso(Date.now() + hour)}`)).toHaveLength(0);
    expect(await deliveries(`&endTime=${iso(Date.now() - hour)}`)).toHaveLength(0);
    const reversed = await call(ctx.app, token, { method: 'GET', url: `${API}/delivery?startTime=${iso(Date.now())}&endTime=${iso(Date.now() - hour)}` });
    expect(reversed.statusCode).toBe(400);
    expect(JSON.parse(reversed.body).errors[0].field).toBe('query.endTime');
  });

  it('keeps rules and deliveries to their data centre', async () => {
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/rule`, tenantId: 101 }))).toEqual([]);
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/delivery`, tenantId: 101 })).total).toBe(0);
    const foreign = await rule({ name: 'borrowed', channelIds: [wecom] }, 101);
    expect(foreign.statusCode).toBe(400);
    expect(JSON.parse(foreign.body).errors[0].field).toBe('body.channelIds');
  });
});
