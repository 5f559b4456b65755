/**
 * Offline codes on PGlite and PostgreSQL: issue a code for any lock of the tenant (no
 * downlink), the simulated lock given its key at start accepts it at the keypad within its window and
 * refuses it outside / on second use; the list shows who issued which code for whom but never the code;
 * tenant isolation; validation 400s name the fields in zh and en; 系统日志 has the issue.
 */
import { SimulatedLock } from '@iot/simulator';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKeyFor } from '../src/crypto/secret-box.js';
import { rowsOf } from '../src/db/rows.js';
import { commands, locks, offlineCodes } from '../src/db/schema.js';
import { issueSimulatorCredentials } from '../src/modules/lockDevice/credentials.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

const HOUR = 3_600_000;
/** The next whole hour from now plus `hours`, ISO in China Standard Time. */
const hourFromNow = (hours: number) => new Date((Math.floor(Date.now() / HOUR) + 1 + hours) * HOUR).toISOString().replace('.000Z', 'Z');

describe.skipIf(skipSuite)('offline codes', () => {
  let ctx: TestContext;
  let admin: string;
  let lockId: number;
  let imei: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    admin = await signIn(ctx.app);
    const [lock] = await ctx.database.system.select({ id: locks.id, imei: locks.imei }).from(locks).where(eq(locks.tenantId, 100)).orderBy(locks.id).limit(1);
    lockId = lock?.id as number;
    imei = lock?.imei as string;
  });
  afterAll(() => ctx?.close());

  const send = (payload: object, language = 'zh-CN', tenantId = 100) =>
    call(ctx.app, admin, { method: 'POST', url: '/iot/v1/offlineCode', payload, tenantId, headers: { 'accept-language': language } });
  const issue = async (window: object, name = '张三') => dataOf(await send({ lockId, recipientName: name, recipientMobile: '13800138000', window }));
  const simulatedLock = async () => {
    const [device] = await issueSimulatorCredentials(ctx.database, [], [imei], masterKeyFor(ctx.config));
    return new SimulatedLock({ ...(device as NonNullable<typeof device>), alwaysOnline: true });
  };
  const type = (lock: SimulatedLock, password: string, at: number) => lock.attemptOpen({ method: 'password', password, at }).result;

  it('issues a one-time code the simulated lock accepts once within its 6 hours, without any command', async () => {
    const before = (await ctx.database.system.select({ n: sql<number>`count(*)::int` }).from(commands))[0]?.n;
    const start = hourFromNow(1);
    const issued = await issue({ kind: 'oneTime', start });
    expect(issued).toMatchObject({ lockId, kind: 'oneTime', recipientName: '张三', recipientMobile: '13800138000', issuedBy: 'admin', fromHour: null, toHour: null,
      validFrom: new Date(start).toISOString(), validTo: new Date(Date.parse(start) + 6 * HOUR).toISOString(), code: expect.stringMatching(/^1\d{8}$/) });
    expect((await ctx.database.system.select({ n: sql<number>`count(*)::int` }).from(commands))[0]?.n).toBe(before);
    const lock = await simulatedLock();
    const from = Date.parse(start);
    expect(type(lock, issued.code, from - 1)).toMatchObject({ success: false, reason: 'unknown' });
    expect(type(lock, issued.code, from + HOUR)).toMatchObject({ success: true });
    expect(type(lock, issued.code, from + 2 * HOUR)).toMatchObject({ success: false, reason: 'used' });
    const [row] = await ctx.database.system.select().from(offlineCodes).where(eq(offlineCodes.id, issued.id));
    expect(JSON.stringify(row)).not.toContain(issued.code);
  });

  it('issues hourly (up to 28 days) and daily codes; the lock opens only inside them', async () => {
    const start = hourFromNow(0);
    const hourly = await issue({ kind: 'hourly', start, hours: 672 }, '李四');
    expect(Date.parse(hourly.validTo) - Date.parse(hourly.validFrom)).toBe(672 * HOUR);
    const today = new Date(Date.now() + 8 * HOUR).toISOString().slice(0, 10);
    const last = new Date(Date.now() + 8 * HOUR + 6 * 24 * HOUR).toISOString().slice(0, 10);
    const daily = await issue({ kind: 'daily', firstDate: today, lastDate: last, fromHour: 0, toHour: 24 }, '王五');
    expect(daily).toMatchObject({ kind: 'daily', fromHour: 0, toHour: 24, validFrom: new Date(`${today}T00:00:00+08:00`).toISOString() });
    const lock = await simulatedLock();
    expect(type(lock, hourly.code, Date.parse(start) + 671 * HOUR).success).toBe(true);
    expect(type(lock, hourly.code, Date.parse(start) + 672 * HOUR).success).toBe(false);
    expect(type(lock, daily.code, Date.parse(`${last}T23:59:00+08:00`)).success).toBe(true);
    expect(type(lock, daily.code, Date.parse(`${last}T23:59:00+08:00`) + HOUR).success).toBe(false);
    const same = await send({ lockId, recipientName: '赵六', recipientMobile: '13900139000', window: { kind: 'hourly', start, hours: 672 } });
    expect([same.statusCode, same.json().errors[0].field]).toEqual([409, 'body.window']);
  });

  it('lists issued codes newest first without the codes; 系统日志 has each issue', async () => {
    const list = dataOf(await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/offlineCode/list?lockId=${lockId}` }));
    expect(list.map((row: { recipientName: string }) => row.recipientName)).toEqual(['王五', '李四', '张三']);
    expect(list.every((row: object) => !('code' in row))).toBe(true);
    const audit = rowsOf<{ action: string; result: string }>(await ctx.database.system.execute(sql`select action, result from audit_log where action like '%offlineCode%' order by id`));
    expect(audit.filter((row) => row.result === 'success')).toHaveLength(3);
  });

  it("keeps tenants apart: another tenant neither lists nor issues for this tenant's lock", async () => {
    const other = dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/offlineCode/list', tenantId: 101 }));
    expect(other).toEqual([]);
    const foreign = await send({ lockId, recipientName: '张三', recipientMobile: '13800138000', window: { kind: 'oneTime', start: hourFromNow(3) } }, 'zh-CN', 101);
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses bad windows and recipients with 400 naming the fields, in zh and en; writes nothing', async () => {
    const before = (await ctx.database.system.select({ n: sql<number>`count(*)::int` }).from(offlineCodes))[0]?.n;
    const cases: [object, string][] = [
      [{ kind: 'hourly', start: hourFromNow(1), hours: 673 }, 'body.window.hours'],
      [{ kind: 'oneTime', start: '2020-01-01T00:00:00Z' }, 'body.window.start'],
      [{ kind: 'daily', firstDate: '2030-01-01', lastDate: '2030-01-29', fromHour: 9, toHour: 18 }, 'body.window.lastDate'],
      [{ kind: 'daily', firstDate: '2030-01-01', lastDate: '2030-01-02', fromHour: 18, toHour: 9 }, 'body.window.toHour'],
      [{ kind: 'weekly' }, 'body.window.kind'],
    ];
    for (const [window, field] of cases) {
      for (const language of ['zh-CN', 'en-US']) {
        const response = await send({ lockId, recipientName: '张三', recipientMobile: '13800138000', window }, language);
        expect([response.statusCode, response.json().errors?.[0]?.field], JSON.stringify(window)).toEqual([400, field]);
      }
    }
    const badMobile = await send({ lockId, recipientName: ' ', recipientMobile: '123', window: { kind: 'oneTime', start: hourFromNow(1) } }, 'en-US');
    expect(badMobile.statusCode).toBe(400);
    expect(badMobile.json().errors.map((error: { field: string }) => error.field).sort()).toEqual(['body.recipientMobile', 'body.recipientName']);
    const zh = await send({ lockId, recipientName: '张三', recipientMobile: '13800138000', window: { kind: 'hourly', start: '2020-01-01T00:00:00Z', hours: 1 } });
    expect(zh.json().errors[0].message).toMatchObject({ 'zh-CN': expect.stringContaining('有效期'), 'en-US': expect.stringContaining('over') });
    expect((await ctx.database.system.select({ n: sql<number>`count(*)::int` }).from(offlineCodes))[0]?.n).toBe(before);
  });
});
