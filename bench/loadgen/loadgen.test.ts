/** The load generator's pure parts: heartbeat schedule and jitter, reconnect backoff, timer wheel, answers. */
import { protocol } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { answerDownlink, heartbeatMessage, readingsOf } from './messages.js';
import { firstHeartbeatAt, nextHeartbeatAt, reconnectDelayMs, TimerWheel } from './schedule.js';

const IMEI = '868000000000001';

describe('heartbeat schedule', () => {
  it('spreads the first heartbeat over one period and keeps the next within +- jitter', () => {
    expect(firstHeartbeatAt(1000, 300_000, () => 0)).toBe(1000);
    expect(firstHeartbeatAt(1000, 300_000, () => 0.999_999)).toBeLessThan(301_000);
    expect(nextHeartbeatAt(0, 300_000, 0.1, () => 0)).toBe(270_000);
    expect(nextHeartbeatAt(0, 300_000, 0.1, () => 0.5)).toBe(300_000);
    for (let i = 0; i < 1000; i++) {
      const at = nextHeartbeatAt(0, 300_000, 0.1, Math.random);
      expect(at).toBeGreaterThanOrEqual(270_000);
      expect(at).toBeLessThanOrEqual(330_000);
    }
  });

  it('reconnects first within the spread, then with capped exponential full jitter', () => {
    const backoff = { spreadMs: 45_000, baseMs: 2000, capMs: 15_000 };
    expect(reconnectDelayMs(0, backoff, () => 0.999)).toBeLessThan(45_000);
    expect(reconnectDelayMs(1, backoff, () => 0.999)).toBeLessThan(2000);
    expect(reconnectDelayMs(3, backoff, () => 0.999)).toBeLessThan(8000);
    expect(reconnectDelayMs(3, backoff, () => 0.999)).toBeGreaterThan(7900);
    expect(reconnectDelayMs(40, backoff, () => 0.999)).toBeLessThan(15_000);
  });
});

describe('TimerWheel', () => {
  it('hands out items once their slot has ended, never early, oldest first', () => {
    const wheel = new TimerWheel<string>(50, 1000);
    wheel.add(1120, 'b');
    wheel.add(1010, 'a');
    wheel.add(900, 'past');
    expect(wheel.take(1049)).toEqual([]);
    expect(wheel.take(1050)).toEqual(['a', 'past']);
    expect(wheel.take(1149)).toEqual([]);
    expect(wheel.take(1150)).toEqual(['b']);
    expect(wheel.size).toBe(0);
  });
});

describe('messages', () => {
  it('builds heartbeats the contract accepts', () => {
    for (const index of [0, 17, 59, 99_999]) {
      const message = heartbeatMessage(IMEI, index + 1, 1_700_000_000_000, readingsOf(index, 300));
      expect(protocol.uplinkMessage.safeParse(message).success).toBe(true);
    }
  });

  it('answers a downlink as the simulator does: OK with its detail, a configReport after configPush, INVALID for bad data', () => {
    const downlink = (type: string, data: unknown) => Buffer.from(JSON.stringify({ msgId: 'cmd-1', type, ts: 1, data }));
    const [sync] = answerDownlink(IMEI, downlink('clockSync', { time: 5 }), 8, 1000);
    expect(sync).toEqual({ msgId: `${IMEI}:8`, seq: 8, ts: 1000, type: 'commandResult', data: { commandMsgId: 'cmd-1', code: 0, detail: 'clock set' } });
    const push = answerDownlink(IMEI, downlink('configPush', { config: { volume: 3 } }), 8, 1000);
    expect(push.map((m) => [m.type, m.seq])).toEqual([['commandResult', 8], ['configReport', 9]]);
    for (const message of push) expect(protocol.uplinkMessage.safeParse(message).success).toBe(true);
    const [bad] = answerDownlink(IMEI, downlink('clockSync', { time: -1 }), 8, 1000);
    expect(bad?.data).toMatchObject({ code: protocol.RESULT_CODES.INVALID, detail: 'invalid data' });
    expect(answerDownlink(IMEI, Buffer.from('not json'), 8, 1000)).toEqual([]);
  });
});
