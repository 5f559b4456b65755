/**
 * The lock's own inventory against the platform with real simulated locks, on PGlite and
 * PostgreSQL: a code added at the keypad shows as unmanaged (with the credentialDrift alarm) and is
 * adopted for a person or deleted from the lock; a credential the lock lost shows as missing and is
 * re-queued or marked lost; a fresh inventory without drift clears the alarm; the platform never
 * allocates a slot the lock holds unmanaged; a row whose add failed does not hide a keypad code in its
 * slot, and adopting that code replaces the failed row.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, credentials } from '../src/db/schema.js';
import { type AccessEnv, startAccessEnv } from './access-support.js';
import { skipSuite } from './helper.js';
import { waitFor } from './outbox-support.js';

describe.skipIf(skipSuite)('credential drift with simulated locks', () => {
  let a: AccessEnv;
  beforeAll(async () => {
    a = await startAccessEnv();
  });
  afterAll(() => a?.close());

  const drift = (index: number) => a.get(`/iot/v1/lockDevice/drift?lockId=${a.lockId(index)}`);
  const table = async (index: number, name: string) => (await drift(index)).tables.find((t: { table: string }) => t.table === name);
  const alarm = (index: number) => a.env.ctx.database.system.select().from(alerts).where(and(eq(alerts.lockId, a.lockId(index)), eq(alerts.kind, 'credentialDrift')));
  const freshInventory = async (index: number) => {
    const before = (await drift(index)).inventory?.reportedAt;
    await a.post('/iot/v1/lockDevice/queryInventory', { lockId: a.lockId(index) });
    return waitFor(() => drift(index), (d) => d.inventory !== null && d.inventory.reportedAt !== before && d.inventory.reason === 'request');
  };

  it('shows a code added at the keypad as unmanaged, adopted for a person it then opens for; the alarm clears', async () => {
    const user = await a.post('/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(0), name: '业主 陈' });
    await a.waitSync('lock_users', user.id, 'normal');
    const { slot } = await a.post('/iot/v1/simulator/keypadAdd', { lockId: a.lockId(0), password: '314159' });
    const passwords = await waitFor(() => table(0, 'passwords'), (t) => t.unmanaged.length === 1);
    expect(passwords.unmanaged).toEqual([{ id: expect.any(Number), slot, syncState: 'normal' }]);
    expect((await drift(0)).inSync).toBe(false);
    await waitFor(() => alarm(0), (rows) => rows.some((row) => row.state === 'active'));
    // The platform's next password skips the slot the lock holds.
    const next = await a.post('/iot/v1/zg/foreverPassword', { action: 'add', lockId: a.lockId(0), password: '271828' });
    expect(next.slot).not.toBe(slot);
    await a.waitSync('credentials', next.id, 'normal');
    const adopted = await a.post('/iot/v1/lockDevice/drift/adopt', { id: passwords.unmanaged[0].id, lockUserId: user.id });
    expect(adopted).toMatchObject({ kind: 'password', slot, holderName: '业主 陈', syncState: 'modifying', secret: null });
    await a.waitSync('credentials', adopted.id, 'normal');
    expect(a.fleet.devices[0]?.lock.state.passwords.get(slot)?.userSlot).toBe(user.userSlot);
    expect(await a.post('/iot/v1/simulator/attemptOpen', { lockId: a.lockId(0), method: 'password', password: '314159' })).toMatchObject({ success: true, userSlot: user.userSlot });
    expect(await freshInventory(0)).toMatchObject({ inSync: true });
    expect((await alarm(0)).every((row) => row.state === 'cleared')).toBe(true);
  });

  it('deletes an unmanaged code from the lock', async () => {
    const { slot } = await a.post('/iot/v1/simulator/keypadAdd', { lockId: a.lockId(1), password: '161803' });
    const passwords = await waitFor(() => table(1, 'passwords'), (t) => t.unmanaged.length === 1);
    const deleting = await a.post('/iot/v1/lockDevice/drift/deleteUnmanaged', { id: passwords.unmanaged[0].id });
    expect(deleting.commandId).toEqual(expect.any(Number));
    expect((await table(1, 'passwords')).unmanaged[0].syncState).toBe('deleting');
    await waitFor(() => table(1, 'passwords'), (t) => t.unmanaged.length === 0);
    expect(a.fleet.devices[1]?.lock.state.passwords.has(slot)).toBe(false);
    expect(await freshInventory(1)).toMatchObject({ inSync: true });
  });

  it('shows what the lock lost as missing: re-queued (back on the lock) or marked lost', async () => {
    const user = await a.post('/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(2), name: '租客 林' });
    const kept = await a.post('/iot/v1/zg/foreverPassword', { action: 'add', lockId: a.lockId(2), lockUserId: user.id, password: '424242' });
    const card = await a.post('/iot/v1/zg/cardOperate', { action: 'add', lockId: a.lockId(2), lockUserId: user.id, cardNumber: 'CAFE0001' });
    await a.waitSync('credentials', kept.id, 'normal');
    await a.waitSync('credentials', card.records[0].id, 'normal');
    const lock = a.fleet.devices[2]?.lock.state;
    lock?.passwords.delete(kept.slot); // the lock lost them (a reset, a failed flash...)
    lock?.cards.delete(card.records[0].slot);
    const seen = await freshInventory(2);
    const missing = seen.tables.flatMap((t: { missing: { id: number }[] }) => t.missing.map((m) => m.id));
    expect(missing.sort()).toEqual([kept.id, card.records[0].id].sort());
    await waitFor(() => alarm(2), (rows) => rows.some((row) => row.state === 'active'));
    await a.post('/iot/v1/lockDevice/drift/requeue', { subject: 'credential', id: kept.id });
    await a.waitSync('credentials', kept.id, 'normal');
    expect(lock?.passwords.get(kept.slot)?.digits).toBe('424242');
    expect(await a.post('/iot/v1/lockDevice/drift/markLost', { subject: 'credential', id: card.records[0].id })).toEqual({ id: card.records[0].id });
    await a.waitSync('credentials', card.records[0].id, undefined);
    const again = await a.send('POST', '/iot/v1/lockDevice/drift/markLost', { subject: 'credential', id: kept.id });
    expect([again.statusCode, again.json().code]).toEqual([409, 'CONFLICT']);
    expect(await freshInventory(2)).toMatchObject({ inSync: true });
    expect((await alarm(2)).every((row) => row.state === 'cleared')).toBe(true);
  });

  it('shows a keypad code in the slot of a row whose add failed as unmanaged; adopting it replaces the failed row', async () => {
    const user = await a.post('/iot/v1/zg/userOperation', { action: 'add', lockId: a.lockId(1), name: '保洁 王' });
    await a.waitSync('lock_users', user.id, 'normal');
    const slot = a.fleet.devices[1]?.lock.state.freeSlot('passwords') as number;
    // The platform tried this slot and the lock refused: the row stays, 添加失败, and the lock's slot stays free.
    const [failed] = await a.env.ctx.database.system.insert(credentials).values({
      tenantId: 100, lockId: a.lockId(1), kind: 'password', slot, slotTable: 'passwords', lockUserId: user.id, userSlot: user.userSlot,
      syncState: 'add_failed', pendingAction: 'add', createdBy: 'test',
    }).returning({ id: credentials.id });
    expect((await a.post('/iot/v1/simulator/keypadAdd', { lockId: a.lockId(1), password: '577215' })).slot).toBe(slot);
    const passwords = await waitFor(() => table(1, 'passwords'), (t) => t.unmanaged.length === 1);
    expect(passwords.unmanaged[0].slot).toBe(slot);
    const adopted = await a.post('/iot/v1/lockDevice/drift/adopt', { id: passwords.unmanaged[0].id, lockUserId: user.id });
    expect(adopted).toMatchObject({ slot, syncState: 'modifying' });
    await a.waitSync('credentials', failed?.id as number, undefined);
    await a.waitSync('credentials', adopted.id, 'normal');
  });
});
