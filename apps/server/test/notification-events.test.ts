/**
 * A lock's operational events as notifications (credential sync failed, command
 * failed or expired, OTA rollout paused, push endpoint paused, payment or refund): raised on the real event bus by a transaction, as the credential and command
 * modules do; only rules naming the kinds get them (an empty `kinds` still means every alert kind),
 * scoped by building like alerts, with the kind's fixed severity, no alert to acknowledge (so no
 * escalation), in the channel's language and in the inboxes of the data centre's administrators; a
 * paused rollout and a paid or refunded order likewise, for rules without a device scope; a stay not
 * ready for rules naming its building; a rule's hourly cap with its summary line.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { emit } from '../src/events/emit.js';
import { startNotificationWorker, type NotificationWorker } from '../src/modules/notification/worker.js';
import { egressPolicyOf } from '../src/modules/subscription/egress.js';
import { call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { SECRETS, startRobots } from './notification-receivers.js';

const API = '/iot/v1/notification';

describe.skipIf(skipSuite)('notifications of a lock’s operational events', () => {
  let ctx: TestContext;
  let token: string;
  let robots: Awaited<ReturnType<typeof startRobots>>;
  let worker: NotificationWorker;
  let locks: number[];
  let wecom: number;
  let command = 1;
  const wecomMessages = () => robots.received.filter((r) => r.path === '/wecom' && r.verified);
  const failCommand = async (lockId: number, state: 'FAILED' | 'EXPIRED' | 'SUCCESSFUL') => {
    await ctx.database.withTenant(100, (tx) => emit(tx, 'command.state', { tenantId: 100, deviceKind: 'lock', deviceId: lockId, commandId: command++, state }));
    await worker.drain();
  };
  const failSync = async (lockId: number, state: 'add_failed' | 'normal') => {
    await ctx.database.withTenant(100, (tx) => emit(tx, 'credential.sync', { tenantId: 100, lockId, subject: 'credential', rowId: command++, state }));
    await worker.drain();
  };

  beforeAll(async () => {
    ctx = await createTestContext({ PUSH_ALLOWED_NETWORKS: 'loopback' }, 2);
    token = await signIn(ctx.app);
    robots = await startRobots();
    worker = startNotificationWorker({ database: ctx.database, box: lazySecretBox(ctx.config), policy: egressPolicyOf(ctx.config), log: ctx.app.log, scheduleMs: [20] });
    locks = (await rowsOf<{ id: number }>(ctx.database.system.execute(sql`select id from locks where tenant_id = 100 order by id limit 2`))).map((row) => row.id);
    await ctx.database.system.execute(sql`update locks set building = case when id = ${locks[1]} then 'B' else 'A' end where id = any(${sql.param(locks)}::int[])`);
    wecom = dataOf(await call(ctx.app, token, { method: 'POST', url: `${API}/channel`, payload: { kind: 'wecom', name: 'ops group', url: robots.url('/wecom'), secret: SECRETS.wecom } })).id;
  });
  afterAll(async () => {
    await worker?.close();
    await robots?.close();
    await ctx?.close();
  });

  it('reaches only rules that name the kind, in their scope, with the kind’s severity', async () => {
    const everyAlert = await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'every alert', channelIds: [wecom], stormWindowS: 0 } });
    expect(everyAlert.statusCode).toBe(200);
    const saved = await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: {
      name: 'sync and commands in A', kinds: ['credentialSyncFailed', 'commandFailed'], minSeverity: 'minor', buildings: ['A'], channelIds: [wecom], escalateAfterMin: 5, escalationChannelIds: [wecom],
    } });
    expect(saved.statusCode).toBe(200);
    const [a, b] = locks as [number, number];
    await failCommand(a, 'SUCCESSFUL'); // not a failure
    await failSync(a, 'normal');
    await failCommand(b, 'EXPIRED'); // building B: out of scope
    expect(wecomMessages()).toHaveLength(0);
    await failCommand(a, 'EXPIRED');
    await failSync(a, 'add_failed');
    const texts = wecomMessages().map((r) => r.body);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('指令失败或过期');
    expect(texts[1]).toContain('凭证同步失败');
    const log = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/delivery?size=100` })).records as { kind: string; severity: string; deviceId: number; state: string }[];
    expect(log.map((d) => [d.kind, d.severity, d.deviceId, d.state]).sort()).toEqual([['commandFailed', 'minor', a, 'sent'], ['credentialSyncFailed', 'major', a, 'sent']]);
    // No alert to acknowledge: nothing waits for escalation.
    const [waiting] = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from notifications where escalate_at is not null`));
    expect(waiting?.n).toBe(0);
  });

  it('lands in the administrator’s inbox, linked to the lock, with no alert', async () => {
    const inbox = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/inbox?size=10` }));
    const kinds = inbox.records.map((r: { kind: string; alertId: number | null; deviceId: number }) => [r.kind, r.alertId, r.deviceId]);
    expect(kinds).toEqual(expect.arrayContaining([['commandFailed', null, locks[0]], ['credentialSyncFailed', null, locks[0]]]));
  });

  it('a paused rollout, a paid or refunded order and a paused push endpoint reach unscoped rules and the inbox', async () => {
    const emitted = async (work: Parameters<typeof emit>) => {
      await ctx.database.withTenant(100, (tx) => emit(tx, work[1], work[2] as never));
      await worker.drain();
    };
    await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'rollouts in A', kinds: ['otaPaused'], buildings: ['A'], minSeverity: 'warning', channelIds: [wecom] } });
    await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'business', kinds: ['otaPaused', 'pushPaused', 'paymentReceived', 'orderRefunded'], minSeverity: 'warning', channelIds: [wecom] } });
    // Fixture: an order of the data centre (the payment flow itself is tested in wx-*.test.ts).
    const [order] = await rowsOf<{ id: number; outTradeNo: string }>(ctx.database.system.execute(sql`
      insert into orders (tenant_id, out_trade_no, product_id, description, amount_fen, lock_ids, months, expires_at, created_by)
      select 100, 'NT20261127000001', p.id, '门锁年费套餐', 100, ${sql.param([locks[0]])}::int[], 12, now() + interval '2 hours', 'admin' from products p order by p.id limit 1
      returning id, out_trade_no as "outTradeNo"`));
    const [customer] = await rowsOf<{ id: number }>(ctx.database.system.execute(sql`insert into customer_codes (tenant_id, code, name) values (100, 'PMS-01', '酒店 PMS') returning id`));
    if (!order || !customer) throw new Error('fixtures not written');
    const before = wecomMessages().length;
    await emitted([ctx.database.system, 'ota.state', { tenantId: 100, rolloutId: 77, rolloutState: 'RUNNING' }]);
    await emitted([ctx.database.system, 'ota.state', { tenantId: 100, rolloutId: 77, lockId: locks[0] as number, jobState: 'FAILED' }]);
    expect(wecomMessages()).toHaveLength(before);
    await emitted([ctx.database.system, 'ota.state', { tenantId: 100, rolloutId: 77, rolloutState: 'PAUSED' }]);
    await emitted([ctx.database.system, 'order.state', { tenantId: 100, orderId: order.id, tradeState: 'SUCCESS' }]);
    await emitted([ctx.database.system, 'order.state', { tenantId: 100, orderId: order.id, tradeState: 'REFUND' }]);
    await emitted([ctx.database.system, 'push.paused', { tenantId: 100, customerCodeId: customer.id }]);
    const sent = wecomMessages().slice(before).map((r) => r.body);
    expect(sent).toHaveLength(4); // the scoped rule matched none
    expect(sent[0]).toContain('固件升级暂停');
    expect(sent[1]).toContain(order.outTradeNo);
    expect(sent[3]).toContain('推送地址已暂停');
    expect(sent[3]).toContain('酒店 PMS (PMS-01)');
    const inbox = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/inbox?size=10` })).records as { kind: string; deviceKind: string; deviceCode: string | null }[];
    expect(inbox.find((r) => r.kind === 'otaPaused')).toMatchObject({ deviceKind: 'rollout' });
    expect(inbox.find((r) => r.kind === 'orderRefunded')).toMatchObject({ deviceKind: 'order', deviceCode: order.outTradeNo });
    expect(inbox.find((r) => r.kind === 'pushPaused')).toMatchObject({ deviceKind: 'customer', deviceCode: 'PMS-01' });
  });

  it('a stay not ready 1 hour before check-in reaches the rules naming stayNotReady in its building, with its room and door counts', async () => {
    await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'stays in A', kinds: ['stayNotReady'], buildings: ['A'], channelIds: [wecom] } });
    await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'stays in B', kinds: ['stayNotReady'], buildings: ['B'], channelIds: [wecom] } });
    const [lock] = await rowsOf<{ floor: string; room: string }>(ctx.database.system.execute(sql`select floor, room from locks where id = ${locks[0]}`));
    // A walk-in is issued at once; no gateway here, so its door stays queued.
    const stay = dataOf(await call(ctx.app, token, { method: 'POST', url: '/iot/v1/stay/add', payload: {
      room: { building: 'A', floor: lock?.floor, room: lock?.room }, guests: [{ name: '李雷', mobile: '13900000001' }], reference: 'PMS-77',
      checkInAt: new Date(Date.now() - 60_000).toISOString(), checkOutAt: new Date(Date.now() + 3600_000).toISOString(),
    } }));
    const before = wecomMessages().length;
    await ctx.database.withTenant(100, (tx) => emit(tx, 'stay.notReady', { tenantId: 100, stayId: stay.id, checkInAt: stay.checkInAt, queuedDoors: 1, failedDoors: 0 }));
    await worker.drain();
    const sent = wecomMessages().slice(before).map((r) => r.body);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(`入住未就绪：A / ${[lock?.floor, lock?.room].filter(Boolean).join(' / ')}`);
    expect(sent[0]).toContain('1 个门锁排队中，0 个门锁下发失败');
    expect(sent[0]).toContain('(PMS-77)');
    const inbox = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/inbox?size=20` })).records as { kind: string; deviceKind: string; deviceCode: string | null; severity: string }[];
    expect(inbox.find((r) => r.kind === 'stayNotReady')).toMatchObject({ deviceKind: 'stay', deviceCode: 'PMS-77', severity: 'major' });
  });

  it('caps a rule per hour: the first over the cap says so, later ones are logged suppressed and still reach the inbox', async () => {
    const capped = dataOf(await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'capped', kinds: ['commandFailed'], buildings: ['B'], channelIds: [wecom], stormWindowS: 0, hourlyCap: 2 } }));
    expect(capped.hourlyCap).toBe(2);
    const before = wecomMessages().length;
    for (let i = 0; i < 4; i++) await failCommand(locks[1] as number, 'FAILED');
    const sent = wecomMessages().slice(before).map((r) => r.body);
    expect(sent).toHaveLength(3);
    expect(sent[2]).toContain('本规则每小时最多发送 2 条通知');
    const log = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/delivery?size=100&ruleId=${capped.id}` })).records as { state: string; lastError: string | null }[];
    expect(log.map((d) => [d.state, d.lastError])).toEqual([['suppressed', 'hourly cap'], ['sent', null], ['sent', null], ['sent', null]]);
    const inbox = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/inbox?size=20` })).records as { kind: string; deviceId: number }[];
    expect(inbox.filter((r) => r.kind === 'commandFailed' && r.deviceId === locks[1])).toHaveLength(4);
    const tooMany = await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'bad cap', channelIds: [wecom], hourlyCap: -1 } });
    expect([tooMany.statusCode, JSON.parse(tooMany.body).errors[0].field]).toEqual([400, 'body.hourlyCap']);
  });

  it('refuses an unknown kind in a rule with the field named', async () => {
    const refused = await call(ctx.app, token, { method: 'POST', url: `${API}/rule`, payload: { name: 'bad', kinds: ['offlineForever'], channelIds: [wecom] } });
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).errors[0].field).toMatch(/^body\.kinds/);
  });
});
