/**
 * Rollout targets go through the one device-target resolver (lockGroup/target.ts): a group
 * reaches its members of the package's type that are enabled and not decommissioned, a device type its
 * locks in the data centre, an IMEI list those IMEIs; an unknown group is a 404 and unknown IMEIs a 400,
 * each naming the field, and leave no rollout behind. A lock's OTA history names package and versions.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwareJobs, firmwareRollouts, locks } from '../src/db/schema.js';
import { call, dataOf, skipSuite } from './helper.js';
import { addRollout, type FirmwareEnv, image, startFirmwareEnv, upload } from './firmware-support.js';

describe.skipIf(skipSuite)('firmware rollout targets', () => {
  let env: FirmwareEnv;
  let packageId: number;
  const db = () => env.ctx.database.system;
  const lockIdsOf = async (rolloutId: number) =>
    (await db().select({ lockId: firmwareJobs.lockId }).from(firmwareJobs).where(eq(firmwareJobs.rolloutId, rolloutId))).map((row) => row.lockId).sort((a, b) => a - b);
  const post = (url: string, payload: Record<string, unknown>) => call(env.ctx.app, env.token, { method: 'POST', url, payload });
  beforeAll(async () => {
    env = await startFirmwareEnv({ gateway: false, simLocks: 20 });
    packageId = dataOf(await upload(env, 'ZG-NB100', '9.1.0', image(3000))).id;
  });
  afterAll(async () => env?.close());

  it('a group reaches its usable members of the package type, and nothing else', async () => {
    const nb100 = env.devices.filter((device) => device.model === 'ZG-NB100');
    const other = env.devices.find((device) => device.model !== 'ZG-NB100');
    expect(nb100.length).toBeGreaterThanOrEqual(5);
    const members = [...nb100.slice(0, 5), ...(other ? [other] : [])];
    const group = dataOf(await post('/iot/v1/lockGroup/add', { name: 'OTA wave 1' }));
    expect((await post('/iot/v1/lockGroup/addMembers', { groupId: group.id, target: { imeis: members.map((device) => device.imei) } })).statusCode).toBe(200);
    const [retired, disabled] = nb100 as [(typeof nb100)[0], (typeof nb100)[0]];
    await db().update(locks).set({ decommissionedAt: new Date() }).where(eq(locks.id, retired.lockId));
    await db().update(locks).set({ enabled: false }).where(eq(locks.id, disabled.lockId));

    const id = await addRollout(env, { packageId, target: { kind: 'group', groupId: group.id }, canarySize: 0 });
    expect(await lockIdsOf(id)).toEqual(nb100.slice(2, 5).map((device) => device.lockId).sort((a, b) => a - b));
    expect((await post('/iot/v1/firmware/rollout/cancel', { id })).statusCode).toBe(200);
    // 设备信息's OTA history names the package and both versions.
    const history = dataOf(await call(env.ctx.app, env.token, { method: 'GET', url: `/iot/v1/firmware/lockHistory?imei=${nb100[2]?.imei}` }));
    const [lock] = await db().select({ firmwareVersion: locks.firmwareVersion }).from(locks).where(eq(locks.id, nb100[2]?.lockId as number));
    expect(history[0]).toMatchObject({ rolloutId: id, model: 'ZG-NB100', fileName: 'ZG-NB100-9.1.0.zgfw', fromVersion: lock?.firmwareVersion, version: '9.1.0', state: 'CANCELED', waitGate: null });
  });

  it('a device type reaches every usable lock of the type in the data centre only', async () => {
    const id = await addRollout(env, { packageId, target: { kind: 'type' }, canarySize: 0 });
    const expected = await db().select({ id: locks.id }).from(locks)
      .where(and(eq(locks.tenantId, 100), eq(locks.model, 'ZG-NB100'), eq(locks.enabled, true), isNull(locks.decommissionedAt)));
    expect(expected.length).toBeGreaterThan(3);
    expect(await lockIdsOf(id)).toEqual(expected.map((row) => row.id).sort((a, b) => a - b));
    expect((await post('/iot/v1/firmware/rollout/cancel', { id })).statusCode).toBe(200);
  });

  it('refuses an unknown group (404) and unknown IMEIs (400), naming the field, with no rollout left', async () => {
    const before = (await db().select().from(firmwareRollouts)).length;
    const group = await post('/iot/v1/firmware/rollout/add', { packageId, target: { kind: 'group', groupId: 999_999 } });
    expect(group.statusCode).toBe(404);
    expect(group.json().errors[0].field).toBe('body.target.groupId');
    const imeis = await post('/iot/v1/firmware/rollout/add', { packageId, target: { kind: 'imeis', imeis: ['869999000000011'] } });
    expect(imeis.statusCode).toBe(400);
    expect(imeis.json().errors[0].field).toBe('body.target.imeis');
    expect(imeis.json().errors[0].message['en-US']).toContain('869999000000011');
    // A lock of data centre 101 is unknown to 100.
    const [foreign] = await db().select({ imei: locks.imei }).from(locks).where(eq(locks.tenantId, 101)).limit(1);
    if (foreign) {
      const elsewhere = await post('/iot/v1/firmware/rollout/add', { packageId, target: { kind: 'imeis', imeis: [foreign.imei] } });
      expect(elsewhere.statusCode).toBe(400);
    }
    expect((await db().select().from(firmwareRollouts)).length).toBe(before);
    expect(await db().select().from(firmwareJobs).where(inArray(firmwareJobs.state, ['QUEUED']))).toHaveLength(0);
  });
});
