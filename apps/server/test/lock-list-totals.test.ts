/**
 * The lock list's remembered totals (modules/lockDevice/list-totals.ts): a building's total is counted
 * once and answered again; a lock added, moved or decommissioned through the registry is counted at once
 * on this instance and, through NOTIFY, soon on another one (api-postgres: a second app with its own
 * connections; api-pglite: a second app on the same handle); filters that time or heartbeats move are
 * counted on every request.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { call, createTestContext, dataOf, secondInstance, signIn, skipSuite, type TestContext } from './helper.js';

const BUILDING = encodeURIComponent('总量楼');

describe.skipIf(skipSuite)('lock list totals', () => {
  let ctx: TestContext;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 3);
    other = await secondInstance(ctx);
    token = await signIn(ctx.app);
  });
  afterAll(async () => {
    await other?.close();
    await ctx?.close();
  });

  const totalOf = async (app: typeof ctx.app, query: string) => dataOf(await call(app, token, { method: 'GET', url: `/iot/v1/lockDevice/list?${query}` })).total as number;
  const register = async (serial: string) =>
    dataOf(await call(ctx.app, token, { method: 'POST', url: '/iot/v1/lockDevice', payload: { imei: imeiWithCheckDigit(serial), name: serial, model: 'ZG-NB200', building: '总量楼', floor: '1层', room: serial.slice(-3) } })).id as number;
  /** Polls the other instance until its total of `query` is `total` (deadline 15 s: a loaded machine). */
  const untilOther = async (query: string, total: number) => {
    const started = Date.now();
    while (await totalOf(other.app, query) !== total) {
      if (Date.now() - started > 15_000) throw new Error(`the other instance never counted ${total}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('answers a counted total again without counting, until the registry changes a lock', async () => {
    const first = await register('35693803560001');
    expect(await totalOf(ctx.app, `building=${BUILDING}`)).toBe(1);
    expect(await totalOf(other.app, `building=${BUILDING}`)).toBe(1);
    // A row written behind the registry's back (no event) is not counted while the total is remembered.
    await ctx.database.system.execute(sql`insert into locks (tenant_id, imei, name, building, model, firmware_version)
      values (100, ${imeiWithCheckDigit('35693803560009')}, 'behind', '总量楼', 'ZG-NB200', '1.0.0')`);
    expect(await totalOf(ctx.app, `building=${BUILDING}`)).toBe(1);
    // Through the registry: counted at once here, soon on the other instance.
    await register('35693803560002');
    expect(await totalOf(ctx.app, `building=${BUILDING}`)).toBe(3);
    await untilOther(`building=${BUILDING}`, 3);
    dataOf(await call(ctx.app, token, { method: 'POST', url: '/iot/v1/lockDevice/decommission', payload: { id: first } }));
    expect(await totalOf(ctx.app, `building=${BUILDING}`)).toBe(2);
    expect(await totalOf(ctx.app, `building=${BUILDING}&state=decommissioned`)).toBe(1);
    await untilOther(`building=${BUILDING}`, 2);
  });

  it('counts a page of a remembered total with the same records as a counted one', async () => {
    const counted = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/list?building=${BUILDING}&size=10` }));
    const remembered = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/list?building=${BUILDING}&size=10` }));
    expect(remembered).toEqual(counted);
  });

  it('counts the online filter on every request (heartbeats move it without a registry change)', async () => {
    const before = await totalOf(ctx.app, `building=${BUILDING}&online=true`);
    await ctx.database.system.update(locks).set({ lastHeartbeatAt: sql`now()` }).where(eq(locks.building, '总量楼'));
    expect(await totalOf(ctx.app, `building=${BUILDING}&online=true`)).toBe(before + 2);
  });
});
