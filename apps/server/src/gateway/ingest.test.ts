import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { createIngest, parseUplink } from './ingest.js';
import { silentLog } from './log.js';

const valid = { msgId: 'm1', seq: 1, type: 'heartbeat', ts: 1_700_000_000_000, data: { battery: 50, rssi: -90, snr: 3.5, firmwareVersion: '1.0', intervalS: 30 } };
const payload = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('parseUplink', () => {
  it('accepts a valid heartbeat', () => {
    expect(parseUplink(payload(valid))).toMatchObject({ ok: true, message: { seq: 1, type: 'heartbeat' } });
  });

  it.each([
    ['not JSON', Buffer.from('{')],
    ['unknown type', payload({ ...valid, type: 'selfie' })],
    ['battery out of range', payload({ ...valid, data: { ...valid.data, battery: 101 } })],
    ['seq beyond int4', payload({ ...valid, seq: 2 ** 31 })],
    ['ts beyond year 9999', payload({ ...valid, ts: 2 ** 53 - 1 })],
    ['NUL in text', payload({ ...valid, data: { ...valid.data, firmwareVersion: 'a\u0000b' } })],
  ])('refuses %s', (_name, buffer) => {
    expect(parseUplink(buffer).ok).toBe(false);
  });
});

describe('createIngest', () => {
  it('rejects (so nothing is acknowledged) and counts when the database fails', async () => {
    const database = { transaction: () => Promise.reject(new Error('db down')) } as unknown as Database;
    const ingest = createIngest({ database, log: silentLog, maxDelayMs: 1 });
    await expect(ingest.ingest({ kind: 'lock', lockId: 1, tenantId: 100, imei: '861234567890123' }, payload(valid))).rejects.toThrow('db down');
    expect(ingest.stats()).toMatchObject({ received: 1, failed: 1, committed: 0 });
    await ingest.close();
  });
});
