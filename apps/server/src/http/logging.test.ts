import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { safeError } from './logging.js';

describe('safeError (the err serializer)', () => {
  it('keeps the SQL text and PostgreSQL code of a failed query but never its parameters or detail', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "accounts_username_unique"'), {
      code: '23505', severity: 'ERROR', constraint: 'accounts_username_unique', table: 'accounts',
      detail: 'Key (username)=(secret-user) already exists.',
    });
    const error = new DrizzleQueryError('insert into "accounts" ("username", "password_hash") values ($1, $2)', ['secret-user', '482913'], cause);
    const serialized = safeError(error);
    const text = JSON.stringify(serialized);
    expect(text).not.toContain('secret-user');
    expect(text).not.toContain('482913');
    expect(serialized).toMatchObject({ message: 'Failed query', query: expect.stringContaining('insert into "accounts"') });
    expect(serialized.cause).toMatchObject({ code: '23505', constraint: 'accounts_username_unique', table: 'accounts' });
  });

  it('drops a PostgreSQL message that quotes the input', () => {
    const error = Object.assign(new Error('invalid input syntax for type integer: "482913x"'), { code: '22P02', severity: 'ERROR', routine: 'pg_strtoint32' });
    expect(JSON.stringify(safeError(error))).not.toContain('482913x');
  });

  it('keeps an ordinary error as it is', () => {
    expect(safeError(Object.assign(new Error('boom'), { statusCode: 500 }))).toMatchObject({ type: 'Error', message: 'boom', statusCode: 500 });
  });
});
