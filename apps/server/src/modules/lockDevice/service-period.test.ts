/** What a lock whose service has ended refuses and keeps (docs/service-periods.md). */
import { describe, expect, it } from 'vitest';
import { refusedAfterServiceEnd } from './service-period.js';

describe('refusedAfterServiceEnd', () => {
  it('refuses granting access and remote configuration', () => {
    expect(refusedAfterServiceEnd('userOperation', { action: 'add' })).toBe(true);
    expect(refusedAfterServiceEnd('userOperation', { action: 'modify' })).toBe(true);
    expect(refusedAfterServiceEnd('userOperation', { action: 'unfreeze' })).toBe(true);
    expect(refusedAfterServiceEnd('foreverPassword', { action: 'add' })).toBe(true);
    expect(refusedAfterServiceEnd('tempPassword', { action: 'add' })).toBe(true);
    expect(refusedAfterServiceEnd('cardOperate', { action: 'add' })).toBe(true);
    expect(refusedAfterServiceEnd('addFingerPrint', { action: 'add' })).toBe(true);
    expect(refusedAfterServiceEnd('configPush', { config: {} })).toBe(true);
    expect(refusedAfterServiceEnd('remoteUnlock', { operator: 'a', reason: 'b' })).toBe(true);
  });
  it('never blocks safety: deleting, freezing, clock sync, registering and unregistering', () => {
    expect(refusedAfterServiceEnd('userOperation', { action: 'delete' })).toBe(false);
    expect(refusedAfterServiceEnd('userOperation', { action: 'freeze' })).toBe(false);
    expect(refusedAfterServiceEnd('foreverPassword', { action: 'delete' })).toBe(false);
    expect(refusedAfterServiceEnd('tempPassword', { action: 'delete' })).toBe(false);
    expect(refusedAfterServiceEnd('cardOperate', { action: 'delete' })).toBe(false);
    expect(refusedAfterServiceEnd('addFingerPrint', { action: 'delete' })).toBe(false);
    expect(refusedAfterServiceEnd('clockSync', { time: 1 })).toBe(false);
    expect(refusedAfterServiceEnd('registerDevice', { vendor: 'ZIGUANG' })).toBe(false);
    expect(refusedAfterServiceEnd('deleteDevice', {})).toBe(false);
  });
});
