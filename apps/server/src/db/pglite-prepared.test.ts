/**
 * PGlite's PREPAREd statements (pglite-prepared.ts) through preparedOn, on a real in-memory PGlite:
 * the same rows as a bound query, values quoted safely, one PREPARE per database that outlives a
 * rolled-back transaction, and the ordinary bound path for values without a literal.
 */
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PREPARED } from './pglite-prepared.js';
import { preparedOn } from './prepared.js';

const notes = pgTable('notes', { id: integer('id').primaryKey(), body: text('body'), extra: jsonb('extra') });
const client = new PGlite('memory://');
const db = drizzle(client);
/** Every statement text sent inside a transaction (where preparedOn's statements run). */
const queries: string[] = [];
const transaction = client.transaction.bind(client);
client.transaction = ((fn: (tx: { query(text: string, ...rest: unknown[]): unknown }) => unknown) =>
  transaction((tx) => {
    const query = tx.query.bind(tx);
    tx.query = ((text: string, ...rest: unknown[]) => {
      queries.push(text);
      return (query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as typeof tx.query;
    return fn(tx) as Promise<unknown>;
  })) as typeof client.transaction;

const byBody = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
  preparedOn(tx, 'test:notes-by-body', (name) =>
    tx.select({ id: notes.id, body: notes.body }).from(notes).where(eq(notes.body, sql.placeholder('body'))).prepare(name));

beforeAll(async () => {
  await client.exec(`create table notes (id int primary key, body text, extra jsonb);
    insert into notes values (1, 'plain', null), (2, 'it''s', null), (3, 'back\\slash', null), (4, 'x'' or ''1''=''1', null)`);
});
afterAll(() => client.close());

describe('PGlite prepared statements', () => {
  it('answers as a bound query would, for quotes and backslashes alike', async () => {
    for (const body of ['plain', "it's", 'back\\slash', "x' or '1'='1"]) {
      const rows = await db.transaction((tx) => byBody(tx).execute({ body }));
      const bound = await db.select({ id: notes.id, body: notes.body }).from(notes).where(eq(notes.body, body));
      expect(rows).toEqual(bound);
      expect(rows).toHaveLength(1);
    }
    expect(await db.transaction((tx) => byBody(tx).execute({ body: "' or true --" }))).toEqual([]);
  });

  it('prepares once per database, and a rolled-back transaction keeps the statement', async () => {
    await db.transaction(async (tx) => {
      await byBody(tx).execute({ body: 'plain' });
      tx.rollback();
    }).catch(() => undefined);
    queries.length = 0;
    await db.transaction((tx) => byBody(tx).execute({ body: 'plain' }));
    await db.transaction((tx) => byBody(tx).execute({ body: "it's" }));
    expect(queries.filter((text) => text.startsWith('prepare '))).toEqual([]);
    expect(queries.filter((text) => text.startsWith('execute '))).toHaveLength(2);
    const prepared = await client.query<{ count: number }>(`select count(*)::int as count from pg_prepared_statements where statement ilike '%from "notes"%'`);
    expect(prepared.rows[0]?.count).toBe(1);
  });

  it('runs a value without a literal (an object, a NUL) with bound parameters', async () => {
    const withExtra = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
      preparedOn(tx, 'test:notes-by-extra', (name) =>
        tx.select({ id: notes.id }).from(notes).where(sql`${notes.extra} is not distinct from ${sql.placeholder('extra')}::jsonb`).prepare(name));
    queries.length = 0;
    await db.transaction((tx) => withExtra(tx).execute({ extra: { a: 1 } as unknown as string }));
    expect(queries.some((text) => text.startsWith('execute '))).toBe(false);
    await expect(db.transaction((tx) => byBody(tx).execute({ body: 'a\0b' }))).rejects.toThrow();
    expect(await db.transaction((tx) => byBody(tx).execute({ body: null as unknown as string }))).toEqual([]);
  });

  it('keeps at most MAX_PREPARED statements, preparing an evicted one again when it is used again', async () => {
    const byId = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], key: number) =>
      preparedOn(tx, `test:note-${key}`, (name) =>
        tx.select({ id: notes.id }).from(notes).where(sql`${notes.id} = ${sql.placeholder('id')} and ${key} = ${key}`).prepare(name));
    for (let key = 0; key < MAX_PREPARED + 5; key++) expect(await db.transaction((tx) => byId(tx, key).execute({ id: 1 }))).toEqual([{ id: 1 }]);
    const prepared = await client.query<{ count: number }>('select count(*)::int as count from pg_prepared_statements');
    expect(prepared.rows[0]?.count).toBeLessThanOrEqual(MAX_PREPARED);
    expect(await db.transaction((tx) => byId(tx, 0).execute({ id: 2 }))).toEqual([{ id: 2 }]);
  });
});
