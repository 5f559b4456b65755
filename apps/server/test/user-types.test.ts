/**
 * Matter user types end to end with real simulated locks, on PGlite and PostgreSQL: the
 * protocol carries the type, the lock implements it, the platform follows: a forced user opens and
 * raises the duress alarm (nothing at the door differs), a disposable user works once and the lock
 * deletes it and says so, an expiring user stops N minutes after its first use (a controllable lock
 * clock), non-access and remote-only users are refused at the keypad, the dual credential rule needs a
 * second person within 10 s where the device type supports it.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, credentialOperations, lockUsers, openRecords } from '../src/db/schema.js';
import { type AccessEnv, localAt, startAccessEnv } from './access-support.js';
import { skipSuite } from './helper.js';
import { waitFor } from './outbox-support.js';

describe.skipIf(skipSuite)('Matter user types with simulated locks', () => {
  let a: AccessEnv;
  beforeAll(async () => {
    a = await startAccessEnv();
  });
  afterAll(() => a?.close());

  /** A lock user of `type` on lock `index` with a password of `digits`, both confirmed by the lock. */
  const person = async (index: number, name: string, digits: string, extra: object = {}) => {
    const user = await a.post('/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(index), name, ...extra });
    const password = await a.post('/iot/v1/zg/foreverPassword', { action: 'add', lockId: a.lockId(index), lockUserId: user.id, password: digits });
    await a.waitSync('lock_users', user.id, 'normal');
    await a.waitSync('credentials', password.id, 'normal');
    return { user, password };
  };
  const attempt = (index: number, password: string, at?: string) => a.post('/iot/v1/simulator/attemptOpen', { lockId: a.lockId(index), method: 'password', password, ...(at ? { at } : {}) });

  it('a forced user opens like anyone and silently raises the duress alarm', async () => {
    const { user } = await person(0, '胁迫 测试', '900001', { userType: 'forcedUser' });
    expect(user.userType).toBe('forcedUser');
    expect(a.fleet.devices[0]?.lock.state.users.get(user.userSlot)?.userType).toBe('forcedUser');
    expect(await attempt(0, '900001')).toEqual({ success: true, reason: null, slot: expect.any(Number), userSlot: user.userSlot });
    const [alert] = await waitFor(() => a.env.ctx.database.system.select().from(alerts).where(and(eq(alerts.lockId, a.lockId(0)), eq(alerts.kind, 'duress'))), (rows) => rows.length === 1);
    expect(alert).toMatchObject({ severity: 'critical', state: 'active' });
  });

  it('a disposable user works once, then the lock deletes it and the platform follows', async () => {
    const { user } = await person(0, '一次性 访客', '900002', { userType: 'disposableUser' });
    expect(await attempt(0, '900002')).toMatchObject({ success: true });
    await waitFor(() => a.env.ctx.database.system.select().from(lockUsers).where(eq(lockUsers.id, user.id)), (rows) => rows.length === 0);
    const log = await a.env.ctx.database.system.select().from(credentialOperations).where(and(eq(credentialOperations.rowId, user.id), eq(credentialOperations.action, 'lockCleared')));
    expect(log).toMatchObject([{ subject: 'user', operator: 'lock' }]);
    expect(await attempt(0, '900002')).toMatchObject({ success: false, reason: 'unknown' });
  });

  it('an expiring user stops N minutes after its first use (lock clock), and who-can-open agrees', async () => {
    const refused = await a.send('POST', '/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(1), name: '缺分钟', userType: 'expiringUser' });
    expect([refused.statusCode, refused.json().errors[0].field]).toEqual([400, 'body.expiringMinutes']);
    const { password } = await person(1, '限时 访客', '900003', { userType: 'expiringUser', expiringMinutes: 120 });
    const first = localAt(0, '10:00');
    const later = (minutes: number) => new Date(Date.parse(first) + minutes * 60_000).toISOString();
    expect(await attempt(1, '900003', first)).toMatchObject({ success: true });
    expect(await attempt(1, '900003', later(119))).toMatchObject({ success: true });
    expect(await attempt(1, '900003', later(120))).toMatchObject({ success: false, reason: 'expired' });
    await waitFor(() => a.env.ctx.database.system.select().from(openRecords).where(eq(openRecords.lockId, a.lockId(1))), (rows) => rows.length >= 3);
    const who = (at: string) => a.get(`/iot/v1/lockDevice/whoCanOpen?lockId=${a.lockId(1)}&at=${encodeURIComponent(at)}`);
    expect((await who(later(60))).records.map((r: { id: number }) => r.id)).toContain(password.id);
    expect((await who(later(121))).refused).toContainEqual({ record: expect.objectContaining({ id: password.id }), reason: 'expired' });
  });

  it('refuses non-access and remote-only users at the keypad, with the reason in the unlock records', async () => {
    await person(1, '无权限', '900004', { userType: 'nonAccessUser' });
    await person(1, '仅远程', '900005', { userType: 'remoteOnlyUser' });
    expect(await attempt(1, '900004')).toMatchObject({ success: false, reason: 'nonAccessUser' });
    expect(await attempt(1, '900005')).toMatchObject({ success: false, reason: 'remoteOnly' });
    const listed = await waitFor(() => a.get(`/iot/v1/lockOpenRecord/list?lockId=${a.lockId(1)}&success=false`), (page) => page.records.length >= 3);
    expect(listed.records.map((r: { refusal: string }) => r.refusal)).toEqual(expect.arrayContaining(['nonAccessUser', 'remoteOnly', 'expired']));
    const users = await a.get(`/iot/v1/operateUser/list?lockId=${a.lockId(1)}&userType=remoteOnlyUser`);
    expect(users.records.map((u: { name: string }) => u.name)).toEqual(['仅远程']);
  });

  it('the dual credential rule needs a second person within 10 s, only where the device type supports it', async () => {
    const unsupported = await a.send('POST', '/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(0), name: '双人', credentialRule: 'dual' }, 'en-US');
    expect([unsupported.statusCode, unsupported.json().errors[0].message['en-US']]).toEqual([400, "This lock's device type does not support the dual credential rule"]);
    await person(2, '出纳 甲', '900006', { credentialRule: 'dual' });
    await person(2, '出纳 乙', '900007');
    const at = localAt(0, '10:00');
    expect(await attempt(2, '900006', at)).toMatchObject({ success: false, reason: 'awaitingSecondCredential' });
    expect(await attempt(2, '900007', new Date(Date.parse(at) + 5000).toISOString())).toMatchObject({ success: true });
    expect(await attempt(2, '900006', new Date(Date.parse(at) + 60_000).toISOString())).toMatchObject({ success: false, reason: 'awaitingSecondCredential' });
  });
});
