/**
 * Remote unlock with real simulated always-online locks, on PGlite and PostgreSQL: offered
 * only where the lock can hear it (a sleeping NB-IoT lock is refused on lockId, zh and en), a reason is
 * required, the command goes through the outbox and the lock's open record names the operator with
 * method remote; a high-security door waits for a second operator (not the requester) within 10
 * minutes, and requester and approver are both in 系统日志.
 */
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { seedDemo, simulatedOnlineImei } from '../src/demo/seed.js';
import { locks, openRecords, remoteUnlocks } from '../src/db/schema.js';
import { type AccessEnv, startAccessEnv } from './access-support.js';
import { call, dataOf, operatorWith, skipSuite } from './helper.js';
import { waitFor } from './outbox-support.js';

describe.skipIf(skipSuite)('remote unlock with simulated locks', () => {
  let a: AccessEnv;
  let approver: string;
  beforeAll(async () => {
    a = await startAccessEnv();
    approver = (await operatorWith(a.env.ctx.app, a.token, 'unlock-approver', ['LOOK_INFO', 'LOCK_REMOTE_UNLOCK_APPROVE'])).token;
  });
  afterAll(() => a?.close());

  const remoteRecords = (index: number) => waitFor(() => a.env.ctx.database.system.select().from(openRecords)
    .where(and(eq(openRecords.lockId, a.lockId(index)), eq(openRecords.method, 'remote'))), (rows) => rows.length > 0, 15_000);

  it('opens an always-online lock through the outbox; the open record says remote and who asked', async () => {
    const overview = await a.get(`/iot/v1/lockDevice/remoteUnlock?lockId=${a.lockId(0)}`);
    expect(overview).toMatchObject({ offered: true, notOffered: null, highSecurity: false, requests: [] });
    const asked = await a.post('/iot/v1/lockDevice/remoteUnlock', { lockId: a.lockId(0), reason: '访客忘带钥匙 visitor locked out' });
    expect(asked).toMatchObject({ state: 'sent', requestedBy: 'admin', approveBy: null, commandId: expect.any(Number) });
    const [record] = await remoteRecords(0);
    expect(record).toMatchObject({ success: true, operator: 'admin' });
    const done = await waitFor(() => a.get(`/iot/v1/lockDevice/remoteUnlock?lockId=${a.lockId(0)}`), (o) => o.requests[0]?.commandState === 'SUCCESSFUL');
    expect(done.requests[0]).toMatchObject({ id: asked.id, resultCode: 0 });
  });

  it('is not offered on a sleeping NB-IoT lock, and needs a reason', async () => {
    const sleeping = a.lockId(3);
    expect(await a.get(`/iot/v1/lockDevice/remoteUnlock?lockId=${sleeping}`)).toMatchObject({ offered: false, notOffered: 'sleeping' });
    const refused = await a.send('POST', '/iot/v1/lockDevice/remoteUnlock', { lockId: sleeping, reason: '测试 test' });
    expect([refused.statusCode, refused.json().errors[0].field, refused.json().errors[0].message['en-US']]).toEqual([400, 'body.lockId', expect.stringContaining('NB-IoT')]);
    const noReason = await a.send('POST', '/iot/v1/lockDevice/remoteUnlock', { lockId: a.lockId(0), reason: ' ' });
    expect([noReason.statusCode, noReason.json().errors[0].field]).toEqual([400, 'body.reason']);
    const rows = await a.env.ctx.database.system.select().from(remoteUnlocks).where(eq(remoteUnlocks.lockId, sleeping));
    expect(rows).toEqual([]);
  });

  it('a high-security door waits for a second operator within 10 minutes; both are audited', async () => {
    dataOf(await call(a.env.ctx.app, approver, { method: 'POST', url: '/iot/v1/lockDevice/remoteUnlock/highSecurity', payload: { lockId: a.lockId(1), highSecurity: true } }));
    const asked = await a.post('/iot/v1/lockDevice/remoteUnlock', { lockId: a.lockId(1), reason: '机房巡检 server-room check' });
    expect(asked).toMatchObject({ state: 'awaitingApproval', commandId: null, approveBy: expect.any(String) });
    expect(Date.parse(asked.approveBy) - Date.parse(asked.requestedAt)).toBeGreaterThan(9.9 * 60_000);
    const self = await a.send('POST', '/iot/v1/lockDevice/remoteUnlock/approve', { id: asked.id });
    expect([self.statusCode, self.json().errors[0].field]).toEqual([403, 'body.id']);
    const approved = dataOf(await call(a.env.ctx.app, approver, { method: 'POST', url: '/iot/v1/lockDevice/remoteUnlock/approve', payload: { id: asked.id } }));
    expect(approved).toMatchObject({ state: 'sent', approvedBy: 'unlock-approver', commandId: expect.any(Number) });
    const [record] = await remoteRecords(1);
    expect(record).toMatchObject({ success: true, operator: 'admin' });
    const again = await call(a.env.ctx.app, approver, { method: 'POST', url: '/iot/v1/lockDevice/remoteUnlock/approve', payload: { id: asked.id } });
    expect(again.statusCode).toBe(409);
    const audit = rowsOf<{ username: string; action: string; result: string }>(await a.env.ctx.database.system.execute(
      sql`select username, action, result from audit_log where action like '%/remoteUnlock%' and result = 'success' order by id`));
    expect(audit.map((row) => `${row.username} ${row.action}`)).toEqual(expect.arrayContaining([
      'admin POST /iot/v1/lockDevice/remoteUnlock', 'unlock-approver POST /iot/v1/lockDevice/remoteUnlock/approve', 'unlock-approver POST /iot/v1/lockDevice/remoteUnlock/highSecurity',
    ]));
  });

  it('the demo seeds always-online 4G Cat.1 locks (ZG-4G300) with their device type; they offer remote unlock', async () => {
    await seedDemo(a.env.ctx.database, { simLocks: 0, simOnlineLocks: 2 });
    const seeded = await a.env.ctx.database.system.select({ id: locks.id, imei: locks.imei, model: locks.model, alwaysOnline: locks.alwaysOnline, tenantId: locks.tenantId })
      .from(locks).where(inArray(locks.imei, [simulatedOnlineImei(0), simulatedOnlineImei(1)])).orderBy(locks.imei);
    expect(seeded.map(({ imei, model, alwaysOnline, tenantId }) => ({ imei, model, alwaysOnline, tenantId }))).toEqual([
      { imei: '861234590000000', model: 'ZG-4G300', alwaysOnline: true, tenantId: 100 }, { imei: '861234590000001', model: 'ZG-4G300', alwaysOnline: true, tenantId: 100 },
    ]);
    const types = (await a.get('/iot/v1/equipmentType/list?kind=lock&keyword=ZG-4G300')).records;
    expect(types).toMatchObject([{ model: 'ZG-4G300', connectivity: 'alwaysOnline', unlockMethods: expect.arrayContaining(['remote']) }]);
    expect(await a.get(`/iot/v1/lockDevice/remoteUnlock?lockId=${seeded[0]?.id}`)).toMatchObject({ offered: true, notOffered: null });
    await seedDemo(a.env.ctx.database, { simLocks: 0, simOnlineLocks: 2 }); // idempotent
    expect(await a.env.ctx.database.system.$count(locks, like(locks.imei, '861234590%'))).toBe(2);
  });

  it('an approval after 10 minutes is refused and nothing is sent', async () => {
    const asked = await a.post('/iot/v1/lockDevice/remoteUnlock', { lockId: a.lockId(1), reason: '超时测试 late' });
    await a.env.ctx.database.system.update(remoteUnlocks).set({ approveBy: sql`now() - interval '1 second'` }).where(eq(remoteUnlocks.id, asked.id));
    const late = await call(a.env.ctx.app, approver, { method: 'POST', url: '/iot/v1/lockDevice/remoteUnlock/approve', payload: { id: asked.id } });
    expect([late.statusCode, late.json().errors[0].field]).toEqual([409, 'body.id']);
    const overview = await a.get(`/iot/v1/lockDevice/remoteUnlock?lockId=${a.lockId(1)}`);
    expect(overview.requests[0]).toMatchObject({ id: asked.id, state: 'expired', commandId: null });
    const [lock] = await a.env.ctx.database.system.select({ highSecurity: locks.highSecurity }).from(locks).where(eq(locks.id, a.lockId(1)));
    expect(lock?.highSecurity).toBe(true);
  });
});
