import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client.js';
import { numberArray, textArray } from './array-literal.js';

describe('array literals', () => {
  let database: Database;
  beforeAll(async () => { database = await openDatabase({ dataDir: 'memory://' }); });
  afterAll(() => database?.close());

  it('round-trip numbers and awkward text through PostgreSQL unchanged', async () => {
    const texts = ['V1.2.3', 'NULL', '', 'a,b', '{x}', 'say "hi"', 'back\\slash', ' spaced ', '中文'];
    const numbers = [0, -70, 5.5, 1_700_000_000_123];
    const result = (await database.system.execute(sql`select ${textArray(texts)}::text[] as texts, ${numberArray(numbers)}::float8[] as numbers`)) as unknown as
      { rows: { texts: string[]; numbers: number[] }[] };
    expect(result.rows[0]).toEqual({ texts, numbers });
  });

  it('refuse numbers PostgreSQL could not store', () => {
    expect(() => numberArray([1, Number.NaN])).toThrow('finite');
    expect(() => numberArray([Number.POSITIVE_INFINITY])).toThrow('finite');
  });
});
