/**
 * On PGlite and PostgreSQL: the row of a change is written from
 * the validated body in the change's own transaction (a change whose row cannot be written does not
 * happen), reads are not logged whatever their method, and each action has a name in both languages.
 */
import { auditLabel } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('system log rows in the change transaction', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 2);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const auditRows = (action: string) =>
    rowsOf<{ target: string; result: string; detail: Record<string, unknown> | null }>(ctx.database.system.execute(sql`select target, result, detail from audit_log where action = ${action} order by id`));
  const roleNamed = async (name: string) => (await rowsOf(ctx.database.system.execute(sql`select id from roles where name = ${name}`))).length;

  it('does not commit a change whose log row cannot be written', async () => {
    await ctx.database.system.execute(sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$
      begin if new.target = 'audit-fails' then raise exception 'audit row refused'; end if; return new; end $$`));
    await ctx.database.system.execute(sql.raw('create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()'));
    const response = await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'audit-fails', authorities: [] } });
    expect(response.statusCode).toBe(500);
    expect(await roleNamed('audit-fails')).toBe(0);
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'audit-works', authorities: [] } }));
    expect(await roleNamed('audit-works')).toBe(1);
  });

  it('logs what was validated, not what was sent', async () => {
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/add', payload: { name: '  trimmed-role  ', authorities: ['HOME_PAGE', 'HOME_PAGE'] } }));
    const rows = await auditRows('POST /v1/sysRole/add');
    expect(rows.at(-1)).toEqual({ target: 'trimmed-role', result: 'success', detail: { name: 'trimmed-role', authorities: ['HOME_PAGE'] } });
  });

  it('does not log reads made with POST, such as progress polling', async () => {
    const before = await rowsOf(ctx.database.system.execute(sql`select id from audit_log`));
    for (let i = 0; i < 5; i++) dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/operateUser/commandStates', payload: { commandIds: [1, 2] } }));
    expect(await rowsOf(ctx.database.system.execute(sql`select id from audit_log`))).toHaveLength(before.length);
    expect(await auditRows('POST /iot/v1/operateUser/commandStates')).toEqual([]);
  });

  it('names every logged action in both languages', async () => {
    const actions = await rowsOf<{ action: string }>(ctx.database.system.execute(sql`select distinct action from audit_log`));
    expect(actions.length).toBeGreaterThan(1);
    for (const { action } of actions) {
      expect([action, auditLabel(action)?.['zh-CN']]).toEqual([action, expect.stringMatching(/\p{Script=Han}/u)]);
      expect([action, auditLabel(action)?.['en-US']]).toEqual([action, expect.stringMatching(/^[A-Z]/)]);
    }
  });
});
