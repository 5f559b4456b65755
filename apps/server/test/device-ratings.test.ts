/**
 * Ratings from the device type: device types carry ratings (heartbeat range; for air
 * switches circuits, rated current and voltage, leakage range), and every threshold and setting is
 * checked against the target's type with the limit in the error, in both languages: an over-current
 * limit of 630 A on a 63 A breaker, a threshold pair that two valid partial updates would leave inverted
 * (the merged state), a heartbeat a lock type does not accept (one lock and a batch over mixed types),
 * and a type edit its devices' stored thresholds would no longer hold. Nothing is written on a refusal.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airSwitchCircuits, commands } from '../src/db/schema.js';
import { call, createTestContext, dataOf, skipSuite, signIn, type TestContext } from './helper.js';

const LOCK_TYPE = {
  kind: 'lock', model: 'ZG-SLOW', connectivity: 'nbiotSleeping', heartbeatIntervalS: 600, heartbeatRangeS: { min: 60, max: 3600 },
  capacity: { users: 10, passwords: 10, cards: 10, fingerprints: 0 }, passwordDigits: { min: 6, max: 8 }, maxValidityDays: 30,
  unlockMethods: ['password'], firmwareFamily: 'ZG-S', electrical: null,
};
const SWITCH_TYPE = {
  ...LOCK_TYPE, kind: 'airSwitch', model: 'ZG-AS230', connectivity: 'alwaysOnline', heartbeatIntervalS: 10, heartbeatRangeS: { min: 10, max: 3600 },
  capacity: { users: 0, passwords: 0, cards: 0, fingerprints: 0 }, electrical: { circuits: 2, ratedCurrentA: 32, ratedVoltageV: 230, leakageMa: { min: 30, max: 100 } },
};

describe.skipIf(skipSuite)('ratings from the device type', () => {
  let ctx: TestContext;
  let token: string;
  let as4: number;
  let as230: number;
  const post = (url: string, payload: object) => call(ctx.app, token, { method: 'POST', url, payload });
  const thresholds = (id: number, circuit: number, values: object) => post('/iot/v1/airSwitch/thresholds', { id, circuit, thresholds: values });
  const desired = async (id: number, circuit: number) => (await ctx.database.system.select({ t: airSwitchCircuits.desiredThresholds }).from(airSwitchCircuits)
    .where(eq(airSwitchCircuits.airSwitchId, id))).map((row) => row.t)[circuit - 1];
  const commandCount = async (id: number) => (await ctx.database.system.select().from(commands).where(eq(commands.airSwitchId, id))).length;

  /** Expects a 400 whose errors name `field` with `en` in English and some Chinese; nothing stored for the switch. */
  async function refused(response: Awaited<ReturnType<typeof post>>, field: string, en: string) {
    expect(response.statusCode).toBe(400);
    const error = response.json().errors.find((e: { field: string }) => e.field === field);
    expect(error?.message['en-US']).toContain(en);
    expect(error?.message['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
  }

  beforeAll(async () => {
    ctx = await createTestContext({}, 6);
    token = await signIn(ctx.app);
    as4 = dataOf(await post('/iot/v1/airSwitch/add', { serial: 'AS00RATING01', name: 'rated 63 A', model: 'ZG-AS4' })).id;
    expect((await post('/iot/v1/equipmentType/add', SWITCH_TYPE)).statusCode).toBe(200);
    as230 = dataOf(await post('/iot/v1/airSwitch/add', { serial: 'AS00RATING02', name: 'rated 230 V', model: 'ZG-AS230' })).id;
  });
  afterAll(() => ctx?.close());

  it('lists the ratings of each type; seeded air switches with theirs, locks without electrical ratings', async () => {
    const types = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/equipmentType/list?size=50' })).records;
    const byModel = new Map(types.map((type: { model: string }) => [type.model, type]));
    expect(byModel.get('ZG-AS4')).toMatchObject({ electrical: { circuits: 4, ratedCurrentA: 63, ratedVoltageV: 220, leakageMa: { min: 10, max: 300 } } });
    expect(byModel.get('ZG-NB100')).toMatchObject({ electrical: null, heartbeatRangeS: { min: 10, max: 86_400 } });
    expect(byModel.get('ZG-AS230')).toMatchObject({ electrical: SWITCH_TYPE.electrical });
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/airSwitch/detail?id=${as230}` })).circuits).toHaveLength(2);
  });

  it('refuses types whose own ratings do not hold together', async () => {
    await refused(await post('/iot/v1/equipmentType/add', { ...SWITCH_TYPE, model: 'ZG-NOE', electrical: null }), 'body.electrical', 'air switch types need electrical ratings');
    await refused(await post('/iot/v1/equipmentType/add', { ...LOCK_TYPE, model: 'ZG-HB', heartbeatIntervalS: 30 }), 'body.heartbeatIntervalS', 'within the type\'s heartbeat range');
    await refused(await post('/iot/v1/equipmentType/add', { ...SWITCH_TYPE, model: 'ZG-LK', electrical: { ...SWITCH_TYPE.electrical, leakageMa: { min: 300, max: 30 } } }),
      'body.electrical.leakageMa.max', 'maximum may not be below the minimum');
  });

  it('refuses an over-current limit above the rated current, naming it; nothing is stored or queued', async () => {
    await refused(await thresholds(as4, 1, { currentLimitA: 630 }), 'body.thresholds.currentLimitA', 'exceeds the rated current of ZG-AS4, 63 A');
    await refused(await thresholds(as4, 1, { powerLimitW: 20_000 }), 'body.thresholds.powerLimitW', '13860 W (220 V × 63 A)');
    await refused(await thresholds(as230, 1, { overVoltageV: 225, underVoltageV: 220 }), 'body.thresholds.overVoltageV', 'below the rated voltage of ZG-AS230, 230 V');
    await refused(await thresholds(as230, 1, { leakageTripMa: 300 }), 'body.thresholds.leakageTripMa', 'leakage range of ZG-AS230, 30-100 mA');
    await refused(await post('/iot/v1/airSwitch/switch', { id: as230, circuit: 3, on: false }), 'body.circuit', 'ZG-AS230 has only 2 circuits');
    expect(await desired(as4, 1)).toEqual({});
    expect(await commandCount(as4)).toBe(0);
    expect((await thresholds(as4, 1, { currentLimitA: 63, powerLimitW: 13_860 })).statusCode).toBe(200);
  });

  it('validates the merged state: two valid partial updates may not leave the warning above the trip', async () => {
    expect((await thresholds(as4, 2, { leakageTripMa: 30 })).statusCode).toBe(200);
    await refused(await thresholds(as4, 2, { leakageWarnMa: 300 }), 'body.thresholds.leakageWarnMa', 'warning 300 mA is above the leakage trip 30 mA');
    expect(await desired(as4, 2)).toEqual({ leakageTripMa: 30 });
    // The other order too, and reported thresholds count as saved ones.
    expect((await thresholds(as4, 3, { leakageWarnMa: 300 })).statusCode).toBe(200);
    await refused(await thresholds(as4, 3, { leakageTripMa: 30 }), 'body.thresholds.leakageWarnMa', 'above the leakage trip 30 mA');
    await ctx.database.system.update(airSwitchCircuits).set({ reportedThresholds: { leakageTripMa: 50 } }).where(eq(airSwitchCircuits.airSwitchId, as230));
    await refused(await thresholds(as230, 1, { leakageWarnMa: 60 }), 'body.thresholds.leakageWarnMa', 'above the leakage trip 50 mA');
    expect((await thresholds(as4, 3, { leakageWarnMa: 20, leakageTripMa: 30 })).statusCode).toBe(200);
  });

  it('refuses a type edit its devices\' stored thresholds would no longer hold', async () => {
    const types = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/equipmentType/list?keyword=ZG-AS4' })).records;
    const as4Type = types.find((type: { model: string }) => type.model === 'ZG-AS4');
    const { id, deviceCount: _count, vendor: _vendor, createdAt: _created, ...rest } = as4Type;
    const lowered = await post('/iot/v1/equipmentType/update', { ...rest, id, electrical: { ...rest.electrical, ratedCurrentA: 20 } });
    expect(lowered.statusCode).toBe(409);
    expect(lowered.json().errors[0].message['en-US']).toContain('1 circuit(s) would hold thresholds the new ratings refuse');
    expect((await post('/iot/v1/equipmentType/update', { ...rest, id, electrical: { ...rest.electrical, ratedCurrentA: 80 } })).statusCode).toBe(200);
  });

  it('checks lock configuration against each lock\'s type, one lock and a batch over mixed types', async () => {
    expect((await post('/iot/v1/equipmentType/add', LOCK_TYPE)).statusCode).toBe(200);
    const imei = imeiWithCheckDigit('86999000000001');
    const slow = dataOf(await post('/iot/v1/lockDevice', { imei, name: 'slow lock', model: 'ZG-SLOW' })).id;
    await refused(await post('/iot/v1/lockConfig', { lockId: slow, config: { heartbeatIntervalS: 30 } }), 'body.config.heartbeatIntervalS', 'outside the range of ZG-SLOW, 60-3600 s');
    expect((await ctx.database.system.select().from(commands).where(eq(commands.lockId, slow))).length).toBe(0);
    expect((await post('/iot/v1/lockConfig', { lockId: slow, config: { heartbeatIntervalS: 120 } })).statusCode).toBe(200);
    const [seeded] = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?model=ZG-NB100&size=1' })).records;
    const batch = dataOf(await post('/iot/v1/lockConfig/batch', { target: { imeis: [imei, seeded.imei] }, config: { heartbeatIntervalS: 30 } }));
    expect(batch.queued).toBe(1);
    expect(batch.refused).toEqual([{ lockId: slow, imei, code: 'VALIDATION_FAILED', message: expect.objectContaining({ 'en-US': expect.stringContaining('60-3600 s') }) }]);
  });
});
