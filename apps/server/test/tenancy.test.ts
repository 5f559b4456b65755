/** Tenant isolation (header check, row-level security) and authority checks, on PGlite and PostgreSQL. */
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { locks, roles, unmanagedSlots } from '../src/db/schema.js';
import { authPlugin } from '../src/http/auth-plugin.js';
import { call, createTestContext, forgetPrincipals, OPERATOR_PASSWORD, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('tenancy and authorities', () => {
  let ctx: TestContext;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    admin = await signIn(ctx.app);
    operator = await signIn(ctx.app, 'operator', OPERATOR_PASSWORD);
  });
  afterAll(() => ctx?.close());

  const list = (token: string, tenantId: number) => call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?size=500', tenantId });

  it("never shows tenant 101's locks under tenant 100", async () => {
    const in100 = (await list(admin, 100)).json().data;
    const in101 = (await list(admin, 101)).json().data;
    expect(in100.total).toBe(8);
    expect(in101.total).toBe(2);
    const ids100 = new Set(in100.records.map((r: { imei: string }) => r.imei));
    expect(in101.records.some((r: { imei: string }) => ids100.has(r.imei))).toBe(false);
  });

  it('refuses a tenantId the account may not use with 403 FORBIDDEN, and a malformed one with 400', async () => {
    const foreign = await list(operator, 101);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('FORBIDDEN');
    expect((await list(admin, 999)).json().code).toBe('FORBIDDEN');
    const malformed = await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/lockDevice/list', headers: { tenantId: 'abc' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].field).toBe('headers.tenantId');
  });

  it('confines queries to the tenant through row-level security even without a filter', async () => {
    const seen = await ctx.database.withTenant(101, (tx) => tx.select({ tenantId: locks.tenantId }).from(locks));
    expect(seen.length).toBe(2);
    expect(seen.every((row) => row.tenantId === 101)).toBe(true);
    await expect(ctx.database.withTenant(100, (tx) => tx.update(locks).set({ name: 'x' }).where(eq(locks.tenantId, 101)).returning()))
      .resolves.toEqual([]);
  });

  it("keeps the keyword search's view (lock_search) to the tenant's locks, and read-only", async () => {
    const imei100 = (await list(admin, 100)).json().data.records[0].imei as string;
    const search = (tenantId: number) => call(ctx.app, admin, { method: 'GET', url: `/iot/v1/lockDevice/list?keyword=${imei100.slice(2)}`, tenantId });
    expect((await search(100)).json().data.total).toBe(1);
    expect((await search(101)).json().data.total).toBe(0);
    const viewed = await ctx.database.withTenant(101, (tx) => tx.execute(sql`select l.tenant_id from lock_search s join locks l using (id)`));
    expect(rowsOf<{ tenant_id: number }>(viewed).map((row) => row.tenant_id)).toEqual([101, 101]);
    const noTenant = await ctx.database.system.execute(sql`select count(*)::int as n from lock_search`);
    expect(rowsOf<{ n: number }>(noTenant)[0]?.n).toBe(0); // the owner, without app.tenant_id
    const refused = await ctx.database.withTenant(100, (tx) => tx.execute(sql`update lock_search set name = 'x'`))
      .then(() => 'written', (error: { cause?: { code?: string } }) => error.cause?.code);
    expect(refused).toBe('42501'); // insufficient_privilege
  });

  it('lets the operator use what its role grants and refuses the rest with FORBIDDEN, not TOKEN_EXPIRED', async () => {
    expect((await list(operator, 100)).statusCode).toBe(200);
    const info = (await call(ctx.app, operator, { method: 'GET', url: '/oauth/userInfo' })).json().data;
    expect(info).toMatchObject({ username: 'operator', type: 1, authorities: ['HOME_PAGE', 'LOOK_RULE', 'LOOK_INFO'] });
    expect(info.tenants).toEqual([{ id: 100, name: expect.any(String) }]);
    await ctx.database.system.update(roles).set({ authorities: sql`array['HOME_PAGE']` });
    forgetPrincipals(ctx.app); // written behind the role module: no event
    const denied = await list(operator, 100);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'FORBIDDEN', message: '没有权限' });
    expect((await call(ctx.app, operator, { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
  });

  it("keeps schedules and holiday calendars to their data centre", async () => {
    const post = (url: string, payload: object, tenantId: number) => call(ctx.app, admin, { method: 'POST', url, payload, tenantId });
    const get = (url: string, tenantId: number) => call(ctx.app, admin, { method: 'GET', url, tenantId });
    const lockId = (await list(admin, 100)).json().data.records[0].id as number;
    const user = (await post('/iot/v1/zg/userOperation', { action: 'add', lockId, name: '租户100用户' }, 100)).json().data;
    const schedule = { kind: 'weekDay', days: ['monday'], startTime: '09:00', endTime: '12:00' };
    // Tenant 101 cannot reach tenant 100's lock user, schedule or calendar: 404, and its lists are empty.
    expect((await post('/iot/v1/accessSchedule/operate', { action: 'add', lockUserId: user.id, schedule }, 101)).statusCode).toBe(404);
    const added = (await post('/iot/v1/accessSchedule/operate', { action: 'add', lockUserId: user.id, schedule }, 100)).json().data;
    expect((await post('/iot/v1/accessSchedule/operate', { action: 'delete', id: added.id }, 101)).statusCode).toBe(404);
    expect((await get('/iot/v1/accessSchedule/list', 101)).json().data.total).toBe(0);
    const calendar = (await post('/iot/v1/holidayCalendar/save', { name: '租户100日历', buildings: ['A栋'] }, 100)).json().data;
    expect((await get(`/iot/v1/holidayCalendar/entries?calendarId=${calendar.id}`, 101)).statusCode).toBe(404);
    expect((await post('/iot/v1/holidayCalendar/apply', { id: calendar.id }, 101)).statusCode).toBe(404);
    expect((await get('/iot/v1/holidayCalendar/list', 101)).json().data.total).toBe(0);
    // A calendar of tenant 101 named like tenant 100's scope reaches only tenant 101's locks.
    const other = (await post('/iot/v1/holidayCalendar/save', { name: '租户101日历', buildings: ['A栋', 'B栋', 'C栋'] }, 101)).json().data;
    await post('/iot/v1/holidayCalendar/entry', { action: 'add', calendarId: other.id, kind: 'holiday', name: '假日', startDate: '2099-01-01', endDate: '2099-01-02' }, 101);
    const applied = (await post('/iot/v1/holidayCalendar/apply', { id: other.id }, 101)).json().data;
    const ids101 = new Set((await list(admin, 101)).json().data.records.map((r: { id: number }) => r.id));
    expect(applied.locks.length).toBeGreaterThan(0);
    expect(applied.locks.every((l: { lockId: number }) => ids101.has(l.lockId))).toBe(true);
  });

  it("keeps a lock's inventory drift to its data centre", async () => {
    const post = (url: string, payload: object, tenantId: number) => call(ctx.app, admin, { method: 'POST', url, payload, tenantId });
    const lockId = (await list(admin, 100)).json().data.records[0].id as number;
    const [slot] = await ctx.database.system.insert(unmanagedSlots)
      .values({ tenantId: 100, lockId, slotTable: 'passwords', slot: 90, syncState: 'normal', pendingAction: 'add' }).returning();
    const user = (await post('/iot/v1/zg/userOperation', { action: 'add', lockId, name: '租户100漂移' }, 100)).json().data;
    // Tenant 101 reaches neither the lock's drift nor its unmanaged slot: 404, and nothing changes.
    expect((await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/lockDevice/drift?lockId=${lockId}`, tenantId: 101 })).statusCode).toBe(404);
    expect((await post('/iot/v1/lockDevice/queryInventory', { lockId }, 101)).statusCode).toBe(404);
    expect((await post('/iot/v1/lockDevice/drift/adopt', { id: slot?.id, lockUserId: user.id }, 101)).statusCode).toBe(404);
    expect((await post('/iot/v1/lockDevice/drift/deleteUnmanaged', { id: slot?.id }, 101)).statusCode).toBe(404);
    const after = await ctx.database.system.select().from(unmanagedSlots).where(eq(unmanagedSlots.id, slot?.id as number));
    expect(after[0]?.syncState).toBe('normal');
    expect((await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/lockDevice/drift?lockId=${lockId}`, tenantId: 100 })).json().data.tables[1].unmanaged).toHaveLength(1);
  });

  it("keeps a lock's remote unlocks to its data centre", async () => {
    const post = (url: string, payload: object, tenantId: number) => call(ctx.app, admin, { method: 'POST', url, payload, tenantId });
    const lockId = (await list(admin, 100)).json().data.records[1].id as number;
    await ctx.database.system.update(locks).set({ alwaysOnline: true, highSecurity: true }).where(eq(locks.id, lockId));
    const asked = (await post('/iot/v1/lockDevice/remoteUnlock', { lockId, reason: '租户测试 tenancy' }, 100)).json().data;
    expect(asked.state).toBe('awaitingApproval');
    // Tenant 101 neither sees, asks, approves nor changes the door: 404, and nothing changes.
    expect((await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/lockDevice/remoteUnlock?lockId=${lockId}`, tenantId: 101 })).statusCode).toBe(404);
    expect((await post('/iot/v1/lockDevice/remoteUnlock', { lockId, reason: '越权 foreign' }, 101)).statusCode).toBe(404);
    expect((await post('/iot/v1/lockDevice/remoteUnlock/approve', { id: asked.id }, 101)).statusCode).toBe(404);
    expect((await post('/iot/v1/lockDevice/remoteUnlock/highSecurity', { lockId, highSecurity: false }, 101)).statusCode).toBe(404);
    const after = (await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/lockDevice/remoteUnlock?lockId=${lockId}`, tenantId: 100 })).json().data;
    expect(after).toMatchObject({ highSecurity: true, requests: [{ id: asked.id, state: 'awaitingApproval', approvedBy: null }] });
  });

  it('refuses to register a route that declares no authority', async () => {
    const app = Fastify();
    await app.register(authPlugin);
    expect(() => app.get('/undeclared', async () => 'x')).toThrow(/declares no access/);
    await app.close();
  });
});
