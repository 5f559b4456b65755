/**
 * Air switch commands (rows of `commands` with device_kind airSwitch, db/schema-command.ts): remote
 * on/off and threshold pushes, with the command states of the lock outbox (protocol COMMAND_STATES) but
 * the policy of an always-online device: QUEUED -> SENT at once (gateway/outbox/air-switch-dispatcher.ts claims with FOR UPDATE SKIP LOCKED,
 * several instances may dispatch) -> DELIVERED (PUBACK seen by the embedded broker) -> SUCCESSFUL |
 * FAILED (commandResult); TIMEOUT after protocol.AIR_SWITCH_RESPONSE_TIMEOUT_MS without an answer
 * (never resent on its own: it switches power; max_attempts 1), EXPIRED when it could not be sent
 * by its expires_at, protocol.AIR_SWITCH_COMMAND_TTL_MS after it was queued (the device was not connected).
 */
import { randomUUID } from 'node:crypto';
import { type AirSwitchCommandRecord, protocol } from '@iot/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { commands } from '../../db/schema.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { emit, emitAll } from '../../events/emit.js';

type Row = typeof commands.$inferSelect;
const AIR_SWITCH = eq(commands.deviceKind, 'airSwitch');
/** The columns every transition returns for its `command.state` event. */
const STATE_COLUMNS = sql.raw('c.id, c.tenant_id, c.air_switch_id, c.state');

/** Emits `command.state` (docs/events.md) for rows returned with STATE_COLUMNS. */
function statesChanged(db: Executor, rows: readonly Record<string, unknown>[]): Promise<void> {
  return emitAll(db, rows.map((row) => ({
    name: 'command.state',
    payload: { tenantId: Number(row.tenant_id), deviceKind: 'airSwitch', deviceId: Number(row.air_switch_id), commandId: Number(row.id), state: row.state as protocol.CommandState },
  })));
}

/** The API's view of a command row. */
export function commandRecord(row: Row): AirSwitchCommandRecord {
  return {
    // device_kind airSwitch: air_switch_id and circuit are set (commands_one_device).
    id: row.id, msgId: row.msgId, airSwitchId: row.airSwitchId as number, circuit: row.circuit as number, type: row.type as 'switch' | 'thresholds',
    data: row.data as Record<string, unknown>, state: row.state as protocol.CommandState, createdBy: row.createdBy, createdAt: iso(row.createdAt) as string,
    sentAt: iso(row.sentAt), deliveredAt: iso(row.deliveredAt), completedAt: iso(row.completedAt), resultCode: row.resultCode, resultDetail: row.resultDetail,
  };
}

/** Queues a command for a switch of the caller's data centre (the caller checked the switch and circuit). */
export async function enqueueAirSwitchCommand(tx: Executor, input: {
  tenantId: number; airSwitchId: number; circuit: number; type: protocol.AirSwitchDownlinkType; data: Record<string, unknown>; createdBy: string;
}): Promise<AirSwitchCommandRecord> {
  const [row] = await tx.insert(commands).values({
    ...input, deviceKind: 'airSwitch', msgId: randomUUID(), maxAttempts: 1,
    expiresAt: sql`now() + make_interval(secs => ${protocol.AIR_SWITCH_COMMAND_TTL_MS / 1000})`,
  }).returning();
  const record = commandRecord(row as Row);
  await emit(tx, 'command.queued', { tenantId: input.tenantId, deviceKind: 'airSwitch', deviceId: input.airSwitchId, commandId: record.id });
  return record;
}

/** The latest commands of a switch, newest first. */
export async function recentCommands(tx: Executor, airSwitchId: number, limit = 20): Promise<AirSwitchCommandRecord[]> {
  const rows = await tx.select().from(commands).where(and(AIR_SWITCH, eq(commands.airSwitchId, airSwitchId))).orderBy(desc(commands.id)).limit(limit);
  return rows.map(commandRecord);
}

/** One command of the data centre, or undefined. */
export async function findAirSwitchCommand(tx: Executor, id: number): Promise<AirSwitchCommandRecord | undefined> {
  const [row] = await tx.select().from(commands).where(and(AIR_SWITCH, eq(commands.id, id)));
  return row ? commandRecord(row) : undefined;
}

/** A command claimed for sending: what the downlink needs. */
export interface ClaimedAirSwitchCommand {
  id: number;
  msgId: string;
  serial: string;
  type: protocol.AirSwitchDownlinkType;
  data: Record<string, unknown>;
}

/**
 * Claims QUEUED commands (of `airSwitchIds`, or any) of enabled switches whose serial `connected` accepts,
 * oldest first, and marks them SENT (owner connection, all tenants).
 */
