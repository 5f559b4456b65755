import { protocol } from '@iot/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResult } from './auth.js';
import { type EmbeddedBroker, startEmbeddedBroker } from './broker.js';
import type { LockSession } from './device-kinds.js';
import type { Ingest } from './ingest.js';
import { silentLog } from './log.js';

// The broker alone, with stub authentication and ingest (no database): durability semantics.
const IMEI = '861234567890123';
const device: LockSession = { kind: 'lock', lockId: 1, tenantId: 100, imei: IMEI };
let failNext = 0;
const stored: string[] = [];
const ingest: Ingest = {
  async ingest(_device, payload) {
    await new Promise((resolve) => setTimeout(resolve, 30)); // a slow commit
    if (failNext > 0) {
      failNext--;
      throw new Error('database unavailable');
    }
    stored.push(payload.toString());
    return 'stored';
  },
  stats: () => { throw new Error('unused'); },
  close: async () => {},
};
let broker: EmbeddedBroker;

beforeAll(async () => {
  broker = await startEmbeddedBroker({
    host: '127.0.0.1', port: 0, ingest, log: silentLog,
    authenticate: async (clientId): Promise<AuthResult> => (clientId === IMEI ? { ok: true, device } : { ok: false, returnCode: 4, reason: 'no' }),
  });
});
afterAll(() => broker.close());

describe('embedded broker', () => {
  it('sends PUBACK only after the ingest resolved', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { protocolVersion: 4, clientId: IMEI, username: IMEI, password: 's' });
    const started = Date.now();
    await client.publishAsync(protocol.uplinkTopic(IMEI), 'one', { qos: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(stored).toContain('one');
    await client.endAsync();
  });

  it('leaves an uplink unacknowledged when it cannot be stored; the device resends it after reconnecting', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      protocolVersion: 4, clientId: IMEI, username: IMEI, password: 's', clean: false, reconnectPeriod: 50,
    });
    let closes = 0;
    client.on('close', () => closes++);
    failNext = 1;
    await client.publishAsync(protocol.uplinkTopic(IMEI), 'two', { qos: 1 }); // resolves on the PUBACK of the resend
    expect(closes).toBeGreaterThanOrEqual(1);
    expect(stored.filter((s) => s === 'two')).toHaveLength(1);
    await client.endAsync();
  });

  it('close() disconnects clients and releases the port', async () => {
    const other = await startEmbeddedBroker({
      host: '127.0.0.1', port: 0, ingest, log: silentLog, authenticate: async () => ({ ok: true, device }),
    });
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${other.port}`, { protocolVersion: 4, clientId: IMEI, username: IMEI, password: 's', reconnectPeriod: 0 });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await other.close();
    await closed;
    await expect(mqtt.connectAsync(`mqtt://127.0.0.1:${other.port}`, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 1000 })).rejects.toThrow();
    await client.endAsync(true);
  });
});
