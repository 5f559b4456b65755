/**
 * State transitions of queued commands after enqueue, for the dispatcher and the uplink handler.
 * Every statement is one SQL round trip on the owner connection (no tenant: the gateway works for all
 * tenants) and uses the database clock, so several server instances agree. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so instances never wait for, nor act twice on, the same command.
 *
 *   QUEUED --claim--> SENT --PUBACK--> DELIVERED --commandResult--> SUCCESSFUL | FAILED
 *   SENT/DELIVERED --response timeout--> QUEUED (attempts < max_attempts) | TIMEOUT
 *   QUEUED --expires_at--> EXPIRED;  QUEUED --operator--> CANCELED (outbox.ts)
 *
 * Every write of a final state runs the caller's "command finished" followers in its transaction
 * (wiring.ts: credential sync, open-platform pushes), and every transition emits `command.state`
 * (docs/events.md) with the write.
 */
import { sql } from 'drizzle-orm';
import type { protocol } from '@iot/contract';
import type { Executor, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { type CommandFollowers, commandStatesChanged, commandsFinished } from './transitions.js';

/** A command just claimed for sending. */
export interface ClaimedCommand {
  id: number;
  msgId: string;
  lockId: number;
  imei: string;
  type: protocol.DownlinkType;
  /** As stored (secret fields sealed). */
  data: Record<string, unknown>;
  /** Claim time, ms since epoch (becomes the message's ts). */
  sentAtMs: number;
  attempts: number;
}

const FINISHED_COLUMNS = sql.raw('c.id, c.tenant_id, c.lock_id, c.type, c.state, c.result_code, c.result_slot');

export interface ClaimOptions {
  /** Only these locks (undefined: every lock). */
  lockIds?: readonly number[];
  /** At most this many commands. */
  limit: number;
  /** A sleeping lock is reachable this long after its last uplink, ms. */
  awakeMs: number;
}

/**
 * Claims the next command of each reachable lock: QUEUED -> SENT (sent_at now, attempts + 1). A lock
 * qualifies when it is always online or had an uplink within `awakeMs`, has no command SENT or
 * DELIVERED (one in flight) and its command is its oldest QUEUED one (strict order).
 */
export async function claimCommands(db: Executor, options: ClaimOptions): Promise<ClaimedCommand[]> {
  const lockIds = options.lockIds ? sql`${sql.param([...options.lockIds])}::int[]` : sql`null::int[]`;
  const result = await db.execute(sql`
    with candidate as (
      select c.id from commands c join locks l on l.id = c.lock_id
      where c.state = 'QUEUED' and c.expires_at > now()
        and (l.always_online or l.last_uplink_at > now() - make_interval(secs => ${options.awakeMs / 1000}))
        and (${lockIds} is null or c.lock_id = any(${lockIds}))
        and c.id = (select min(q.id) from commands q where q.lock_id = c.lock_id and q.state = 'QUEUED')
        and not exists (select 1 from commands f where f.lock_id = c.lock_id and f.state in ('SENT', 'DELIVERED'))
      order by c.id
      limit ${options.limit}
      for update of c skip locked)
    update commands c set state = 'SENT', sent_at = now(), attempts = c.attempts + 1
    from candidate, locks l
    where c.id = candidate.id and l.id = c.lock_id
    returning c.id, c.msg_id, c.lock_id, c.tenant_id, c.state, l.imei, c.type, c.data, c.sent_at, c.attempts`);
  const rows = rowsOf<Record<string, unknown>>(result);
  await commandStatesChanged(db, rows); // claimed: SENT
  return rows.map((row) => ({
    id: Number(row.id), msgId: String(row.msg_id), lockId: Number(row.lock_id), imei: String(row.imei),
    type: row.type as protocol.DownlinkType, data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
    sentAtMs: new Date(row.sent_at as string).getTime(), attempts: Number(row.attempts),
  }));
}

/** The lock PUBACKed the downlink: SENT -> DELIVERED. Returns whether a row changed. */
export async function markDelivered(db: Executor, imei: string, msgId: string): Promise<boolean> {
  const result = await db.execute(sql`
    update commands set state = 'DELIVERED', delivered_at = now()
    where msg_id = ${msgId} and state = 'SENT' and lock_id = (select id from locks where imei = ${imei})
    returning id, tenant_id, lock_id, state`);
  const rows = rowsOf<Record<string, unknown>>(result);
  await commandStatesChanged(db, rows);
  return rows.length > 0;
}

/**
 * Uplink handler of `commandResult` (runs in the uplink's transaction): code 0 -> SUCCESSFUL, else
 * FAILED, with result code/detail/slot and completed_at. Only the lock's own commands are matched, and
 * only while not final and sent at least once (a late answer to a re-queued command still counts;
 * answers to final commands, e.g. the repeat of a retried one, are ignored).
 */
export async function applyCommandResults(tx: Tx, uplinks: readonly { lockId: number; message: Extract<protocol.UplinkMessage, { type: 'commandResult' }> }[], followers: CommandFollowers): Promise<void> {
  for (const { lockId, message } of uplinks) {
    const { commandMsgId, code, detail, slot } = message.data;
    const updated = await tx.execute(sql`
      update commands c set state = ${code === 0 ? 'SUCCESSFUL' : 'FAILED'}, result_code = ${code}, result_detail = ${detail ?? null},
        result_slot = ${slot ?? null}, completed_at = now(), delivered_at = coalesce(delivered_at, now())
      where msg_id = ${commandMsgId} and lock_id = ${lockId} and attempts > 0
        and state in ('QUEUED', 'SENT', 'DELIVERED')
      returning ${FINISHED_COLUMNS}`);
    await commandsFinished(tx, rowsOf<Record<string, unknown>>(updated), followers);
  }
}

export interface SweepResult {
  /** Commands put back in the queue for another attempt. */
  retried: number;
  timedOut: number;
  expired: number;
}

/**
 * One bounded sweep (at most `limit` rows per rule, rows locked by others skipped): SENT/DELIVERED
 * older than `responseTimeoutMs` -> QUEUED while attempts < max_attempts, else TIMEOUT; QUEUED past
 * expires_at -> EXPIRED.
 */
export async function sweepCommands(db: Executor, options: { responseTimeoutMs: number; limit: number; followers: CommandFollowers }): Promise<SweepResult> {
  // One transaction per sweep, so the "command finished" followers commit with the final states.
  return db.transaction(async (tx) => {
    const late = rowsOf<Record<string, unknown>>(await tx.execute(sql`
      with due as (
        select id from commands
        where device_kind = 'lock' and state in ('SENT', 'DELIVERED') and sent_at < now() - make_interval(secs => ${options.responseTimeoutMs / 1000})
        order by id limit ${options.limit} for update skip locked)
      update commands c
      set state = case when c.attempts < c.max_attempts then 'QUEUED' else 'TIMEOUT' end,
          completed_at = case when c.attempts < c.max_attempts then null else now() end
      from due where c.id = due.id
      returning ${FINISHED_COLUMNS}`));
    const expired = rowsOf<Record<string, unknown>>(await tx.execute(sql`
      with due as (
        select id from commands where device_kind = 'lock' and state = 'QUEUED' and expires_at <= now()
        order by expires_at limit ${options.limit} for update skip locked)
      update commands c set state = 'EXPIRED', completed_at = now() from due where c.id = due.id
      returning ${FINISHED_COLUMNS}`));
    const timedOut = late.filter((row) => row.state === 'TIMEOUT');
    await commandStatesChanged(tx, late.filter((row) => row.state === 'QUEUED'));
    await commandsFinished(tx, [...timedOut, ...expired], options.followers);
    return { retried: late.length - timedOut.length, timedOut: timedOut.length, expired: expired.length };
  });
}

/** A command the platform cannot send (e.g. its secret cannot be decrypted): SENT -> FAILED. */
export async function failCommand(db: Executor, id: number, detail: string, followers: CommandFollowers): Promise<void> {
  await db.transaction(async (tx) => {
    const updated = await tx.execute(sql`
      update commands c set state = 'FAILED', result_detail = ${detail}, completed_at = now()
      where id = ${id} and device_kind = 'lock' and state in ('QUEUED', 'SENT', 'DELIVERED')
      returning ${FINISHED_COLUMNS}`);
    await commandsFinished(tx, rowsOf<Record<string, unknown>>(updated), followers);
  });
}

/** Undoes a claim whose lock turned out not to be connected: SENT -> QUEUED, the attempt not counted. */
export async function releaseCommand(db: Executor, id: number): Promise<void> {
  const result = await db.execute(sql`
    update commands set state = 'QUEUED', attempts = greatest(attempts - 1, 0), sent_at = null
    where id = ${id} and device_kind = 'lock' and state = 'SENT'
    returning id, tenant_id, lock_id, state`);
  await commandStatesChanged(db, rowsOf<Record<string, unknown>>(result));
}
