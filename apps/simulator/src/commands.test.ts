import { describe, expect, it } from 'vitest';
import { applyDownlink, ENROL_DELAY_MS, RESULT, reverseBytes } from './commands.js';
import { LockState } from './lock-state.js';
import { SimulatedLock } from './lock.js';

const down = (type: string, data: unknown, msgId = `m-${Math.random()}`) => ({ msgId, type, data });

describe('simulated lock: downlinks', () => {
  it('applies a config push and reports the whole configuration', () => {
    const state = new LockState('ZG-NB200', 30);
    const answer = applyDownlink(state, down('configPush', { config: { volume: 10 } }, 'c1'));
    expect(answer.result).toEqual({ commandMsgId: 'c1', code: RESULT.OK, detail: 'config applied' });
    expect(answer.configReport).toEqual({ volume: 10, autoLockS: 5, wrongAttemptLimit: 5, language: 'zh-CN', heartbeatIntervalS: 30 });
  });

  it('keeps credential tables with per-model capacity and answers failures with codes', () => {
    const state = new LockState('ZG-NB100', 30);
    expect(applyDownlink(state, down('userOperation', { action: 'add', userSlot: 2, name: 'A' })).result.code).toBe(RESULT.OK);
    expect(applyDownlink(state, down('userOperation', { action: 'add', userSlot: 2 })).result.code).toBe(RESULT.SLOT_OCCUPIED);
    expect(applyDownlink(state, down('userOperation', { action: 'add', userSlot: 50 })).result.code).toBe(RESULT.SLOT_OUT_OF_RANGE);
    expect(applyDownlink(state, down('foreverPassword', { action: 'add', slot: 0, userSlot: 2, password: '123456' })).result.code).toBe(RESULT.OK);
    expect(state.passwords.get(0)).toMatchObject({ digits: '123456', userSlot: 2, temporary: false });
    expect(applyDownlink(state, down('tempPassword', { action: 'add', slot: 1 })).result.code).toBe(RESULT.INVALID);
    expect(applyDownlink(state, down('foreverPassword', { action: 'delete', slot: 9 })).result.code).toBe(RESULT.NOT_FOUND);
    const card = applyDownlink(state, down('cardOperate', { action: 'add', cardNumber: 'A1B2C3D4', reversed: true }));
    expect(card.result).toMatchObject({ code: RESULT.OK, slot: 0 });
    expect(state.cards.get(0)?.cardNumber).toBe(reverseBytes('A1B2C3D4'));
    const finger = applyDownlink(state, down('addFingerPrint', { userSlot: 2 }));
    expect(finger).toMatchObject({ delayMs: ENROL_DELAY_MS, result: { code: RESULT.OK, slot: 0 } });
    for (let i = 1; i < state.capacity.fingerprints; i++) applyDownlink(state, down('addFingerPrint', { userSlot: 2 }));
    expect(applyDownlink(state, down('addFingerPrint', { userSlot: 2 })).result.code).toBe(RESULT.TABLE_FULL);
    // Deleting a user deletes its credentials.
    applyDownlink(state, down('userOperation', { action: 'delete', userSlot: 2 }));
    expect([state.passwords.size, state.fingerprints.size]).toEqual([0, 0]);
    expect(applyDownlink(state, down('reboot', {})).result.code).toBe(RESULT.INVALID);
  });

  it('sets its clock and answers a redelivered command again without applying it twice; seq stays increasing', () => {
    const lock = new SimulatedLock({ imei: '861234500000001', secret: 's', tenantId: 100, model: 'ZG-NB200', firmwareVersion: 'V1', heartbeatIntervalS: 30, lastSeq: 5, battery: 80 });
    lock.state.clockOffsetMs = 90_000;
    const payload = Buffer.from(JSON.stringify({ msgId: 'sync-1', type: 'clockSync', ts: 1, data: { time: Date.now() } }));
    const [first] = lock.handleDownlink(payload);
    expect(first?.result.code).toBe(0);
    expect(Math.abs(lock.state.clockOffsetMs)).toBeLessThan(1000);
    lock.state.clockOffsetMs = 5;
    expect(lock.handleDownlink(payload)[0]?.result).toEqual(first?.result);
    expect(lock.state.clockOffsetMs).toBe(5);
    expect(lock.handleDownlink(Buffer.from('not json'))).toEqual([]);
    const seqs = [lock.nextHeartbeat().seq, lock.nextUplink({ type: 'commandResult', data: { commandMsgId: 'x', code: 0 } }).seq, lock.nextHeartbeat().seq];
    expect(seqs).toEqual([6, 7, 8]);
  });
});
