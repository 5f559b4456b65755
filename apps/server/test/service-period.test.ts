/**
 * Service periods: a lock whose service has ended refuses new lock users and configuration
 * pushes (402 SERVICE_EXPIRED, nothing written) but keeps clock sync; the summary warns at 30/7/1
 * days; paying for the lock lifts the refusal.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dataOf, skipSuite, tableChecksum } from './helper.js';
import { buy, createPayContext, type PayContext, waitForState } from './wx-support.js';

const DAY = 86_400_000;

describe.skipIf(skipSuite)('service periods', () => {
  let ctx: PayContext;
  beforeAll(async () => {
    ctx = await createPayContext();
    const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    await ctx.database.system.execute(sql`update locks set service_end_at = case id when 1 then ${at(-2)}::timestamptz when 2 then ${at(0.5)}::timestamptz when 3 then ${at(20)}::timestamptz end where id in (1, 2, 3)`);
  });
  afterAll(() => ctx?.close());

  it('warns about locks ending within 30, 7 and 1 days and those ended', async () => {
    const summary = dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/wx/serviceSummary' }));
    expect(summary).toMatchObject({ expired: 1, within1: 1, within7: 1, within30: 2 });
    expect(summary.locks.map((l: { id: number }) => l.id)).toEqual([1, 2, 3]);
  });

  it('an expired lock refuses new lock users and configuration pushes without writing anything, and still syncs its clock', async () => {
    const tables = ['commands', 'lock_users', 'credentials', 'credential_operations'];
    const before = await tableChecksum(ctx.database, tables);
    const addUser = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/zg/userOperation', payload: { action: 'add', lockId: 1, name: '张三' } });
    expect([addUser.statusCode, addUser.json().code]).toEqual([402, 'SERVICE_EXPIRED']);
    const push = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/lockConfig', payload: { lockId: 1, config: { volume: 40 } } });
    expect([push.statusCode, push.json().code]).toEqual([402, 'SERVICE_EXPIRED']);
    expect(await tableChecksum(ctx.database, tables)).toBe(before);
    expect((await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/lockDevice/clockSync', payload: { lockId: 1 } })).statusCode).toBe(200);
    // A lock within its period is not restricted.
    expect((await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/lockConfig', payload: { lockId: 2, config: { volume: 40 } } })).statusCode).toBe(200);
  });

  it('paying for the expired lock extends it from today and lifts the refusal', async () => {
    const order = await buy(ctx, [1]);
    ctx.sandbox.pay(order.outTradeNo);
    await waitForState(ctx, order.outTradeNo, 'SUCCESS');
    const locks = dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/lockDevice/list' }));
    const end = Date.parse(locks.records.find((l: { id: number }) => l.id === 1).serviceEndAt);
    expect(end - Date.now()).toBeGreaterThan(360 * DAY);
    const addUser = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/zg/userOperation', payload: { action: 'add', lockId: 1, name: '张三' } });
    expect(addUser.statusCode).toBe(200);
  });
});
