/**
 * What every command transition raises (modules/command/lifecycle.ts, outbox.ts): `command.state`
 * (docs/events.md) for each row, and for final states the followers the app lists where it is built
 * (wiring.ts: credential sync, open-platform pushes), in the transaction that writes the state.
 */
import type { DomainEvent, protocol } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { emitAll } from '../../events/emit.js';

/** A command that just reached a final state (protocol.FINAL_COMMAND_STATES). */
export interface FinishedCommand {
  id: number;
  tenantId: number;
  lockId: number;
  type: protocol.DownlinkType;
  state: protocol.CommandState;
  resultCode: number | null;
  /** Slot the lock assigned (commandResult.slot), or null. */
  resultSlot: number | null;
}
/**
 * A "command finished" follower: runs in the same transaction that writes the final state
 * (commandResult handler, sweeper TIMEOUT/EXPIRED, failCommand, operator cancel), on the owner
 * connection or the tenant's transaction. The followers are listed where the app is built (wiring.ts).
 */
export type CommandFinishedHook = (tx: Executor, finished: FinishedCommand[]) => Promise<void>;
/** The followers of final states, in order. */
export type CommandFollowers = readonly CommandFinishedHook[];

/** `command.state` of rows returned as `id, tenant_id, lock_id, state`. */
function stateEvents(rows: readonly Record<string, unknown>[]): DomainEvent[] {
  return rows.map((row) => ({
    name: 'command.state',
    payload: { tenantId: Number(row.tenant_id), deviceKind: 'lock', deviceId: Number(row.lock_id), commandId: Number(row.id), state: row.state as protocol.CommandState },
  }));
}

/** Emits `command.state` for rows returned as `id, tenant_id, lock_id, state` (in `tx`'s transaction). */
export function commandStatesChanged(tx: Executor, rows: readonly Record<string, unknown>[]): Promise<void> {
  return emitAll(tx, stateEvents(rows));
}

/**
 * Emits `command.state` and runs `followers` for rows returned as `id, tenant_id, lock_id, type,
 * state, result_code, result_slot` (final states).
 */
export async function commandsFinished(tx: Executor, rows: Record<string, unknown>[], followers: CommandFollowers): Promise<void> {
  if (rows.length === 0) return;
  await commandStatesChanged(tx, rows);
  const finished = rows.map((row) => ({
    id: Number(row.id), tenantId: Number(row.tenant_id), lockId: Number(row.lock_id), type: row.type as protocol.DownlinkType,
    state: row.state as protocol.CommandState, resultCode: row.result_code == null ? null : Number(row.result_code),
    resultSlot: row.result_slot == null ? null : Number(row.result_slot),
  }));
  for (const follower of followers) await follower(tx, finished);
}