export async function claimAirSwitchCommands(db: Executor, options: { airSwitchIds?: readonly number[]; limit: number }): Promise<ClaimedAirSwitchCommand[]> {
  const rows = rowsOf<{ id: number; tenant_id: number; air_switch_id: number; state: string; msg_id: string; serial: string; type: string; data: Record<string, unknown> }>(await db.execute(sql`
    with claimed as (
      select c.id from commands c join air_switches s on s.id = c.air_switch_id
      where c.device_kind = 'airSwitch' and c.state = 'QUEUED' and c.expires_at > now() and s.enabled
        ${options.airSwitchIds ? sql`and c.air_switch_id = any(${sql.param([...options.airSwitchIds])}::int[])` : sql``}
      order by c.id limit ${options.limit} for update of c skip locked)
    update commands c set state = 'SENT', sent_at = now(), attempts = c.attempts + 1
    from claimed, air_switches s where c.id = claimed.id and s.id = c.air_switch_id
    returning ${STATE_COLUMNS}, c.msg_id, s.serial, c.type, c.data`));
  await statesChanged(db, rows);
  return rows.map((r) => ({ id: Number(r.id), msgId: r.msg_id, serial: r.serial, type: r.type as protocol.AirSwitchDownlinkType, data: r.data }));
}

/** Gives a claimed command back (device not connected): QUEUED again. */
export async function releaseAirSwitchCommand(db: Executor, id: number): Promise<void> {
  await statesChanged(db, rowsOf(await db.execute(sql`
    update commands c set state = 'QUEUED', sent_at = null, attempts = greatest(c.attempts - 1, 0)
    where c.id = ${id} and c.device_kind = 'airSwitch' and c.state = 'SENT' returning ${STATE_COLUMNS}`)));
}

/** SENT -> DELIVERED for the command `msgId` of the switch `serial`; true when it changed. */
export async function markAirSwitchDelivered(db: Executor, serial: string, msgId: string): Promise<boolean> {
  const rows = rowsOf(await db.execute(sql`
    update commands c set state = 'DELIVERED', delivered_at = now() from air_switches s
    where c.device_kind = 'airSwitch' and s.id = c.air_switch_id and s.serial = ${serial} and c.msg_id = ${msgId} and c.state = 'SENT' returning ${STATE_COLUMNS}`));
  await statesChanged(db, rows as Record<string, unknown>[]);
  return rows.length > 0;
}

/** Sent without an answer past the timeout -> TIMEOUT (never resent); QUEUED past expires_at -> EXPIRED. */
export async function sweepAirSwitchCommands(db: Executor, options: { responseTimeoutMs: number }): Promise<{ timedOut: number; expired: number }> {
  const timedOut = rowsOf<Record<string, unknown>>(await db.execute(sql`
    update commands c set state = 'TIMEOUT', completed_at = now()
    where c.device_kind = 'airSwitch' and c.state in ('SENT', 'DELIVERED') and c.sent_at < now() - make_interval(secs => ${options.responseTimeoutMs / 1000})
    returning ${STATE_COLUMNS}`));
  const expired = rowsOf<Record<string, unknown>>(await db.execute(sql`
    update commands c set state = 'EXPIRED', completed_at = now()
    where c.device_kind = 'airSwitch' and c.state = 'QUEUED' and c.expires_at <= now() returning ${STATE_COLUMNS}`));
  await statesChanged(db, [...timedOut, ...expired]);
  return { timedOut: timedOut.length, expired: expired.length };
}

/** commandResult uplinks: the switch's own SENT/DELIVERED (or just claimed) command -> SUCCESSFUL (code 0) or FAILED. */
export async function applyCommandResults(tx: Tx, results: readonly { airSwitchId: number; data: { commandMsgId: string; code: number; detail?: string } }[]): Promise<void> {
  if (results.length === 0) return;
  await statesChanged(tx, rowsOf(await tx.execute(sql`
    update commands c set state = case when v.code = 0 then 'SUCCESSFUL' else 'FAILED' end, completed_at = now(),
      result_code = v.code, result_detail = v.detail, delivered_at = coalesce(c.delivered_at, now())
    from unnest(${sql.param(results.map((r) => r.airSwitchId))}::int[], ${sql.param(results.map((r) => r.data.commandMsgId))}::text[],
      ${sql.param(results.map((r) => r.data.code))}::int[], ${sql.param(results.map((r) => r.data.detail ?? null))}::text[]) as v(s, msg, code, detail)
    where c.device_kind = 'airSwitch' and c.air_switch_id = v.s and c.msg_id = v.msg and c.state in ('QUEUED', 'SENT', 'DELIVERED')
    returning ${STATE_COLUMNS}`)));
}
