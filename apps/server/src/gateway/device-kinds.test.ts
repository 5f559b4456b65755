import { DEVICE_KINDS, type DeviceKind } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../crypto/device-secret.js';
import { authenticateDevice, CONNACK, type DeviceLookups, mayPublish, maySubscribe } from './auth.js';
import { GATEWAY_KINDS, parseDeviceTopic } from './device-kinds.js';

// One device name per kind: a new kind in device-kinds.ts must add its own here (the type says so).
const NAMES = { lock: '861234567890123', airSwitch: 'AS00000001' } satisfies Record<DeviceKind, string>;
const SECRET = 'device secret';
const lookups: DeviceLookups = Object.fromEntries(GATEWAY_KINDS.map((kind, index) => [kind.kind,
  async (key: string) => (key === NAMES[kind.kind] ? { key, id: 10 + index, tenantId: 100, hash: hashDeviceSecret(SECRET), enabled: true } : undefined)]));
const connect = (name: string, password = SECRET, clientId: string = name, using = lookups) =>
  authenticateDevice(using, clientId, name, Buffer.from(password));

describe.each(GATEWAY_KINDS.map((kind) => [kind.kind, kind] as const))('device kind %s', (name, kind) => {
  const key = NAMES[name];

  it('parses its own topics back to itself, and no other kind claims them', () => {
    expect(parseDeviceTopic(kind.topics.uplink(key))).toEqual({ kind, id: key, direction: 'up' });
    expect(parseDeviceTopic(kind.topics.downlink(key))).toEqual({ kind, id: key, direction: 'down' });
    for (const other of GATEWAY_KINDS.filter((candidate) => candidate !== kind)) expect(other.topics.parse(kind.topics.uplink(key))).toBeUndefined();
  });

  it('is the only kind whose name schema accepts its names', () => {
    expect(GATEWAY_KINDS.filter((candidate) => candidate.identity.schema.safeParse(key).success)).toEqual([kind]);
  });

  it('authenticates its device into a session of its kind, allowed its own topics only', async () => {
    const result = await connect(key);
    if (!result.ok) throw new Error(result.reason);
    expect(result.device.kind).toBe(name);
    expect(kind.keyOf(result.device)).toBe(key);
    expect(kind.deviceIdOf(result.device)).toBe(10 + GATEWAY_KINDS.indexOf(kind));
    expect(mayPublish(result.device, kind.topics.uplink(key))).toBe(true);
    expect(maySubscribe(result.device, kind.topics.downlink(key))).toBe(true);
    expect(mayPublish(result.device, kind.topics.downlink(key))).toBe(false);
    for (const other of Object.values(NAMES).filter((n) => n !== key)) {
      for (const topicKind of GATEWAY_KINDS) {
        expect(mayPublish(result.device, topicKind.topics.uplink(other))).toBe(false);
        expect(maySubscribe(result.device, topicKind.topics.downlink(other))).toBe(false);
      }
    }
  });

  it('refuses a wrong secret, an unknown name, a foreign client id and a disabled device with the CONNACK codes', async () => {
    expect(await connect(key, 'wrong')).toMatchObject({ ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD });
    const unknown = `${key.slice(0, -1)}${key.endsWith('9') ? '8' : '9'}`;
    expect(await connect(unknown)).toMatchObject({ ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD });
    expect(await connect(key, SECRET, `${key}x`)).toMatchObject({ ok: false, returnCode: CONNACK.IDENTIFIER_REJECTED });
    const disabled: DeviceLookups = { [name]: async () => ({ key, id: 1, tenantId: 100, hash: hashDeviceSecret(SECRET), enabled: false }) };
    expect(await connect(key, SECRET, key, disabled)).toMatchObject({ ok: false, returnCode: CONNACK.NOT_AUTHORIZED });
  });

  it('is not served by a gateway without its lookup', async () => {
    const without = { ...lookups, [name]: undefined };
    expect(await connect(key, SECRET, key, without)).toMatchObject({ ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD, reason: 'malformed credentials' });
  });
});

it('serves every device kind of the contract, once, in its order', () => {
  expect(GATEWAY_KINDS.map((kind) => kind.kind)).toEqual([...DEVICE_KINDS]);
});

it('refuses anonymous clients and names of no kind', async () => {
  expect(await authenticateDevice(lookups, 'x', undefined, undefined)).toMatchObject({ ok: false, returnCode: CONNACK.NOT_AUTHORIZED });
  expect(await connect('not-a-device')).toMatchObject({ ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD });
  expect(parseDeviceTopic('zg/123/up')).toBeUndefined();
});
