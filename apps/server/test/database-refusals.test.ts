/**
 * The last line of defence: a value the contract let through but the database cannot hold
 * (SQLSTATE class 22 "data exception", 54000 "program limit exceeded") is a 400 VALIDATION_FAILED in
 * both languages, never a 500, from the real database's own errors on PGlite and PostgreSQL. A small
 * app with the real errors plugin runs each statement through Drizzle, as a route would.
 */
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsPlugin } from '../src/http/errors-plugin.js';
import { createTestContext, skipSuite, type TestContext } from './helper.js';

/** Statements failing with a data exception, by the SQLSTATE PostgreSQL documents for them. */
const REFUSED = {
  '22008 datetime field overflow': sql`select ${'0000-01-01T00:00:00Z'}::timestamptz`,
  '22003 numeric value out of range': sql`select ${'2147483648'}::int4`,
  '22P02 invalid text representation': sql`select ${'twelve'}::int4`,
  '22021 character not in repertoire': sql`select ${'a\u0000b'}::text`,
  '22007 invalid datetime format': sql`select ${'yesterday at noon-ish'}::timestamptz`,
} as const;

describe.skipIf(skipSuite)('data exceptions of the database', () => {
  let ctx: TestContext;
  const app = Fastify();
  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    await app.register(errorsPlugin);
    app.get('/:name', async (request) => {
      const { name } = request.params as { name: keyof typeof REFUSED };
      await ctx.database.withTenant(100, (tx) => tx.execute(REFUSED[name]));
      return { ok: true };
    });
    // Stores into a temporary table: 22001 a value longer than its column, 54000 an index entry beyond a btree page's third.
    app.get('/store/:what', async (request) => {
      const long = (request.params as { what: string }).what === 'long';
      await ctx.database.transaction(async (tx) => {
        await tx.execute(sql`create temporary table narrow (v varchar(3), k text primary key) on commit drop`);
        if (long) await tx.execute(sql`insert into narrow values (${'too long'}, 'k')`);
        else await tx.execute(sql`insert into narrow select 'v', string_agg(md5(i::text), '') from generate_series(1, 400) i`);
      });
      return { ok: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await ctx?.close();
  });

  it.each(Object.keys(REFUSED))('%s: 400 VALIDATION_FAILED, never a 500', async (name) => {
    const response = await app.inject({ method: 'GET', url: `/${encodeURIComponent(name)}`, headers: { 'accept-language': 'en-US' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'request' }] });
    expect(response.json().errors[0].message['zh-CN']).toContain('数据库');
  });

  // An explicit cast truncates silently: only a store into a narrow column raises 22001.
  it.each([['22001 string data right truncation', 'long'], ['54000 program limit exceeded (index row size)', 'huge-key']])('%s: 400', async (_, what) => {
    const response = await app.inject({ method: 'GET', url: `/store/${what}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
  });
});
