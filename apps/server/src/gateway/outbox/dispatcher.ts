/**
 * The command dispatcher: sends queued commands through a DownlinkTransport, one in flight per lock,
 * oldest first (modules/command/lifecycle.ts claims rows with FOR UPDATE SKIP LOCKED, so any number
 * of dispatchers may share one database without sending a command twice).
 *
 * When it dispatches (jobs/loop.ts: it sleeps otherwise, making no query):
 * - wake(lockIds): locks that just had an uplink committed (ingest onCommitted; this covers a
 *   commandResult freeing its lock) or got a command queued (the `command.queued` event, from any
 *   instance);
 * - at the earliest due time it knows (a sent command's response timeout, a queued command's
 *   expiry) and at a safety sweep every `sweepIntervalMs` (config COMMAND_SWEEP_MS, default 5 min):
 *   a bounded sweep (response timeouts -> retry or TIMEOUT, expiry -> EXPIRED), then a dispatch pass
 *   over every reachable lock. This also resumes the queue after a restart or a lost notification.
 * A sleeping lock counts as reachable for `awakeMs` after its last uplink (default
 * awakeMsFor(protocol.WAKE_WINDOW_MS): the wake window minus a margin for the lock's own clock and
 * the commit delay, 2 s but at most a fifth of the window).
 *
 * A wake makes no query while no command can be queued (about one query per heartbeat of the
 * fleet): a due pass that finds none clears `queuedMayExist`; a `command.queued` event, a command.state
 * event to QUEUED (a retry, on any instance) or a claim given back sets it again.
 *
 * A claimed command is SENT before it is published; a publish failure leaves it SENT, and the
 * timeout rule retries it. When the transport knows the lock is not connected (embedded broker), the
 * claim is undone (QUEUED again, attempt not counted) and the lock's next uplink dispatches it. PUBACKs seen by the transport mark it DELIVERED.
 */
import { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { SAFETY_SWEEP_MS } from '../../config.js';
import { type NextDue, startWorkerLoop } from '../../jobs/loop.js';
import { type ClaimedCommand, claimCommands, failCommand, markDelivered, releaseCommand, sweepCommands } from '../../modules/command/lifecycle.js';
import type { CommandFollowers } from '../../modules/command/transitions.js';
import { buildDownlink } from '../../modules/command/payload.js';
import type { GatewayLog } from '../log.js';
import type { DownlinkTransport } from '../transport.js';

/** Margin taken off the wake window when deciding a sleeping lock is still reachable, ms... */
export const AWAKE_MARGIN_MS = 2000;
/** ...but at most this share of the window (a 2 s window keeps 1.6 s). */
export const AWAKE_MARGIN_SHARE = 0.2;

/** How long after its last uplink the dispatcher counts a sleeping lock as reachable, ms, for a wake window of `wakeWindowMs` ms. */
export function awakeMsFor(wakeWindowMs: number): number {
  return wakeWindowMs - Math.min(AWAKE_MARGIN_MS, wakeWindowMs * AWAKE_MARGIN_SHARE);
}

export interface DispatcherTuning {
  /** SENT/DELIVERED without a result this long: retry or TIMEOUT, ms (default 30,000). */
  responseTimeoutMs?: number;
  /** Safety sweep and full dispatch pass period, ms (default 30,000); due times come sooner. */
  sweepIntervalMs?: number;
  /** Rows per claim / per sweep rule (default 100). */
  batch?: number;
  /** A sleeping lock is reachable this long after its last uplink, ms (default awakeMsFor(protocol.WAKE_WINDOW_MS) = 8000). */
  awakeMs?: number;
}

export interface DispatcherOptions extends DispatcherTuning {
  database: Database;
  transport: DownlinkTransport;
  /** Opens secret fields when a downlink is built. */
  box: SecretBox;
  log: GatewayLog;
  /** What follows a final state in its transaction (wiring.ts commandFollowers). */
  followers: CommandFollowers;
}

export interface DispatcherStats {
  /** Publishes attempted / failed, PUBACKs that moved a command to DELIVERED, sweep outcomes. */
  sent: number;
  /** Claims given back because the transport knew the lock was not connected. */
  notConnected: number;
  publishFailed: number;
  delivered: number;
  retried: number;
  timedOut: number;
  expired: number;
}

export interface Dispatcher {
  /** Dispatches to these locks soon (they are awake, or got a command). */
  wake(lockIds: readonly number[]): void;
  /** Runs a sweep and a full dispatch pass now; resolves when done (tests). */
  tick(): Promise<void>;
  stats(): DispatcherStats;
  /** Stops the timer and waits for the pass in progress. Queued commands stay in the database. */
  close(): Promise<void>;
}

/** Starts a dispatcher (it sleeps between due times and wakes until close()). */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { database, transport, box, log } = options;
  const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;
  const batch = options.batch ?? 100;
  const awakeMs = options.awakeMs ?? awakeMsFor(protocol.WAKE_WINDOW_MS);
  const counters: DispatcherStats = { notConnected: 0, sent: 0, publishFailed: 0, delivered: 0, retried: 0, timedOut: 0, expired: 0 };
  const pendingLocks = new Set<number>();
  let closed = false;
  /** False only while the last due pass saw no QUEUED command and nothing since announced one. */
  let queuedMayExist = true;
  /** Counts announcements, so a due pass's "none queued" does not hide one that came during its query. */
  let announced = 0;
  const queuedAnnounced = () => { queuedMayExist = true; announced++; };

  async function send(command: ClaimedCommand): Promise<void> {
    if (transport.isConnected(command.imei) === false) {
      counters.notConnected++; // e.g. just fell asleep, or not reconnected after a restart: wait for its next uplink
      await releaseCommand(database.system, command.id);
      queuedAnnounced();
      return;
    }
    let message: protocol.DownlinkMessage;
    try {
      message = buildDownlink(command, box);
    } catch (error) {
      log.error({ commandId: command.id, err: error }, 'command cannot be built (secret not readable); FAILED');
      await failCommand(database.system, command.id, 'platform: payload cannot be built', options.followers);
      return;
    }
    counters.sent++;
    try {
      await transport.publish(command.imei, message);
    } catch (error) {
      counters.publishFailed++;
      log.warn({ commandId: command.id, imei: command.imei, err: error }, 'downlink publish failed; retried after the response timeout');
    }
  }

  /** A pass: the full sweep when `due`, then claims (of the woken locks, or of every lock) until none is left. */
  async function pass(due: boolean): Promise<NextDue> {
    const lockIds = due ? undefined : [...pendingLocks];
    pendingLocks.clear();
    if (lockIds?.length === 0 || (lockIds && !queuedMayExist)) return undefined;
    if (due) {
      const swept = await sweepCommands(database.system, { responseTimeoutMs, limit: batch, followers: options.followers });
      counters.retried += swept.retried;
      counters.timedOut += swept.timedOut;
      counters.expired += swept.expired;
    }
    let claimed: ClaimedCommand[];
    let sent = 0;
    do {
      claimed = await claimCommands(database.system, { lockIds, limit: batch, awakeMs });
      sent += claimed.length;
      await Promise.all(claimed.map(send));
    } while (claimed.length === batch && !closed);
    if (due) return nextDueMs();
    return sent > 0 ? responseTimeoutMs : undefined; // what was just sent is due for its answer
  }

  /** ms until the earliest response timeout or expiry; undefined when no command is open. Clears queuedMayExist when none is QUEUED. */
  async function nextDueMs(): Promise<NextDue> {
    const before = announced;
    const [row] = rowsOf<{ ms: number | null; queued: boolean }>(await database.system.execute(sql`
      select extract(epoch from least(open.sent + make_interval(secs => ${responseTimeoutMs / 1000}), open.expiry) - now()) * 1000 as ms,
        open.expiry is not null as queued
      from (select (select min(sent_at) from commands where state in ('SENT', 'DELIVERED')) as sent,
        (select min(expires_at) from commands where state = 'QUEUED') as expiry) open`));
    if (row && !row.queued && announced === before) queuedMayExist = false;
    return row?.ms == null ? undefined : Number(row.ms);
  }

  const loop = startWorkerLoop({ name: 'command dispatcher', run: pass, safetyMs: options.sweepIntervalMs ?? SAFETY_SWEEP_MS, log });

  transport.onDelivered((imei, msgId) => {
    if (closed || msgId.startsWith('ota-')) return; // firmware transfer downlinks (gateway/ota.ts) are not commands
    markDelivered(database.system, imei, msgId).then(
      (changed) => { if (changed) counters.delivered++; },
      (error: unknown) => log.warn({ imei, msgId, err: error }, 'command delivery not recorded'),
    );
  });
  const stopListening = database.events.on('command.queued', ({ deviceKind, deviceId }) => {
    if (deviceKind !== 'lock') return;
    queuedAnnounced();
    wake([deviceId]);
  });
  const stopStates = database.events.on('command.state', ({ deviceKind, state }) => {
    if (deviceKind === 'lock' && state === 'QUEUED') queuedAnnounced();
  });
  const stopResync = database.events.onResync(() => { void loop.sweepNow(); });

  function wake(lockIds: readonly number[]): void {
    if (closed) return;
    for (const id of lockIds) pendingLocks.add(id);
    loop.wake();
  }

  return {
    wake,
    tick: () => loop.sweepNow(),
    stats: () => ({ ...counters }),
    async close() {
      closed = true;
      stopListening();
      stopStates();
      stopResync();
      await loop.close();
    },
  };
}
