/**
 * Sync state of schedules driven by their commands, like credentials (credential/sync.ts):
 * the "command finished" hook, wired in wiring.ts, in the transaction that writes the final state.
 */
import type { Executor } from '../../db/client.js';
import type { FinishedCommand } from '../command/transitions.js';
import { settleSyncRows } from '../credential/sync.js';

const TYPES = new Set(['weekDaySchedule', 'yearDaySchedule']);

/** The hook: settles the schedule rows each finished schedule command carried. */
export async function settleScheduleCommands(tx: Executor, finished: FinishedCommand[]): Promise<void> {
  for (const command of finished) if (TYPES.has(command.type)) await settleSyncRows(tx, 'access_schedules', command);
}
