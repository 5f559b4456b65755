import { describe, expect, it } from 'vitest';
import { applyDownlink, RESULT } from './commands.js';
import { LockState } from './lock-state.js';

const unlock = (state: LockState, msgId: string, now: number) => applyDownlink(state, { msgId, type: 'remoteUnlock', data: { operator: 'alice', reason: '快递 parcel' } }, now);

describe('simulated lock: remote unlock', () => {
  it('opens and reports an open record with source remote and the operator', () => {
    const state = new LockState('ZG-NB300', 60);
    const answer = unlock(state, 'r1', 1_800_000_000_000);
    expect(answer.result).toMatchObject({ commandMsgId: 'r1', code: RESULT.OK });
    expect(answer.openRecord).toEqual({ method: 'remote', success: true, lockTime: 1_800_000_000_000, operator: 'alice' });
  });

  it('refuses in a holiday operating mode without remote operation, and says so in the record', () => {
    const state = new LockState('ZG-NB300', 60);
    const now = 1_800_000_000_000;
    expect(applyDownlink(state, { msgId: 'h', type: 'holidaySchedule', data: { action: 'set', index: 0, localStartTime: now - 1000, localEndTime: now + 1000, operatingMode: 'noRemoteLockUnlock' } }, now).result.code).toBe(RESULT.OK);
    const answer = unlock(state, 'r2', now);
    expect(answer.result).toMatchObject({ code: RESULT.ACCESS_REFUSED, detail: 'operatingMode' });
    expect(answer.openRecord).toMatchObject({ method: 'remote', success: false, refusal: 'operatingMode', operator: 'alice' });
  });
});
