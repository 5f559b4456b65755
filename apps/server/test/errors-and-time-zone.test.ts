/**
 * Errors and time zones on the server, on PGlite and PostgreSQL: an error says what is wrong (its fields' own
 * messages as the envelope's message, every conflict naming its field), input is refused rather than
 * clamped or cut, the data centre's time zone (who may change it, its system-log row with the zone
 * before and after, exports and user info following it), the system log naming the object a change
 * was made to and what changed, and logs newest first by time whatever the order of their ids.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '../src/modules/auditLog/repo.js';
import { call, createTestContext, dataOf, encryptPassword, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';

const fieldOf = (response: LightMyRequestResponse, field: string) =>
  (response.json().errors as { field: string; message: Record<string, string> }[] | undefined)?.find((e) => e.field === field);

describe.skipIf(skipSuite)('errors that say what is wrong, and one time zone', () => {
  let ctx: TestContext;
  let admin: string;
  const post = (url: string, payload: object, options: { token?: string; language?: string; tenantId?: number } = {}) =>
    call(ctx.app, options.token ?? admin, { method: 'POST', url, payload, tenantId: options.tenantId, headers: options.language ? { 'accept-language': options.language } : undefined });
  const get = (url: string, options: { token?: string; tenantId?: number } = {}) => call(ctx.app, options.token ?? admin, { method: 'GET', url, tenantId: options.tenantId });

  beforeAll(async () => {
    ctx = await createTestContext({}, 2);
    admin = await signIn(ctx.app);
  });
  afterAll(async () => {
    // The zone cache (tenant/settings.ts, 10 s) belongs to the process, and the API test files share one
    // process (vitest.config.ts, isolate: false): data centre 100 goes back to its seeded zone so the
    // next file does not read London time from the cache.
    if (ctx) await post('/iot/v1/tenant/settings', { timeZone: 'Asia/Shanghai' });
    await ctx?.close();
  });

  it("answers with the fields' own messages in the caller's language, not the code's generic text", async () => {
    const code = dataOf(await post('/nbdev/customerCode', { customerCode: 'NO-KEY-1', name: 'no key yet' }));
    const config = { customerCode: code.customerCode, url: 'http://127.0.0.1:9/hook', eventTypes: ['unlock'] };
    const zh = await post('/nbdev/saveConfig', config);
    expect([zh.statusCode, zh.json().code, zh.json().message]).toEqual([400, 'VALIDATION_FAILED', '请先生成签名密钥']);
    expect(fieldOf(zh, 'body.customerCode')?.message).toEqual({ 'zh-CN': '请先生成签名密钥', 'en-US': 'Generate a signing key first' });
    expect((await post('/nbdev/saveConfig', config, { language: 'en-US' })).json().message).toBe('Generate a signing key first');
    // Several failing fields: each says its own (at most three, then how many more).
    const many = await post('/iot/v1/lockDevice', { imei: 'x', name: '', model: '' });
    expect(many.json().message).not.toBe('请求参数有误');
    expect(many.json().message.split('；').length).toBeGreaterThanOrEqual(2);
  });

  it('names the field of every conflict: a duplicate IMEI, username, role name', async () => {
    const imei = imeiWithCheckDigit('86123459999901');
    const types = dataOf(await get('/iot/v1/equipmentType/options')) as { kind: string; model: string }[];
    const lockModel = types.find((type) => type.kind === 'lock')?.model as string;
    dataOf(await post('/iot/v1/lockDevice', { imei, name: 'first', model: lockModel }));
    const twice = await post('/iot/v1/lockDevice', { imei, name: 'second', model: lockModel });
    expect([twice.statusCode, twice.json().code, twice.json().message]).toEqual([409, 'CONFLICT', '该 IMEI 已登记，不能重复登记']);
    expect(fieldOf(twice, 'body.imei')).toBeDefined();
    dataOf(await post('/v1/sysRole/add', { name: 'twin-role', authorities: [] }));
    const role = await post('/v1/sysRole/add', { name: 'twin-role', authorities: [] });
    expect([role.statusCode, fieldOf(role, 'body.name')?.message['en-US']]).toEqual([409, 'A role of this name already exists in this data centre']);
    await operatorWith(ctx.app, admin, 'twin-user', []);
    const user = await post('/v1/account/add/user', { username: 'twin-user', ...(await encryptPassword(ctx.app, 'twin-password-2')) });
    expect([user.statusCode, fieldOf(user, 'body.username')?.message['zh-CN']]).toEqual([409, '该用户名已被使用']);
  });

  it('refuses out-of-range input instead of moving it into range or cutting it', async () => {
    const [lock] = dataOf(await get('/iot/v1/lockDevice/list?current=1&size=1')).records as { id: number }[];
    const loud = await post('/iot/v1/lockConfig', { lockId: lock?.id, config: { volume: 150 } });
    expect([loud.statusCode, fieldOf(loud, 'body.config.volume') !== undefined]).toEqual([400, true]);
    const long = await post('/iot/v1/lockDevice', { imei: `${imeiWithCheckDigit('86123459999902')}1`, name: 'sixteen digits', model: 'x' });
    expect([long.statusCode, fieldOf(long, 'body.imei') !== undefined]).toEqual([400, true]);
    // A lock cannot be registered with an air switch's model.
    const types = dataOf(await get('/iot/v1/equipmentType/options')) as { kind: string; model: string }[];
    const switchModel = types.find((type) => type.kind === 'airSwitch')?.model;
    if (switchModel) {
      const wrong = await post('/iot/v1/lockDevice', { imei: imeiWithCheckDigit('86123459999903'), name: 'a switch?', model: switchModel });
      expect([wrong.statusCode, fieldOf(wrong, 'body.model')?.message['en-US']]).toEqual([400, `${switchModel} is not a lock device type`]);
    }
  });

  it("keeps the data centre's time zone: read by anyone signed in, changed only with TENANT_SETTINGS, logged before and after", async () => {
    expect(dataOf(await get('/iot/v1/tenant/settings', { tenantId: 101 }))).toMatchObject({ tenantId: 101, timeZone: 'Asia/Shanghai' });
    const reader = await operatorWith(ctx.app, admin, 'zone-reader', ['LOGIN_ACCOUNT']);
    expect(dataOf(await get('/iot/v1/tenant/settings', { token: reader.token })).timeZone).toBe('Asia/Shanghai');
    const refused = await post('/iot/v1/tenant/settings', { timeZone: 'Europe/London' }, { token: reader.token });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'FORBIDDEN']);
    const keeper = await operatorWith(ctx.app, admin, 'zone-keeper', ['TENANT_SETTINGS']);
    expect(dataOf(await post('/iot/v1/tenant/settings', { timeZone: 'Europe/London' }, { token: keeper.token }))).toMatchObject({ tenantId: 100, timeZone: 'Europe/London' });
    expect(dataOf(await get('/oauth/userInfo')).timeZone).toBe('Europe/London');
    expect(dataOf(await get('/oauth/userInfo', { tenantId: 101 })).timeZone).toBe('Asia/Shanghai');
    const bad = await post('/iot/v1/tenant/settings', { timeZone: 'Mars/Olympus' });
    expect([bad.statusCode, fieldOf(bad, 'body.timeZone') !== undefined]).toEqual([400, true]);
    const rows = dataOf(await get('/iot/v1/SysOperateLog/getLogList?action=POST%20%2Fiot%2Fv1%2Ftenant%2Fsettings')).records as
      { username: string; result: string; targetName: string | null; changes: Record<string, unknown> | null }[];
    expect(rows.map((row) => [row.username, row.result])).toEqual([['admin', 'VALIDATION_FAILED'], ['zone-keeper', 'success'], ['zone-reader', 'FORBIDDEN']]);
    expect(rows[1]).toMatchObject({ targetName: expect.any(String), changes: { timeZone: ['Asia/Shanghai', 'Europe/London'] } });
  });

  it("writes exports' times in the data centre's zone", async () => {
    // Data centre 100 is on London time since the test above.
    const csv = await get('/iot/v1/SysOperateLog/export?action=sign-in');
    const [header, first] = csv.body.replace(/^\ufeff/, '').split('\n');
    expect(header).toContain('时间 (Europe/London)');
    const [newest] = dataOf(await get('/iot/v1/SysOperateLog/getLogList?action=sign-in&size=1')).records as { createdAt: string }[];
    const london = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(newest?.createdAt ?? ''));
    expect(first).toContain(london);
    dataOf(await post('/iot/v1/tenant/settings', { timeZone: 'Asia/Shanghai' }));
  });

  it('names the object a change was made to and says what changed', async () => {
    const [lock] = dataOf(await get('/iot/v1/lockDevice/list?current=1&size=1&sortField=imei&sortOrder=ascend')).records as { id: number; name: string; model: string }[];
    const full = dataOf(await get(`/iot/v1/lockDevice/list?current=1&size=1&keyword=${lock?.name}`)).records[0] as { location: { building: string; floor: string; room: string }; simulated: boolean };
    dataOf(await post('/iot/v1/lockDevice/update', { id: lock?.id, name: 'Renamed lock', model: lock?.model, ...full.location, simulated: full.simulated }));
    const [row] = dataOf(await get('/iot/v1/SysOperateLog/getLogList?action=POST%20%2Fiot%2Fv1%2FlockDevice%2Fupdate')).records as
      { target: string; targetName: string; changes: Record<string, [unknown, unknown]> }[];
    // Only what changed: the other fields were sent as they were.
    expect(row).toMatchObject({ target: String(lock?.id), targetName: 'Renamed lock' });
    expect(row?.changes).toEqual({ name: [lock?.name, 'Renamed lock'] });
  });

  it('lists the system log newest first by time, whatever the order of the ids', async () => {
    const now = Date.now();
    // Written in the wrong order on purpose: the older row gets the higher id.
    await insertAudit(ctx.database.system, { tenantId: 100, accountId: null, username: 'order-test', action: 'order-test', result: 'success', clientIp: '', detail: { name: 'newer' } });
    await ctx.database.system.execute(sql`update audit_log set created_at = to_timestamp(${(now - 1000) / 1000}) where username = 'order-test'`);
    await insertAudit(ctx.database.system, { tenantId: 100, accountId: null, username: 'order-test', action: 'order-test', result: 'success', clientIp: '', detail: { name: 'older' } });
    await ctx.database.system.execute(sql`update audit_log set created_at = to_timestamp(${(now - 60_000) / 1000}) where username = 'order-test' and detail->>'name' = 'older'`);
    const listed = dataOf(await get('/iot/v1/SysOperateLog/getLogList?keyword=order-test')).records as { detail: { name: string } }[];
    expect(listed.map((row) => row.detail.name)).toEqual(['newer', 'older']);
  });
});
