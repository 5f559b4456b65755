/**
 * Sync state of the holiday schedules on locks driven by their commands, like credentials
 * (credential/sync.ts): the "command finished" hook, wired in wiring.ts.
 */
import type { Executor } from '../../db/client.js';
import type { FinishedCommand } from '../command/transitions.js';
import { settleSyncRows } from '../credential/sync.js';

/** The hook: settles the holiday schedule rows each finished holidaySchedule command carried. */
export async function settleHolidayCommands(tx: Executor, finished: FinishedCommand[]): Promise<void> {
  for (const command of finished) if (command.type === 'holidaySchedule') await settleSyncRows(tx, 'lock_holiday_schedules', command);
}
