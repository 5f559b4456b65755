/**
 * A remote unlock (Matter UnlockDoor with OperationSource remote): the lock opens unless the
 * holiday schedule in force puts it in operating mode `noRemoteLockUnlock` or `privacy` (Matter
 * OperatingModeEnum: no remote operation / no external access), and reports an open record with
 * method `remote` and the operator the downlink names. Times are the lock's clock, ms.
 */
import { holidayState, type protocol } from '@iot/contract';
import type { LockState } from './lock-state.js';

/** Operating modes in which the lock refuses remote unlocks. */
const NO_REMOTE = new Set(['noRemoteLockUnlock', 'privacy']);

/** The lock's decision: the open record to report, and the refusal (undefined when it opened). */
export function remoteUnlock(state: LockState, data: { operator: string; reason: string }, platformNow: number): { record: protocol.OpenRecordData; refused: boolean } {
  const lockTime = state.now(platformNow);
  const { operatingMode } = holidayState([...state.holidays.values()], lockTime);
  const refused = NO_REMOTE.has(operatingMode);
  return {
    refused,
    record: { method: 'remote', success: !refused, lockTime, operator: data.operator, ...(refused ? { refusal: 'operatingMode' as const } : {}) },
  };
}
