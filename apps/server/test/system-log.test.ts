/**
 * System log (系统日志) on PGlite and PostgreSQL: sign-in success and failure, sign-out and
 * every mutating call are written once each, with who, tenant, action, target, result and address,
 * never with a secret; the list filters per tenant; the CSV and Excel exports (action names and results in
 * the caller's language, the request beside them, times in the data centre's time zone, Excel cells as dates).
 */
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDITED_FIELDS } from '../src/http/audit-plugin.js';
import { insertAudit } from '../src/modules/auditLog/repo.js';
import {
  ADMIN_PASSWORD, addAccount, call, createTestContext, dataOf, encryptPassword, OPERATOR_PASSWORD, rowsOf, signIn, signInResponse,
  skipSuite, type TestContext,
} from './helper.js';

interface Row { username: string; action: string; target: string; result: string; clientIp: string; createdAt: string; detail: Record<string, unknown> | null }

describe.skipIf(skipSuite)('system log', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const logList = async (query: string, tenantId = 100): Promise<{ total: number; records: Row[] }> =>
    dataOf(await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/SysOperateLog/getLogList?size=500&${query}`, tenantId }));
  const post = (token: string, url: string, payload: object) => call(ctx.app, token, { method: 'POST', url, payload });

  it('writes sign-in success and failure and sign-out once each', async () => {
    expect((await signInResponse(ctx.app, 'operator', 'wrong-password-9')).statusCode).toBe(401);
    const token = await signIn(ctx.app, 'operator', OPERATOR_PASSWORD);
    dataOf(await post(token, '/oauth/logout', {}));
    const rows = (await logList('keyword=operator')).records;
    expect(rows.map((row) => [row.action, row.result])).toEqual([['sign-out', 'success'], ['sign-in', 'success'], ['sign-in', 'INVALID_CREDENTIALS']]);
    expect(rows[0]).toMatchObject({ username: 'operator', clientIp: '127.0.0.1', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
    expect((await logList('action=POST /oauth/logout')).total).toBe(0);
    expect((await logList('action=POST /oauth/token')).total).toBe(0);
  });

  it('writes every mutating call with who, target and result, but no reads, no anonymous calls and no secrets', async () => {
    dataOf(await post(admin, '/v1/sysRole/add', { name: 'log-role', description: 'secret-looking text', authorities: ['HOME_PAGE'] }));
    const id = await addAccount(ctx.app, admin, 'logged-user', 'logged-user-secret-1');
    dataOf(await post(admin, '/v1/account/edit/password', { id, ...(await encryptPassword(ctx.app, 'logged-user-secret-2')) }));
    const operator = await signIn(ctx.app, 'operator', OPERATOR_PASSWORD);
    expect((await post(operator, '/v1/sysRole/add', { name: 'refused', authorities: [] })).statusCode).toBe(403);
    expect((await post(admin, '/v1/sysRole/add', { name: '' })).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'POST', url: '/v1/sysRole/add', payload: { name: 'anonymous' } })).statusCode).toBe(403);
    dataOf(await call(ctx.app, admin, { method: 'GET', url: '/v1/sysRole/queryAll' }));

    const rows = (await logList('keyword=/v1/')).records;
    expect(rows.map((row) => [row.username, row.action, row.target, row.result])).toEqual([
      ['admin', 'POST /v1/sysRole/add', '', 'VALIDATION_FAILED'],
      ['operator', 'POST /v1/sysRole/add', 'refused', 'FORBIDDEN'],
      ['admin', 'POST /v1/account/edit/password', String(id), 'success'],
      ['admin', 'POST /v1/account/add/user', 'logged-user', 'success'],
      ['admin', 'POST /v1/sysRole/add', 'log-role', 'success'],
    ]);
    expect(rows.map((row) => row.detail)).toEqual([
      { name: '' }, { name: 'refused', authorities: [] }, { id }, { username: 'logged-user' }, { name: 'log-role', authorities: ['HOME_PAGE'] },
    ]);
    expect(rows.every((row) => row.clientIp === '127.0.0.1')).toBe(true);
    const [all] = await rowsOf<{ text: string; keys: string[] }>(ctx.database.system.execute(sql`
      select string_agg(a::text, E'\n') as text,
        (select coalesce(array_agg(distinct k), '{}') from audit_log, jsonb_object_keys(detail) k) as keys from audit_log a`));
    for (const secret of ['logged-user-secret', ADMIN_PASSWORD, OPERATOR_PASSWORD, 'wrong-password-9', 'secret-looking']) {
      expect(all?.text).not.toContain(secret);
    }
    expect(AUDITED_FIELDS).toEqual(expect.arrayContaining(all?.keys ?? ['none']));
    expect(AUDITED_FIELDS).not.toEqual(expect.arrayContaining(['password']));
  });

  it('filters by keyword, action, result and time, page by page, within the tenant', async () => {
    expect((await logList('action=sign-in&result=INVALID_CREDENTIALS')).records.map((r) => r.username)).toEqual(['operator']);
    const page = dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/SysOperateLog/getLogList?size=2&current=2' }));
    expect(page).toMatchObject({ current: 2, size: 2, total: expect.any(Number) });
    expect(page.records).toHaveLength(2);
    expect(page.total).toBeGreaterThan(4);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = '2000-01-01T00:00:00+08:00';
    expect((await logList(`startTime=${encodeURIComponent(future)}`)).total).toBe(0);
    expect((await logList(`endTime=${encodeURIComponent(past)}`)).total).toBe(0);
    expect((await logList(`startTime=${encodeURIComponent(past)}&endTime=${encodeURIComponent(future)}`)).total).toBe(page.total);
    for (const query of [`startTime=${future}&endTime=${past}`, 'startTime=yesterday', 'size=0']) {
      const response = await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/SysOperateLog/getLogList?${query}` });
      expect([query, response.statusCode]).toEqual([query, 400]);
    }
    // Tenant 101 sees only what happened in tenant 101.
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'in-101', authorities: [] }, tenantId: 101 }));
    expect((await logList('', 101)).records.map((r) => r.target)).toEqual(['in-101']);
    expect((await logList('keyword=in-101')).total).toBe(0);
  });

  it('exports the filtered log as CSV with quoting and formula cells defused', async () => {
    dataOf(await post(admin, '/v1/sysRole/add', { name: '=1+2,"q"', authorities: [] }));
    const response = await call(ctx.app, admin, { method: 'GET', url: `/iot/v1/SysOperateLog/export?keyword=${encodeURIComponent('=1+2')}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="system-log-\d{14}\.csv"$/);
    const lines = response.body.trimEnd().split('\n');
    // Readable headers in the caller's language; times in the data centre's zone, named in the header.
    expect(lines[0]).toBe('\ufeff编号,时间 (Asia/Shanghai),用户名,操作,请求,对象,结果,客户端地址,详情');
    expect(lines).toHaveLength(2);
    // The detail in words, not JSON; a cell a spreadsheet would evaluate still starts with '.
    expect(lines[1]).toMatch(/^\d+,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,admin,新增角色,POST \/v1\/sysRole\/add,"'=1\+2,""q""",成功,127\.0\.0\.1,"名称: =1\+2,""q""; 权限: —"$/);
    const signIns = await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/SysOperateLog/export?action=sign-in&result=success' });
    const rows = signIns.body.trimEnd().split('\n').slice(1);
    expect(rows.length).toBe((await logList('action=sign-in&result=success')).total);
    expect(rows.every((line) => line.includes(',登录,sign-in,') && line.includes(',成功,'))).toBe(true);
    expect((await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/SysOperateLog/export?endTime=bad' })).statusCode).toBe(400);
  });
  it("exports Excel too, headers in the caller's language and times in the operator's time zone", async () => {
    const response = await call(ctx.app, admin, {
      method: 'GET', url: '/iot/v1/SysOperateLog/export?format=xlsx&action=sign-in&timeZone=Asia%2FShanghai', headers: { 'accept-language': 'en-US' },
    });
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="system-log-\d{14}\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, 'ID', 'Time (Asia/Shanghai)', 'Username', 'Action', 'Request', 'Target', 'Result', 'Client address', 'Detail']);
    expect(sheet?.rowCount).toBe((await logList('action=sign-in')).total + 1);
    // Excel gets a real date cell showing the data centre's wall-clock time.
    const first = (await logList('action=sign-in')).records[0];
    const cell = sheet?.getRow(2).getCell(2);
    expect(cell?.value).toBeInstanceOf(Date);
    expect(cell?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    const shanghai = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(first?.createdAt ?? ''));
    expect((cell?.value as Date | undefined)?.toISOString().slice(0, 19).replace('T', ' ')).toBe(shanghai);
    expect([sheet?.getRow(2).getCell(4).value, sheet?.getRow(2).getCell(5).value]).toEqual(['Sign in', 'sign-in']);
    // A credential call's sub-action is named too, in the caller's language.
    await insertAudit(ctx.database.system, { tenantId: 100, accountId: null, username: 'admin', action: 'POST /iot/v1/zg/foreverPassword', result: 'success', clientIp: '', detail: { action: 'delete' } });
    const english = await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/SysOperateLog/export?action=POST /iot/v1/zg/foreverPassword', headers: { 'accept-language': 'en-US' } });
    expect(english.body.split('\n')[1]).toContain(',Permanent password operation · Delete,POST /iot/v1/zg/foreverPassword,');
  });
});
