/**
 * Air switches on PGlite and PostgreSQL with the real gateway (embedded broker) and raw MQTT
 * devices: registration, authentication, telemetry ingest (bad, oversized and duplicate uplinks
 * acknowledged and dropped), remote switching with its command states, threshold push (desired vs
 * reported), trip alarms in the alert lifecycle, energy per day across a counter reset (both rollup
 * paths), and tenant isolation of every route.
 */
import { protocol } from '@iot/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway/index.js';
import { silentLog } from '../src/gateway/log.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';
import { waitFor } from './outbox-support.js';

const SERIAL = 'AS0000100001';
const OTHER = 'AS0000101001';

describe.skipIf(skipSuite)('air switches', () => {
  let ctx: TestContext;
  let gateway: Gateway;
  let token: string;
  let device: MqttClient;
  let id: number;
  let otherId: number;
  let seq = 0;
  const downlinks: protocol.AirSwitchDownlinkMessage[] = [];
  const get = (url: string, tenantId = 100) => call(ctx.app, token, { method: 'GET', url, tenantId });
  const post = (url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url, payload, tenantId });
  const send = (type: string, data: object, at = Date.now()) =>
    device.publishAsync(protocol.airSwitchUplinkTopic(SERIAL), JSON.stringify({ msgId: `m${++seq}`, seq, type, ts: at, data }), { qos: 1 });
  const reading = (circuit: number, energyKwh: number, extra: object = {}) => ({
    circuit, voltage: 229.5, current: 4.2, power: 900, powerFactor: 0.93, energyKwh, leakageMa: 3, temperatureC: 36, state: 'on', ...extra,
  });
  const detail = async () => dataOf(await get(`/iot/v1/airSwitch/detail?id=${id}`));
  const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());

  beforeAll(async () => {
    ctx = await createTestContext({}, 4);
    token = await signIn(ctx.app);
    gateway = await startGateway({
      database: ctx.database, log: silentLog, outbox: { sweepIntervalMs: 100 },
      config: { MQTT_PORT: 0, HOST: '127.0.0.1', MQTT_URL: undefined, TELEMETRY_TIME_ZONE: 'Asia/Shanghai' },
    });
    const added = dataOf(await post('/iot/v1/airSwitch/add', { serial: SERIAL, name: '一楼配电箱', model: 'ZG-AS4', location: 'A栋1层' }));
    id = added.id;
    otherId = dataOf(await post('/iot/v1/airSwitch/add', { serial: OTHER, name: 'other', model: 'ZG-AS2' }, 101)).id;
    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${gateway.port}`, {
      protocolVersion: 4, clientId: SERIAL, username: SERIAL, password: added.secret, clean: false, reconnectPeriod: 0,
    });
    device.on('message', (_topic, payload) => downlinks.push(JSON.parse(payload.toString('utf8'))));
    await device.subscribeAsync(protocol.airSwitchDownlinkTopic(SERIAL), { qos: 1 });
  });
  afterAll(async () => {
    await device?.endAsync();
    await gateway?.close();
    await ctx?.close();
  });

  it('registers switches with the circuits of their type, refusing a lock model and a serial taken in any data centre', async () => {
    expect((await post('/iot/v1/airSwitch/add', { serial: 'AS0000100002', name: 'x', model: 'ZG-NB100' })).statusCode).toBe(400);
    expect((await post('/iot/v1/airSwitch/add', { serial: OTHER, name: 'x', model: 'ZG-AS4' })).statusCode).toBe(409);
    expect((await post('/iot/v1/airSwitch/add', { serial: '861234500000001', name: 'x', model: 'ZG-AS4' })).statusCode).toBe(400);
    const listed = dataOf(await get('/iot/v1/airSwitch/list'));
    expect(listed.records.map((r: { serial: string; circuits: unknown[] }) => `${r.serial}:${r.circuits.length}`)).toEqual([`${SERIAL}:4`]);
  });

  it('refuses a wrong secret and a foreign client id', async () => {
    const url = `mqtt://127.0.0.1:${gateway.port}`;
    const wrong = await mqtt.connectAsync(url, { protocolVersion: 4, clientId: SERIAL, username: SERIAL, password: '0'.repeat(32), reconnectPeriod: 0 }).catch((e: { code?: number }) => e);
    expect((wrong as { code?: number }).code).toBe(4);
    const foreign = await mqtt.connectAsync(url, { protocolVersion: 4, clientId: 'x', username: SERIAL, password: '0'.repeat(32), reconnectPeriod: 0 }).catch((e: { code?: number }) => e);
    expect((foreign as { code?: number }).code).toBe(2);
  });

  it('stores telemetry as live readings; bad, oversized and duplicate uplinks are acknowledged and dropped', async () => {
    const before = gateway.stats().ingest;
    await send('telemetry', { circuits: [reading(1, 100), reading(2, 50, { power: 0, current: 0, state: 'off' })] });
    await send('telemetry', { circuits: [reading(1, 100, { voltage: 9999 })] }); // out of range: malformed
    await device.publishAsync(protocol.airSwitchUplinkTopic(SERIAL), Buffer.alloc(protocol.MAX_PAYLOAD_BYTES + 1, 32), { qos: 1 });
    await device.publishAsync(protocol.airSwitchUplinkTopic(SERIAL), JSON.stringify({ msgId: 'dup', seq: 1, type: 'telemetry', ts: Date.now(), data: { circuits: [reading(1, 999)] } }), { qos: 1 });
    const after = gateway.stats().ingest;
    expect(after.droppedMalformed - before.droppedMalformed).toBe(1);
    expect(after.droppedOversized - before.droppedOversized).toBe(1);
    expect(after.duplicates - before.duplicates).toBe(1);
    const [one, two] = (await detail()).circuits;
    expect(one).toMatchObject({ circuit: 1, state: 'on', voltage: 229.5, power: 900, energyKwh: 100, leakageMa: 3, temperatureC: 36 });
    expect(two).toMatchObject({ circuit: 2, state: 'off', power: 0 });
    expect((await detail()).online).toBe(true);
  });

  it('switches a circuit remotely: QUEUED -> SENT -> DELIVERED -> SUCCESSFUL, and the load drops to zero', async () => {
    const command = dataOf(await post('/iot/v1/airSwitch/switch', { id, circuit: 1, on: false }));
    expect(command).toMatchObject({ type: 'switch', circuit: 1, data: { circuit: 1, on: false }, createdBy: 'admin' });
    const down = await waitFor(() => downlinks.find((d) => d.msgId === command.msgId), Boolean);
    expect(down).toMatchObject({ type: 'switch', data: { circuit: 1, on: false } });
    await waitFor(async () => dataOf(await get(`/iot/v1/airSwitch/command?id=${command.id}`)).state, (state) => state === 'DELIVERED');
    await send('switchEvent', { circuit: 1, state: 'off', source: 'remote' });
    await send('commandResult', { commandMsgId: command.msgId, code: 0 });
    const done = dataOf(await get(`/iot/v1/airSwitch/command?id=${command.id}`));
    expect(done).toMatchObject({ state: 'SUCCESSFUL', resultCode: 0 });
    expect(done.sentAt && done.deliveredAt && done.completedAt).toBeTruthy();
    expect((await detail()).circuits[0]).toMatchObject({ state: 'off', power: 0 });
    const failed = dataOf(await post('/iot/v1/airSwitch/switch', { id, circuit: 1, on: true }));
    await waitFor(() => downlinks.find((d) => d.msgId === failed.msgId), Boolean);
    await send('commandResult', { commandMsgId: failed.msgId, code: 1, detail: 'handle locked' });
    expect(dataOf(await get(`/iot/v1/airSwitch/command?id=${failed.id}`))).toMatchObject({ state: 'FAILED', resultCode: 1, resultDetail: 'handle locked' });
    // A circuit the model does not have is refused with the model's limit (was a bare 404).
    const beyond = await post('/iot/v1/airSwitch/switch', { id, circuit: 9, on: true });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().errors[0]).toMatchObject({ field: 'body.circuit', message: { 'en-US': 'ZG-AS4 has only 4 circuits' } });
  });

  it('pushes thresholds as configuration: desired first, reported when the device confirms', async () => {
    const thresholds = { overVoltageV: 260, currentLimitA: 32, leakageWarnMa: 20, leakageTripMa: 30 };
    expect((await post('/iot/v1/airSwitch/thresholds', { id, circuit: 2, thresholds: { leakageWarnMa: 50, leakageTripMa: 30 } })).statusCode).toBe(400);
    const command = dataOf(await post('/iot/v1/airSwitch/thresholds', { id, circuit: 2, thresholds }));
    expect((await detail()).circuits[1]).toMatchObject({ desiredThresholds: thresholds, reportedThresholds: null, thresholdsInSync: false });
    const down = await waitFor(() => downlinks.find((d) => d.msgId === command.msgId), Boolean);
    expect(down?.data).toEqual({ circuit: 2, thresholds });
    await send('configReport', { circuit: 2, thresholds });
    await send('commandResult', { commandMsgId: command.msgId, code: 0 });
    expect((await detail()).circuits[1]).toMatchObject({ reportedThresholds: thresholds, thresholdsInSync: true });
  });

  it('raises a trip alarm into the alert lifecycle: active, counted, cleared when switched on, acknowledged', async () => {
    await send('switchEvent', { circuit: 3, state: 'tripped', reason: 'shortCircuit', source: 'protection' });
    await send('alarm', { circuit: 3, kind: 'leakageWarn', value: 25 });
    await send('alarm', { circuit: 3, kind: 'leakageWarn', value: 27 });
    let alerts = dataOf(await get(`/iot/v1/airSwitch/alerts?airSwitchId=${id}`)).records;
    expect(alerts.find((a: { kind: string }) => a.kind === 'trip')).toMatchObject({ circuit: 3, severity: 'critical', state: 'active', detail: 'shortCircuit' });
    expect(alerts.find((a: { kind: string }) => a.kind === 'leakageWarn')).toMatchObject({ severity: 'major', occurrences: 2, detail: '27' });
    expect((await detail()).circuits[2]).toMatchObject({ state: 'tripped', tripReason: 'shortCircuit' });
    await send('switchEvent', { circuit: 3, state: 'on', source: 'local' });
    await send('alarm', { circuit: 3, kind: 'leakageWarn', cleared: true });
    alerts = dataOf(await get(`/iot/v1/airSwitch/alerts?airSwitchId=${id}&state=cleared`)).records;
    expect(alerts.map((a: { kind: string }) => a.kind).sort()).toEqual(['leakageWarn', 'trip']);
    const ids = alerts.map((a: { id: number }) => a.id);
    expect(dataOf(await post('/iot/v1/airSwitch/alerts/acknowledge', { ids }))).toEqual({ acknowledged: 2 });
    expect(dataOf(await post('/iot/v1/airSwitch/alerts/acknowledge', { ids }))).toEqual({ acknowledged: 0 });
  });

  it('counts energy per day from the cumulative counter, across a counter reset, in any time zone', async () => {
    // Circuit 4: baseline 500, +1.5, then the meter is replaced (counter 0.5: 0.5 since), +0.5.
    for (const kwh of [500, 501.5, 0.5, 1]) await send('telemetry', { circuits: [reading(4, kwh, { power: 2000 })] });
    const day = today();
    const energy = dataOf(await get(`/iot/v1/airSwitch/energy?from=${day}&to=${day}&airSwitchId=${id}`));
    const circuit4 = energy.byCircuit.find((r: { circuit: number }) => r.circuit === 4);
    expect(circuit4).toMatchObject({ period: day, kwh: 2.5 });
    expect(energy.byPeriod).toEqual([expect.objectContaining({ period: day, trips: 1 })]);
    expect(energy.byPeriod[0].peakW).toBeGreaterThan(0);
    expect(energy.top[0]).toMatchObject({ circuit: 4, kwh: 2.5 });
    expect(energy.loadCurve.length).toBeGreaterThan(0);
    const utcDay = new Date().toISOString().slice(0, 10);
    const utc = dataOf(await get(`/iot/v1/airSwitch/energy?from=${utcDay}&to=${utcDay}&timeZone=UTC&granularity=month`));
    expect(utc.byPeriod.map((p: { kwh: number }) => p.kwh)).toEqual([energy.byPeriod[0].kwh]);
    expect(utc.byCircuit).toEqual([]); // per circuit only for one switch
    expect(utc.top[0]).toMatchObject({ circuit: 4, kwh: 2.5 }); // the edges of the range from the hourly rows
    // The whole data centre (its hourly rows; one switch here) and its top consumers over days from both rollups.
    const whole = dataOf(await get(`/iot/v1/airSwitch/energy?from=${day}&to=${day}`));
    expect(whole.byPeriod).toEqual([expect.objectContaining({ period: day, kwh: energy.byPeriod[0].kwh, trips: 1 })]);
    const shift = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const around = dataOf(await get(`/iot/v1/airSwitch/energy?from=${shift(-1)}&to=${shift(1)}&timeZone=UTC`));
    expect(around.top[0]).toMatchObject({ circuit: 4, kwh: 2.5 });
    expect(around.byPeriod.reduce((sum: number, p: { kwh: number }) => sum + p.kwh, 0)).toBeCloseTo(energy.byPeriod[0].kwh, 6);
    const file = await get(`/iot/v1/airSwitch/energy/export?from=${day}&to=${day}&chart=byPeriod&format=xlsx`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await get(`/iot/v1/airSwitch/energy?from=${day}&to=2020-01-01`)).statusCode).toBe(400);
  });

  it('keeps every route inside the data centre', async () => {
    const command = dataOf(await post('/iot/v1/airSwitch/switch', { id, circuit: 2, on: true }));
    expect(dataOf(await get('/iot/v1/airSwitch/list', 101)).records.map((r: { serial: string }) => r.serial)).toEqual([OTHER]);
    expect((await get(`/iot/v1/airSwitch/detail?id=${id}`, 101)).statusCode).toBe(404);
    expect((await get(`/iot/v1/airSwitch/detail?id=${otherId}`)).statusCode).toBe(404);
    expect((await post('/iot/v1/airSwitch/switch', { id, circuit: 1, on: true }, 101)).statusCode).toBe(404);
    expect((await post('/iot/v1/airSwitch/thresholds', { id, circuit: 1, thresholds: { currentLimitA: 10 } }, 101)).statusCode).toBe(404);
    expect((await get(`/iot/v1/airSwitch/command?id=${command.id}`, 101)).statusCode).toBe(404);
    expect(dataOf(await get(`/iot/v1/airSwitch/alerts?airSwitchId=${id}`, 101)).total).toBe(0);
    const mine = dataOf(await get(`/iot/v1/airSwitch/alerts?airSwitchId=${id}`)).records.map((a: { id: number }) => a.id);
    expect(dataOf(await post('/iot/v1/airSwitch/alerts/acknowledge', { ids: mine }, 101))).toEqual({ acknowledged: 0 });
    const day = today();
    const theirs = dataOf(await get(`/iot/v1/airSwitch/energy?from=${day}&to=${day}`, 101));
    expect(theirs).toMatchObject({ byPeriod: [], top: [], loadCurve: [] });
  });
});
