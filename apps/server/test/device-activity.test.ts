/**
 * Device activity through the real ingest path (storeUplinks) on PGlite and PostgreSQL:
 * openRecord, alarm lifecycle (raise, repeat, clear, acknowledge), doorState, configReport, the
 * journal, and the seq bookkeeping.
 */
import type { protocol } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { rowsOf } from '../src/db/rows.js';
import { storeUplinks, type UplinkRecord } from '../src/gateway/uplink-store.js';
import { call, createTestContext, dataOf, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';

type Event = Exclude<protocol.UplinkMessage, { type: 'heartbeat' }>;
type Lock = { id: number; tenantId: number; imei: string };

describe.skipIf(skipSuite)('device activity', () => {
  let ctx: TestContext;
  let token: string;
  let lockA: Lock;
  let lockB: Lock; // tenant 101
  let seq = 100;
  beforeAll(async () => {
    ctx = await createTestContext({}, 5);
    token = await signIn(ctx.app);
    const byImei = async (imei: string) => (await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei }).from(locks).where(eq(locks.imei, imei)))[0] as Lock;
    lockA = await byImei(simulatedImei(0));
    lockB = await byImei(simulatedImei(4));
  });
  afterAll(() => ctx?.close());

  const event = (lock: Lock, type: Event['type'], data: object, ts = Date.now()): UplinkRecord => {
    seq += 1;
    return { lockId: lock.id, tenantId: lock.tenantId, imei: lock.imei, message: { msgId: `t-${seq}`, seq, type, ts, data } as Event };
  };
  const store = (...records: UplinkRecord[]) => storeUplinks(ctx.database, records);
  const getData = async (url: string, tenantId = 100) => dataOf(await call(ctx.app, token, { method: 'GET', url, tenantId }));
  const alertRows = (lock: Lock) => ctx.database.system.select().from(alerts).where(eq(alerts.lockId, lock.id)).orderBy(alerts.id);

  it('stores openRecords with their uplink, and keeps last_seq covering event uplinks', async () => {
    const lockTime = Date.parse('2025-03-01T08:00:00Z');
    const records = [
      event(lockA, 'openRecord', { method: 'fingerprint', slot: 3, userSlot: 1, success: true, lockTime }),
      event(lockA, 'openRecord', { method: 'password', slot: 7, success: false, lockTime: lockTime + 1000 }),
    ];
    expect(await store(...records)).toEqual({ inserted: 2 });
    expect(await store(...records)).toEqual({ inserted: 0 }); // redelivery: no second open record
    const page = await getData(`/iot/v1/lockOpenRecord/list?imei=${lockA.imei}`);
    expect(page.total).toBe(2);
    expect(page.records[1]).toMatchObject({ imei: lockA.imei, method: 'fingerprint', slot: 3, userSlot: 1, success: true, lockTime: '2025-03-01T08:00:00.000Z' });
    expect(page.records[1].uplinkId).toEqual(expect.any(Number));
    expect(page.records[0]).toMatchObject({ method: 'password', userSlot: null, success: false });
    const [row] = await ctx.database.system.select({ lastSeq: locks.lastSeq }).from(locks).where(eq(locks.id, lockA.id));
    expect(row?.lastSeq).toBe(seq);
  });

  it('raises an alert once per kind, counts repeats in place, clears it, then raises a new one', async () => {
    await store(event(lockA, 'alarm', { kind: 'tamper', cleared: false, detail: 'cover removed' }));
    await store(event(lockA, 'alarm', { kind: 'tamper', cleared: false }), event(lockA, 'alarm', { kind: 'lowBattery', cleared: false, detail: '18%' }));
    let rows = await alertRows(lockA);
    expect(rows.map((r) => [r.kind, r.severity, r.state, r.occurrences, r.detail])).toEqual([
      ['tamper', 'critical', 'active', 2, 'cover removed'], ['lowBattery', 'warning', 'active', 1, '18%'],
    ]);
    expect(rows[0]?.lastAt.getTime()).toBeGreaterThanOrEqual(rows[0]?.firstAt.getTime() ?? 0);
    // One batch: repeat, clear, raise again of the same kind (applied in seq order, in rounds).
    await store(
      event(lockA, 'alarm', { kind: 'tamper', cleared: false }), event(lockA, 'alarm', { kind: 'tamper', cleared: true }),
      event(lockA, 'alarm', { kind: 'tamper', cleared: false, detail: 'again' }), event(lockA, 'alarm', { kind: 'doorLeftOpen', cleared: true }),
    );
    rows = await alertRows(lockA);
    expect(rows.map((r) => [r.kind, r.state, r.occurrences, r.detail, r.clearedAt !== null])).toEqual([
      ['tamper', 'cleared', 3, 'cover removed', true], ['lowBattery', 'active', 1, '18%', false], ['tamper', 'active', 1, 'again', false],
    ]);
  });

  it('lists active alerts first, most severe first, and filters by state, kind, severity', async () => {
    await store(event(lockB, 'alarm', { kind: 'forcedOpen', cleared: false }));
    const page = await getData('/iot/v1/lockAlert/list?activeFirst=true');
    expect(page.records.map((r: { kind: string; state: string }) => `${r.kind}:${r.state}`)).toEqual(['tamper:active', 'lowBattery:active', 'tamper:cleared']);
    expect((await getData('/iot/v1/lockAlert/list?state=cleared')).total).toBe(1);
    expect((await getData('/iot/v1/lockAlert/list?kind=lowBattery&severity=warning')).total).toBe(1);
    expect((await getData('/iot/v1/lockAlert/list?severity=major')).total).toBe(0);
    expect((await getData('/iot/v1/lockAlert/list', 101)).records.map((r: { kind: string }) => r.kind)).toEqual(['forcedOpen']);
  });

  it('acknowledges alerts recording who and when, once, only in the caller\'s tenant, with LOCK_ALERT_LOG', async () => {
    const rows = await alertRows(lockA);
    const [other] = await alertRows(lockB);
    const ids = [...rows.map((r) => r.id), other?.id as number];
    const ack = (by: string, body: object) => call(ctx.app, by, { method: 'POST', url: '/iot/v1/lockAlert/acknowledge', payload: body });
    expect(dataOf(await ack(token, { ids }))).toEqual({ acknowledged: 3 });
    expect(dataOf(await ack(token, { ids }))).toEqual({ acknowledged: 0 });
    const after = await alertRows(lockA);
    expect(after.every((r) => r.acknowledgedBy === 'admin' && r.acknowledgedAt !== null)).toBe(true);
    expect((await alertRows(lockB))[0]?.acknowledgedAt).toBeNull(); // tenant 101's alert untouched from tenant 100
    expect((await getData('/iot/v1/lockAlert/list?acknowledged=false')).total).toBe(0);
    expect((await ack(token, { ids: [] })).statusCode).toBe(400);
    const viewer = await operatorWith(ctx.app, token, 'alert-viewer', ['LOOK_INFO']);
    expect((await ack(viewer.token, { ids })).statusCode).toBe(403);
  });

  it('keeps the door state and the reported configuration on the lock', async () => {
    await store(event(lockA, 'doorState', { door: 'open', locked: false }), event(lockA, 'doorState', { door: 'closed', locked: true }));
    await store(event(lockA, 'configReport', { config: { volume: 40, heartbeatIntervalS: 120 } }));
    await store(event(lockA, 'configReport', { config: { language: 'en-US' } }));
    const [row] = await ctx.database.system.select().from(locks).where(eq(locks.id, lockA.id));
    expect(row).toMatchObject({ doorState: 'closed', locked: true, heartbeatIntervalS: 120, config: { volume: 40, heartbeatIntervalS: 120, language: 'en-US' } });
  });

  it('merges one lock\'s journal newest first: heartbeat summaries, uplinks, unlocks, alerts', async () => {
    await ctx.database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select ${lockA.tenantId}, ${lockA.id}, 1000 + g, 80 - g % 3, -90, 10, 'V1', now(), now() - make_interval(mins => g) from generate_series(1, 30) g`);
    const journal = await getData(`/iot/v1/lockDevice/journal?lockId=${lockA.id}`);
    expect(journal.lock).toMatchObject({ id: lockA.id, imei: lockA.imei });
    expect(journal.truncated).toBe(false);
    const sources = new Set(journal.entries.map((e: { source: string }) => e.source));
    expect([...sources].sort()).toEqual(['alert', 'heartbeats', 'openRecord', 'uplink']);
    expect(journal.entries.find((e: { source: string }) => e.source === 'openRecord').data.lockTime).toMatch(/^2025-03-01T08:00:01/);
    const times = journal.entries.map((e: { time: string }) => e.time);
    expect(times).toEqual([...times].sort().reverse());
    const summaries = journal.entries.filter((e: { source: string }) => e.source === 'heartbeats');
    expect(summaries.reduce((n: number, e: { data: { count: number } }) => n + e.data.count, 0)).toBe(30);
    // A summary is stamped with its last heartbeat, never before its first one.
    const newest = summaries[0] as { time: string; data: { from: string } };
    const [latest] = rowsOf<{ t: Date | string }>(await ctx.database.system.execute(sql`select max(received_at) as t from heartbeats where lock_id = ${lockA.id}`));
    expect(newest.time).toBe(new Date(latest?.t ?? 0).toISOString());
    for (const s of summaries as { time: string; data: { from: string } }[]) expect(s.data.from <= s.time).toBe(true);
    expect(journal.entries.some((e: { source: string; type: string }) => e.source === 'alert' && e.type === 'acknowledged')).toBe(true);
    const old = await getData(`/iot/v1/lockDevice/journal?imei=${lockA.imei}&startTime=2025-03-01T00:00:00Z&endTime=2025-03-02T00:00:00Z`);
    expect(old.entries).toEqual([]); // open records are filtered by receive time (now)
    expect((await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/journal?lockId=${lockB.id}` })).statusCode).toBe(404);
    expect((await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/journal' })).statusCode).toBe(400);
    const tooLong = await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/journal?lockId=${lockA.id}&startTime=2025-01-01T00:00:00Z&endTime=2025-03-01T00:00:00Z` });
    expect(tooLong.statusCode).toBe(400);
  });

  it('stores one message per (lock, seq) across types: a heartbeat and a door state with one seq', async () => {
    const heartbeatWith = (lock: Lock, n: number): UplinkRecord => ({ lockId: lock.id, tenantId: lock.tenantId, imei: lock.imei,
      message: { msgId: `hb-${n}`, seq: n, type: 'heartbeat', ts: Date.now(), data: { battery: 66, rssi: -80, snr: 10, firmwareVersion: '1.0.0', intervalS: 60 } } as protocol.UplinkMessage });
    const total = async (lock: Lock, n: number) => {
      const result = await ctx.database.system.execute(sql`
        select (select count(*) from heartbeats where lock_id = ${lock.id} and seq = ${n})
             + (select count(*) from uplinks where lock_id = ${lock.id} and seq = ${n}) as n`);
      return Number(rowsOf<{ n: number | string }>(result)[0]?.n);
    };
    const door = event(lockA, 'doorState', { door: 'open', locked: false });
    const n = door.message.seq;
    // Stored in separate batches, in both orders, and in one batch.
    expect(await store(door)).toEqual({ inserted: 1 });
    const batteryOf = async () => rowsOf<{ b: number }>(await ctx.database.system.execute(sql`select battery as b from locks where id = ${lockA.id}`))[0]?.b;
    const batteryBefore = await batteryOf();
    expect(await store({ ...heartbeatWith(lockA, n), message: { ...heartbeatWith(lockA, n).message, data: { battery: 3, rssi: -80, snr: 10, firmwareVersion: '1.0.0', intervalS: 60 } } as protocol.UplinkMessage })).toEqual({ inserted: 0 });
    expect(await total(lockA, n)).toBe(1);
    expect(await batteryOf()).toBe(batteryBefore); // a refused heartbeat changes none of the lock's readings
    seq += 1;
    expect(await store(heartbeatWith(lockA, seq))).toEqual({ inserted: 1 });
    expect(await store({ ...door, message: { ...door.message, seq } })).toEqual({ inserted: 0 });
    expect(await total(lockA, seq)).toBe(1);
    seq += 1;
    expect(await store(heartbeatWith(lockA, seq), { ...door, message: { ...door.message, seq } })).toEqual({ inserted: 1 });
    expect(await total(lockA, seq)).toBe(1);
  });
});
