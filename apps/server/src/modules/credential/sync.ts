/**
 * Sync state driven by the command (TTLock's model): the "command finished" hook of
 * modules/command/lifecycle.ts (wired in app.ts), run in the transaction that writes the command's final state
 * (commandResult handler, sweeper TIMEOUT/EXPIRED, failCommand, cancel). Only rows whose last command
 * is the finished one change (a newer operation supersedes an older answer).
 *
 *   SUCCESSFUL: adding/modifying -> normal (a fingerprint takes the slot the lock answered);
 *               deleting -> row removed (a deleted user takes its credentials with it, as on the lock);
 *               deleteDevice -> every user and credential of the lock removed.
 *   FAILED | TIMEOUT | EXPIRED | CANCELED: -> add_failed / modify_failed / delete_failed.
 *
 * Every row that changes emits `credential.sync` (docs/events.md; `deleted` for a removed row) with
 * the transaction, so a console shows 添加中 -> 正常 as it happens.
 * Plain SQL that cannot fail on data: an error here would roll back the lock's answer too.
 */
import type { EventMap } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { emitAll } from '../../events/emit.js';
import type { FinishedCommand } from '../command/transitions.js';

type Subject = EventMap['credential.sync']['subject'];
const RETURNING = sql.raw('returning id, tenant_id, lock_id, sync_state');

/** Runs `statement` (ending in RETURNING) and emits `credential.sync` for its rows (`deleted`: removed rows). */
async function changed(tx: Executor, subject: Subject, statement: SQL, deleted = false): Promise<void> {
  const rows = rowsOf<{ id: number | string; tenant_id: number; lock_id: number; sync_state: EventMap['credential.sync']['state'] }>(await tx.execute(statement));
  await emitAll(tx, rows.map((row) => ({
    name: 'credential.sync', payload: { tenantId: row.tenant_id, lockId: row.lock_id, subject, rowId: Number(row.id), state: deleted ? 'deleted' : row.sync_state },
  })));
}

const USER_TYPES = new Set(['userOperation']);
const CREDENTIAL_TYPES = new Set(['foreverPassword', 'tempPassword', 'cardOperate', 'addFingerPrint', 'credentialOwner']);
/** Commands that may clear an unmanaged slot (inventory.ts). */
const CLEARING_TYPES = new Set(['userOperation', 'foreverPassword', 'cardOperate', 'addFingerPrint']);

/** pending action -> failed state, as SQL. */
const failedState = sql.raw(`case pending_action when 'add' then 'add_failed' when 'delete' then 'delete_failed' else 'modify_failed' end`);

async function settleUsers(tx: Executor, command: FinishedCommand): Promise<void> {
  if (command.state !== 'SUCCESSFUL') {
    await changed(tx, 'user', sql`update lock_users set sync_state = ${failedState}, updated_at = now() where last_command_id = ${command.id} ${RETURNING}`);
    return;
  }
  await changed(tx, 'credential', sql`delete from credentials where lock_user_id in
    (select id from lock_users where last_command_id = ${command.id} and pending_action = 'delete') ${RETURNING}`, true);
  await changed(tx, 'user', sql`delete from lock_users where last_command_id = ${command.id} and pending_action = 'delete' ${RETURNING}`, true);
  await changed(tx, 'user', sql`update lock_users set sync_state = 'normal', updated_at = now() where last_command_id = ${command.id} ${RETURNING}`);
}

async function settleCredentials(tx: Executor, command: FinishedCommand): Promise<void> {
  if (command.state !== 'SUCCESSFUL') {
    await changed(tx, 'credential', sql`update credentials set sync_state = ${failedState}, updated_at = now() where last_command_id = ${command.id} ${RETURNING}`);
    return;
  }
  await changed(tx, 'credential', sql`delete from credentials where last_command_id = ${command.id} and pending_action = 'delete' ${RETURNING}`, true);
  // A fingerprint takes the slot the lock assigned, unless another row claims it (then it stays unknown).
  await changed(tx, 'credential', sql`update credentials c set sync_state = 'normal', updated_at = now(),
      slot = case when c.slot is null and c.kind = 'fingerprint' and ${command.resultSlot}::int is not null
        and not exists (select 1 from credentials o where o.lock_id = c.lock_id and o.slot_table = c.slot_table and o.slot = ${command.resultSlot}::int)
        then ${command.resultSlot}::int else c.slot end
    where c.last_command_id = ${command.id} ${RETURNING}`);
}

/** The hook: settles the rows each finished command carried. */
export async function settleFinishedCommands(tx: Executor, finished: FinishedCommand[]): Promise<void> {
  for (const command of finished) {
    if (CLEARING_TYPES.has(command.type)) await settleSyncRows(tx, 'unmanaged_slots', command);
    if (USER_TYPES.has(command.type)) await settleUsers(tx, command);
    else if (CREDENTIAL_TYPES.has(command.type)) await settleCredentials(tx, command);
    else if (command.type === 'deleteDevice' && command.state === 'SUCCESSFUL') {
      await changed(tx, 'credential', sql`delete from credentials where lock_id = ${command.lockId} ${RETURNING}`, true);
      await changed(tx, 'user', sql`delete from lock_users where lock_id = ${command.lockId} ${RETURNING}`, true);
    }
  }
}

/**
 * The same settlement for another module's rows that follow their last command (schedules,
 * holiday schedules): `table` must have sync_state, pending_action and last_command_id. SUCCESSFUL:
 * pending deletes removed, others normal; any other final state: *_failed.
 */
export async function settleSyncRows(tx: Executor, table: 'access_schedules' | 'lock_holiday_schedules' | 'unmanaged_slots', command: FinishedCommand): Promise<void> {
  const name = sql.raw(table);
  if (command.state !== 'SUCCESSFUL') {
    await tx.execute(sql`update ${name} set sync_state = ${failedState}, updated_at = now() where last_command_id = ${command.id}`);
    return;
  }
  await tx.execute(sql`delete from ${name} where last_command_id = ${command.id} and pending_action = 'delete'`);
  await tx.execute(sql`update ${name} set sync_state = 'normal', updated_at = now() where last_command_id = ${command.id}`);
}
