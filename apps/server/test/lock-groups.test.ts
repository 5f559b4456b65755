/**
 * 分组管理 and the device-target resolver, on PGlite and PostgreSQL: group CRUD with its
 * refusals in both languages; members added by an IMEI list (unknown IMEIs reported), by 门锁信息's
 * filter and by another group; removal; the lock list and its export filtered by group; the batch
 * configuration push targeting a group; the audit rows; isolation between data centres.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, commands, lockGroupMembers } from '../src/db/schema.js';
import { resolveDeviceTarget } from '../src/modules/lockGroup/target.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

interface Lock { id: number; imei: string; room: string; location: { building: string } }

describe.skipIf(skipSuite)('lock groups and device targets', () => {
  let ctx: TestContext;
  let token: string;
  let mine: Lock[];
  let theirs: Lock[];
  const get = (url: string, tenantId = 100) => call(ctx.app, token, { method: 'GET', url, tenantId });
  const post = (url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url, payload, tenantId });
  const listIds = async (query: string, tenantId = 100) =>
    (dataOf(await get(`/iot/v1/lockDevice/list?size=100&${query}`, tenantId)).records as Lock[]).map((lock) => lock.id);
  const addGroup = async (name: string, tenantId = 100) => dataOf(await post('/iot/v1/lockGroup/add', { name }, tenantId)).id as number;

  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    token = await signIn(ctx.app);
    mine = dataOf(await get('/iot/v1/lockDevice/list?size=100')).records;
    theirs = dataOf(await get('/iot/v1/lockDevice/list?size=100', 101)).records;
    expect(mine.length).toBeGreaterThan(4);
    expect(theirs.length).toBeGreaterThan(0);
  });
  afterAll(() => ctx?.close());

  it('creates, renames and lists groups; refuses duplicates and bad input with fields in both languages', async () => {
    const added = await post('/iot/v1/lockGroup/add', { name: ' A栋 ', description: '一号楼' });
    expect(added.statusCode).toBe(200);
    expect(dataOf(added)).toMatchObject({ name: 'A栋' });
    const duplicate = await post('/iot/v1/lockGroup/add', { name: 'A栋' });
    expect([duplicate.statusCode, duplicate.json().errors[0].field]).toEqual([409, 'body.name']);
    expect(duplicate.json().errors[0].message).toEqual({ 'zh-CN': '已有同名分组', 'en-US': 'A group of this name already exists' });
    const bad = await post('/iot/v1/lockGroup/add', { name: '', colour: 'red' });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json().errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['body', 'body.name']);
    expect(bad.json().errors.every((e: { message: Record<string, string> }) => e.message['zh-CN'] && e.message['en-US'])).toBe(true);
    const id = dataOf(added).id;
    expect((await post('/iot/v1/lockGroup/update', { id, name: 'A栋 Building A', description: '' })).statusCode).toBe(200);
    const other = await addGroup('B栋');
    expect((await post('/iot/v1/lockGroup/update', { id: other, name: 'A栋 Building A' })).statusCode).toBe(409);
    const page = dataOf(await get('/iot/v1/lockGroup/list?keyword=Building'));
    expect(page).toMatchObject({ total: 1, records: [{ id, name: 'A栋 Building A', memberCount: 0 }] });
    expect(dataOf(await get('/iot/v1/lockGroup/options')).map((g: { name: string }) => g.name)).toEqual(['A栋 Building A', 'B栋']);
  });

  it('adds members by IMEI list (reporting unknown ones), by filter and by group; the list and export filter by group', async () => {
    const group = await addGroup('pasted');
    const unknown = '490154203237518';
    const pasted = await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { imeis: [mine[0]?.imei, mine[1]?.imei, mine[1]?.imei, unknown, theirs[0]?.imei] } });
    expect(dataOf(pasted)).toEqual({ added: 2, alreadyMembers: 0, unknownImeis: [unknown, theirs[0]?.imei] });
    const again = dataOf(await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { imeis: [mine[0]?.imei] } }));
    expect(again).toEqual({ added: 0, alreadyMembers: 1, unknownImeis: [] });
    expect(await listIds(`groupId=${group}`)).toEqual([mine[0]?.id, mine[1]?.id]);

    const building = mine[2]?.location.building as string;
    const filtered = await addGroup('by filter');
    const byFilter = dataOf(await post('/iot/v1/lockGroup/addMembers', { groupId: filtered, target: { filter: { building } } }));
    const inBuilding = await listIds(`building=${encodeURIComponent(building)}`);
    expect(byFilter.added).toBe(inBuilding.length);
    expect(await listIds(`groupId=${filtered}`)).toEqual(inBuilding);

    const copy = await addGroup('copy');
    expect(dataOf(await post('/iot/v1/lockGroup/addMembers', { groupId: copy, target: { groupId: group } })).added).toBe(2);
    const csv = await get(`/iot/v1/lockDevice/export?format=csv&groupId=${copy}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\n').length).toBe(3); // header + 2 members
    expect(dataOf(await get('/iot/v1/lockGroup/list?keyword=copy')).records[0].memberCount).toBe(2);

    const removed = dataOf(await post('/iot/v1/lockGroup/removeMembers', { groupId: copy, lockIds: [mine[0]?.id, 999_999] }));
    expect(removed).toEqual({ removed: 1 });
    expect(await listIds(`groupId=${copy}`)).toEqual([mine[1]?.id]);
  });

  it('refuses a target naming none or two of groupId, imeis, filter, and a group of nowhere', async () => {
    const group = await addGroup('targets');
    for (const target of [{}, { groupId: group, imeis: ['1'] }]) {
      const response = await post('/iot/v1/lockGroup/addMembers', { groupId: group, target });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toEqual({ field: 'body.target', message: { 'zh-CN': expect.stringContaining('groupId'), 'en-US': 'give exactly one of groupId, imeis, filter' } });
    }
    const badFilter = await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { filter: { state: 'melted' } } });
    expect([badFilter.statusCode, badFilter.json().errors[0].field]).toEqual([400, 'body.target.filter.state']);
    const missing = await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { groupId: 999_999 } });
    expect(missing.statusCode).toBe(404);
    expect((await post('/iot/v1/lockGroup/addMembers', { groupId: 999_999, target: { imeis: [mine[0]?.imei] } })).statusCode).toBe(404);
  });

  it('pushes a configuration to every lock of a group, each lock on its own', async () => {
    const group = await addGroup('config');
    await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { imeis: [mine[3]?.imei, mine[4]?.imei] } });
    const response = await post('/iot/v1/lockConfig/batch', { target: { groupId: group }, config: { volume: 30 } });
    expect(response.statusCode).toBe(200);
    expect(dataOf(response)).toEqual({ queued: 2, refused: [], unknownImeis: [] });
    const queued = await ctx.database.system.select({ lockId: commands.lockId, data: commands.data }).from(commands).where(eq(commands.type, 'configPush'));
    expect(queued.map((row) => row.lockId).sort()).toEqual([mine[3]?.id, mine[4]?.id].sort());
    expect(queued[0]?.data).toEqual({ config: { volume: 30 } });
    const bad = await post('/iot/v1/lockConfig/batch', { target: { groupId: group }, config: {} });
    expect(bad.statusCode).toBe(400);
    const audit = await ctx.database.system.select().from(auditLog).where(eq(auditLog.action, 'POST /iot/v1/lockConfig/batch'));
    expect(audit.map((row) => row.result)).toContain('success');
  });

  it('deletes a group with its memberships, the locks stay; every change is in the system log', async () => {
    const group = await addGroup('doomed');
    await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { imeis: [mine[0]?.imei] } });
    expect((await post('/iot/v1/lockGroup/delete', { id: group })).statusCode).toBe(200);
    expect(await ctx.database.system.select().from(lockGroupMembers).where(eq(lockGroupMembers.groupId, group))).toEqual([]);
    expect((await listIds('')).includes(mine[0]?.id as number)).toBe(true);
    expect((await post('/iot/v1/lockGroup/delete', { id: group })).statusCode).toBe(404);
    const actions = (await ctx.database.system.select({ action: auditLog.action }).from(auditLog)
      .where(and(eq(auditLog.tenantId, 100), eq(auditLog.result, 'success')))).map((row) => row.action);
    for (const path of ['add', 'update', 'delete', 'addMembers', 'removeMembers']) expect(actions).toContain(`POST /iot/v1/lockGroup/${path}`);
  });

  it('keeps data centres apart: groups, members, targets and the list filter', async () => {
    const group = await addGroup('private');
    await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { imeis: [mine[0]?.imei] } });
    expect(dataOf(await get('/iot/v1/lockGroup/options', 101)).map((g: { id: number }) => g.id)).not.toContain(group);
    for (const [url, payload] of [
      ['/iot/v1/lockGroup/update', { id: group, name: 'stolen' }], ['/iot/v1/lockGroup/delete', { id: group }],
      ['/iot/v1/lockGroup/addMembers', { groupId: group, target: { imeis: [theirs[0]?.imei] } }],
      ['/iot/v1/lockGroup/removeMembers', { groupId: group, lockIds: [mine[0]?.id] }],
    ] as const) expect([url, (await post(url, payload, 101)).statusCode]).toEqual([url, 404]);
    // 101's own group cannot target 100's group, nor take 100's locks by IMEI or id.
    const theirGroup = await addGroup('theirs', 101);
    expect((await post('/iot/v1/lockGroup/addMembers', { groupId: theirGroup, target: { groupId: group } }, 101)).statusCode).toBe(404);
    expect(dataOf(await post('/iot/v1/lockGroup/addMembers', { groupId: theirGroup, target: { imeis: [mine[0]?.imei] } }, 101)).unknownImeis).toEqual([mine[0]?.imei]);
    expect(await listIds(`groupId=${group}`, 101)).toEqual([]);
    // The resolver filters on the tenant itself, also on the owner connection (no row-level security).
    expect((await resolveDeviceTarget(ctx.database.system, 101, { filter: {} })).lockIds.sort()).toEqual(theirs.map((lock) => lock.id).sort());
    await expect(resolveDeviceTarget(ctx.database.system, 101, { groupId: group })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(resolveDeviceTarget(ctx.database.system, 100, { filter: {} }, { max: 1 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
