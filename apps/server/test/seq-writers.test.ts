/**
 * The per-device writer locks of the deduplicated logs (db/seq-writers.ts): taken in a transaction they
 * are held until it ends; asked for again in the same transaction (the gateway takes a batch's, then each
 * log writer asks for its own) they cost no statement; a savepoint's are its own.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Executor } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import { LOCK_SEQ_WRITERS, lockSeqWriters } from '../src/db/seq-writers.js';
import { newDatabase, skipSuite } from './helper.js';

describe.skipIf(skipSuite)('device writer locks', () => {
  let database: Database;
  beforeAll(async () => { database = await newDatabase(); });
  afterAll(() => database?.close());

  /** The advisory locks of LOCK_SEQ_WRITERS this backend holds, as device ids. */
  const heldIds = async (tx: Executor) => rowsOf<{ id: number }>(await tx.execute(sql`
    select objid::int as id from pg_locks where locktype = 'advisory' and pid = pg_backend_pid() and classid = ${LOCK_SEQ_WRITERS} order by objid`))
    .map((row) => row.id);

  /** `tx` with its statements counted (the same object each time: the held locks are remembered per executor). */
  const counted = (tx: Executor) => {
    const calls = { n: 0 };
    const proxy = new Proxy(tx, { get: (target, key, receiver) => {
      const value = Reflect.get(target, key, receiver);
      if (key === 'execute' && typeof value === 'function') return (...args: unknown[]) => { calls.n += 1; return value.apply(target, args); };
      return value;
    } });
    return { tx: proxy as Executor, calls };
  };

  it('holds the locks until the transaction ends and takes each once', async () => {
    await database.system.transaction(async (raw) => {
      const { tx, calls } = counted(raw);
      await lockSeqWriters(tx, LOCK_SEQ_WRITERS, [7, 3, 7, 5]);
      expect(calls.n).toBe(1);
      expect(await heldIds(raw)).toEqual([3, 5, 7]);
      await lockSeqWriters(tx, LOCK_SEQ_WRITERS, [5, 3]);
      expect(calls.n).toBe(1); // all held: no statement
      await lockSeqWriters(tx, LOCK_SEQ_WRITERS, [3, 9]);
      expect(calls.n).toBe(2); // only 9 was taken
      expect(await heldIds(raw)).toEqual([3, 5, 7, 9]);
      await lockSeqWriters(tx, LOCK_SEQ_WRITERS, []);
      expect(calls.n).toBe(2);
    });
    await database.system.transaction(async (tx) => { expect(await heldIds(tx)).toEqual([]); });
  });

  it('counts a savepoint\'s locks as its own: after its rollback the parent takes them again', async () => {
    await database.system.transaction(async (parent) => {
      await lockSeqWriters(parent, LOCK_SEQ_WRITERS, [1]);
      await parent.transaction(async (nested) => {
        await lockSeqWriters(nested, LOCK_SEQ_WRITERS, [2]);
        expect(await heldIds(nested)).toEqual([1, 2]);
        nested.rollback();
      }).catch(() => undefined);
      await lockSeqWriters(parent, LOCK_SEQ_WRITERS, [1, 2]);
      expect(await heldIds(parent)).toEqual([1, 2]);
    });
  });
});
