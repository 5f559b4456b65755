/**
 * The event bus (events/, docs/events.md) on both databases: events of a committed transaction reach
 * the handle's subscribers before the transaction call returns, once; a rolled-back transaction (or
 * savepoint) emits nothing; a transaction's events travel in one statement; events emitted outside
 * a transaction arrive through the listener; on PostgreSQL a second handle (another instance) gets
 * every committed event and nothing uncommitted.
 */
import type { DomainEvent, EventMap } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { emit, emitAll, envelopes, NOTIFY_BYTES } from '../src/events/emit.js';
import { freshPostgresUrl, isPostgres, skipSuite } from './helper.js';

const statements: string[] = [];
let url: string | undefined;
let database: Database;

async function open(): Promise<Database> {
  const common = { onQuery: (q: string) => { statements.push(q); }, log: { warn() {} } };
  return url ? openDatabase({ databaseUrl: url, dataDir: '', ...common }) : openDatabase({ dataDir: 'memory://', ...common });
}

/** Collects `lock.presence` payloads received by `db`'s bus. */
function collect(db: Database) {
  const seen: EventMap['lock.presence'][] = [];
  const stop = db.events.on('lock.presence', (payload) => { seen.push(payload); });
  return { seen, stop };
}
const presence = (lockId: number): EventMap['lock.presence'] => ({ tenantId: 100, lockId, presence: 'online' });

/** Waits until `predicate` holds (polling; generous deadline). */
async function until(predicate: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(skipSuite)('event bus', () => {
  beforeAll(async () => {
    if (isPostgres) {
      url = await freshPostgresUrl();
    }
    database = await open();
    await database.events.ready();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('delivers a committed transaction\'s events before the call returns, once, in one statement', async () => {
    const { seen, stop } = collect(database);
    statements.length = 0;
    await database.transaction(async (tx) => {
      await emit(tx, 'lock.presence', presence(1));
      await emit(tx, 'lock.presence', presence(2));
      expect(seen).toEqual([]); // not before the commit
    });
    expect(seen.map((p) => p.lockId)).toEqual([1, 2]);
    expect(statements.filter((q) => q.includes('pg_notify'))).toHaveLength(1);
    await emit(database.system, 'lock.presence', presence(3)); // a marker after: the echo of 1 and 2 would come before it
    await until(() => seen.length >= 3);
    expect(seen.map((p) => p.lockId)).toEqual([1, 2, 3]);
    stop();
  });

  it('emits nothing from a rolled-back transaction or savepoint', async () => {
    const { seen, stop } = collect(database);
    await expect(database.transaction(async (tx) => {
      await emit(tx, 'lock.presence', presence(10));
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    await database.transaction(async (tx) => {
      await emit(tx, 'lock.presence', presence(11));
      await tx.transaction(async (savepoint) => {
        await emit(savepoint, 'lock.presence', presence(12));
        savepoint.rollback();
      }).catch(() => undefined);
    });
    await emit(database.system, 'lock.presence', presence(13));
    await until(() => seen.some((p) => p.lockId === 13));
    expect(seen.map((p) => p.lockId)).toEqual([11, 13]);
    stop();
  });

  it('splits a large transaction\'s events over several notifications', async () => {
    const events: DomainEvent[] = Array.from({ length: 40 }, (_, i) => ({
      name: 'lock.heartbeat', payload: { tenantId: 100, lockIds: Array.from({ length: 50 }, (_, j) => 1_000_000 + i * 50 + j) },
    }));
    const texts = envelopes('origin', 1, events);
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(Buffer.byteLength(text)).toBeLessThan(NOTIFY_BYTES);
    expect(texts.flatMap((text) => JSON.parse(text).e)).toHaveLength(40);
    const received: number[] = [];
    const stop = database.events.on('lock.heartbeat', (payload) => { received.push(...payload.lockIds); });
    await database.transaction((tx) => emitAll(tx, events));
    expect(received).toHaveLength(2000);
    stop();
  });

  it.runIf(isPostgres)('reaches another instance once committed, never before', async () => {
    const other = await open();
    try {
      const { seen } = collect(other);
      await other.events.ready();
      let inside = 0;
      await database.transaction(async (tx) => {
        await emit(tx, 'lock.presence', presence(21));
        await tx.execute(sql`select pg_sleep(0.2)`);
        inside = seen.length;
      });
      expect(inside).toBe(0);
      await until(() => seen.length === 1);
      expect(seen[0]?.lockId).toBe(21);
    } finally {
      await other.close();
    }
  });

  it('ignores malformed notifications and survives a failing handler', async () => {
    const { seen, stop } = collect(database);
    const stopFailing = database.events.on('lock.presence', () => { throw new Error('handler bug'); });
    const before = database.events.stats();
    await database.system.execute(sql`select pg_notify('iot_events', '{"o":"x","l":0,"e":[["lock.presence",{"tenantId":"no"}],["nope",{}]]}')`);
    await database.transaction((tx) => emit(tx, 'lock.presence', presence(31)));
    await emit(database.system, 'lock.presence', presence(32));
    await until(() => seen.length >= 2);
    expect(seen.map((p) => p.lockId)).toEqual([31, 32]);
    const after = database.events.stats();
    expect(after.malformed - before.malformed).toBe(2);
    expect(after.handlerErrors - before.handlerErrors).toBe(2);
    stop();
    stopFailing();
  });
});
