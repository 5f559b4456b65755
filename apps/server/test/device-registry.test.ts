/**
 * Device types (设备类型) and the lock registry (门锁信息), on PGlite and PostgreSQL: seed
 * types, type CRUD with "in use" refusals, capacity checks reading the table, registration with Luhn
 * and cross-tenant uniqueness, secret once, reset, disable, decommission, release, export, isolation.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDeviceSecret } from '../src/crypto/device-secret.js';
import { auditLog, devices, locks } from '../src/db/schema.js';
import { call, createTestContext, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';
import { secretHashOf } from '../src/gateway/test-support.js';

const TYPE = {
  kind: 'lock', model: 'ZG-TEST1', connectivity: 'alwaysOnline', heartbeatIntervalS: 60,
  capacity: { users: 2, passwords: 1, cards: 1, fingerprints: 1 }, passwordDigits: { min: 6, max: 8 }, maxValidityDays: 30,
  unlockMethods: ['password', 'card'], firmwareFamily: 'ZG-T',
};

describe.skipIf(skipSuite)('device registry', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 5);
    token = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const get = (url: string, tenantId = 100) => call(ctx.app, token, { method: 'GET', url, tenantId });
  const post = (url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url, payload, tenantId });

  it('seeds the ZIGUANG models as device types of every data centre, with their device counts', async () => {
    const page = (await get('/iot/v1/equipmentType/list?size=50&kind=lock')).json().data;
    // ZG-4G300 (4G Cat.1) is the always-online lock type beside the sleeping NB-IoT ones.
    expect(page.records.map((r: { model: string; connectivity: string }) => `${r.model}:${r.connectivity}`))
      .toEqual(['ZG-4G300:alwaysOnline', 'ZG-NB100:nbiotSleeping', 'ZG-NB200:nbiotSleeping', 'ZG-NB300:nbiotSleeping']);
    expect(page.records[1]).toMatchObject({ vendor: 'ZIGUANG', capacity: { users: 50, fingerprints: 20 }, kind: 'lock' });
    expect(page.records.reduce((n: number, r: { deviceCount: number }) => n + r.deviceCount, 0)).toBe(4); // 4 of 5 demo locks in 100
    // The air switch models share the registry (kind airSwitch, always online).
    const switches = (await get('/iot/v1/equipmentType/list?size=50&kind=airSwitch')).json().data;
    expect(switches.records.map((r: { model: string; connectivity: string }) => `${r.model}:${r.connectivity}`)).toEqual(['ZG-AS2:alwaysOnline', 'ZG-AS4:alwaysOnline']);
    expect((await get('/iot/v1/equipmentType/options', 101)).json().data).toHaveLength(6);
  });

  it('adds, edits and refuses duplicate or malformed types with fields in both languages', async () => {
    const added = await post('/iot/v1/equipmentType/add', TYPE);
    expect(added.statusCode).toBe(200);
    const duplicate = await post('/iot/v1/equipmentType/add', TYPE);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errors[0].field).toBe('body.model');
    const bad = await post('/iot/v1/equipmentType/add', { ...TYPE, model: 'x y', passwordDigits: { min: 9, max: 6 }, unlockMethods: ['card', 'card'] });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json().errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['body.model', 'body.passwordDigits.max', 'body.unlockMethods']);
    expect(bad.json().errors[1].message['zh-CN']).toMatch(/位数/);
    const id = added.json().data.id;
    expect((await post('/iot/v1/equipmentType/update', { ...TYPE, id, heartbeatIntervalS: 120 })).statusCode).toBe(200);
    // Another data centre does not see it: it may add the same model code.
    expect((await post('/iot/v1/equipmentType/update', { ...TYPE, id }, 101)).statusCode).toBe(404);
    expect((await post('/iot/v1/equipmentType/add', TYPE, 101)).statusCode).toBe(200);
  });

  it('registers a lock: Luhn IMEI, secret once (stored hashed), type defaults, audited without the secret', async () => {
    const imei = imeiWithCheckDigit('35693803564380');
    const bad = await post('/iot/v1/lockDevice', { imei: '356938035643801', name: 'x', model: 'ZG-TEST1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ field: 'body.imei', message: { 'en-US': expect.stringMatching(/Luhn/) } });
    const unknownType = await post('/iot/v1/lockDevice', { imei, name: 'x', model: 'NOPE' });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().errors[0].field).toBe('body.model');
    const response = await post('/iot/v1/lockDevice', { imei, name: '101 门锁', model: 'ZG-TEST1', building: 'A栋', floor: '1层', room: '101', iccid: '8986001234567890123' });
    expect(response.statusCode).toBe(200);
    const { id, secret } = response.json().data;
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    const [row] = await ctx.database.system.select().from(locks).where(eq(locks.id, id));
    expect(row).toMatchObject({ tenantId: 100, heartbeatIntervalS: 120, alwaysOnline: true, building: 'A栋', enabled: true });
    expect(verifyDeviceSecret(secret, (await secretHashOf(ctx.database, imei)) ?? '')).toBe(true);
    const audits = await ctx.database.system.select().from(auditLog).where(eq(auditLog.target, imei));
    expect(audits.map((a) => a.result)).toEqual(['VALIDATION_FAILED', 'success']);
    expect(JSON.stringify(audits)).not.toContain(secret);
    // Unique across data centres, and the refusal does not say where.
    for (const tenant of [100, 101]) {
      const again = await post('/iot/v1/lockDevice', { imei, name: 'y', model: 'ZG-NB100' }, tenant);
      expect(again.statusCode).toBe(409);
      expect(again.json().errors[0].message['en-US']).toBe('This IMEI is already registered');
    }
  });

  it('checks credential capacity against the device type table', async () => {
    const imei = imeiWithCheckDigit('35693803564381');
    const { id } = (await post('/iot/v1/lockDevice', { imei, name: 'cap', model: 'ZG-TEST1' })).json().data;
    const capacity = (await get(`/iot/v1/lockDevice/capacity?lockId=${id}`)).json().data;
    expect(capacity).toMatchObject({ users: { capacity: 2 }, passwords: { capacity: 1 }, passwordDigits: { min: 6, max: 8 }, maxValidityDays: 30 });
  });

  it('refuses to delete a type in use, saying how many devices use it, or to change its model code', async () => {
    const types = (await get('/iot/v1/equipmentType/list?keyword=TEST1')).json().data.records;
    const [type] = types;
    expect(type.deviceCount).toBe(2);
    const refused = await post('/iot/v1/equipmentType/delete', { id: type.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0].message['en-US']).toMatch(/^2 device\(s\) use this type/);
    expect((await post('/iot/v1/equipmentType/update', { ...TYPE, id: type.id, model: 'ZG-OTHER' })).statusCode).toBe(409);
    const spare = (await post('/iot/v1/equipmentType/add', { ...TYPE, model: 'ZG-SPARE' })).json().data.id;
    expect((await post('/iot/v1/equipmentType/delete', { id: spare })).statusCode).toBe(200);
  });

  it('edits, filters, disables, resets the secret, decommissions and releases the IMEI', async () => {
    const imei = imeiWithCheckDigit('35693803564382');
    const { id, secret } = (await post('/iot/v1/lockDevice', { imei, name: 'life', model: 'ZG-NB200', building: 'B栋', floor: '2层', room: '201' })).json().data;
    expect((await post('/iot/v1/lockDevice/update', { id, name: 'life 2', model: 'ZG-NB300', building: 'B栋', floor: '2层', room: '202', note: 'n' })).statusCode).toBe(200);
    const listed = (await get(`/iot/v1/lockDevice/list?building=${encodeURIComponent('B栋')}&model=ZG-NB300`)).json().data;
    expect(listed.records).toHaveLength(1);
    expect(listed.records[0]).toMatchObject({ imei, name: 'life 2', state: 'active', location: { building: 'B栋', floor: '2层', room: '202' }, note: 'n' });
    expect((await post('/iot/v1/lockDevice/enable', { id, enabled: false })).statusCode).toBe(200);
    expect((await get('/iot/v1/lockDevice/list?state=disabled')).json().data.records.map((r: { imei: string }) => r.imei)).toEqual([imei]);
    const reset = (await post('/iot/v1/lockDevice/resetSecret', { id })).json().data;
    expect(reset.secret).not.toBe(secret);
    expect(verifyDeviceSecret(reset.secret, (await secretHashOf(ctx.database, imei)) ?? '')).toBe(true);
    expect(verifyDeviceSecret(secret, (await secretHashOf(ctx.database, imei)) ?? '')).toBe(false);
    expect((await post('/iot/v1/lockDevice/releaseImei', { id })).statusCode).toBe(409);
    expect((await post('/iot/v1/lockDevice/decommission', { id })).statusCode).toBe(200);
    expect((await post('/iot/v1/lockDevice/enable', { id, enabled: true })).statusCode).toBe(409);
    expect((await get(`/iot/v1/lockDevice/list?keyword=${imei}`)).json().data.total).toBe(0);
    expect((await get(`/iot/v1/lockDevice/list?keyword=${imei}&state=decommissioned`)).json().data.total).toBe(1);
    expect((await post('/iot/v1/lockDevice', { imei, name: 'again', model: 'ZG-NB100' })).statusCode).toBe(409);
    expect((await post('/iot/v1/lockDevice/releaseImei', { id })).statusCode).toBe(200);
    // A released IMEI's registration is gone: the old lock can never connect, the IMEI is free.
    expect(await secretHashOf(ctx.database, imei)).toBeUndefined();
    const again = await post('/iot/v1/lockDevice', { imei, name: 'again', model: 'ZG-NB100' }, 101);
    expect(again.statusCode).toBe(200);
    const [registered] = await ctx.database.system.select().from(devices).where(eq(devices.clientId, imei));
    expect(registered).toMatchObject({ tenantId: 101, deviceKind: 'lock', lockId: again.json().data.id, airSwitchId: null });
    expect(verifyDeviceSecret(again.json().data.secret, registered?.secretHash ?? '')).toBe(true);
  });

  it('exports the current filter as CSV and Excel', async () => {
    const csv = await get(`/iot/v1/lockDevice/export?format=csv&building=${encodeURIComponent('A栋')}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toContain('IMEI');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.includes('A栋'))).toBe(true);
    const xlsx = await get('/iot/v1/lockDevice/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('needs LOCK_REGISTRY to register and DEVICE_TYPE_EDIT to edit types; LOOK_INFO reads', async () => {
    const reader = (await operatorWith(ctx.app, token, 'registry-reader', ['LOOK_INFO'])).token;
    const as = (method: 'GET' | 'POST', url: string, payload?: object) => call(ctx.app, reader, { method, url, payload });
    expect((await as('GET', '/iot/v1/equipmentType/list')).statusCode).toBe(200);
    expect((await as('POST', '/iot/v1/equipmentType/add', { ...TYPE, model: 'ZG-R' })).statusCode).toBe(403);
    expect((await as('POST', '/iot/v1/lockDevice', { imei: imeiWithCheckDigit('35693803564383'), name: 'r', model: 'ZG-NB100' })).statusCode).toBe(403);
  });
});
