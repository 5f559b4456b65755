/**
 * Same-transaction consequences between modules, listed where the app is built (ARCHITECTURE.md
 * "Events"): a consequence that must commit or roll back with the change is a direct service call
 * named here, passed to the code that makes the change; everything else reacts to domain events
 * (docs/events.md) in its own module. Nothing here is registered or changed at run time.
 */
import type { NewAccountFollower } from './modules/account/accounts.js';
import { nextSilentLockDueMs, raiseSilentLocks } from './modules/analysis/derived.js';
import type { CommandFollowers } from './modules/command/transitions.js';
import { settleScheduleCommands } from './modules/accessSchedule/sync.js';
import { settleFinishedCommands } from './modules/credential/sync.js';
import { settleHolidayCommands } from './modules/holidayCalendar/sync.js';
import type { PresenceFollower } from './modules/lockDevice/presence.js';
import { bindNewAccount } from './modules/role/bindings.js';
import { enqueueFinishedCommands, enqueuePushEvents, presenceEvent } from './modules/subscription/outbox.js';

/**
 * What follows a command's final state in its transaction (lifecycle.ts, outbox.ts cancel): the
 * credential sync states of the rows it carried, those of the access and holiday schedules
 *, then the open platform's commandResult / credentialSync pushes.
 */
export const commandFollowers: CommandFollowers = [settleFinishedCommands, settleScheduleCommands, settleHolidayCommands, enqueueFinishedCommands];

/**
 * What follows each presence sweep in its transaction (modules/lockDevice/presence.ts): the open
 * platform's offline presence pushes, then the silentLock alarms of locks offline past
 * their tenant's silentIntervals, whose due time the sweep also waits for.
 */
export const presenceFollowers: readonly PresenceFollower[] = [
  {
    afterSweep: async (tx, offline) => {
      const now = Date.now();
      await enqueuePushEvents(tx, offline.map((lock) => presenceEvent(lock.tenantId, lock.id, lock.imei, 'offline', now, null, lock.lastHeartbeatAt)));
    },
  },
  { afterSweep: async (tx) => { await raiseSilentLocks(tx); }, nextDueMs: nextSilentLockDueMs },
];

/**
 * What follows an account's creation in its transaction (modules/account/accounts.ts addAccount): the
 * roles it was created with, bound under the no-escalation rules (modules/role/bindings.ts). Roles
 * build on accounts, so accounts reach them only through this list.
 */
export const newAccountFollowers: readonly NewAccountFollower[] = [(tx, ctx, accountId, body) => bindNewAccount(tx, ctx, accountId, body.roleIds ?? [])];
