/**
 * The command dispatcher: sends queued commands through a DownlinkTransport, one in flight per lock,
 * oldest first (modules/command/lifecycle.ts claims rows with FOR UPDATE SKIP LOCKED, so any number
 * of dispatchers may share one database without sending a command twice).
 *
 * When it dispatches:
 * - wake(lockIds): locks that just had an uplink committed (ingest onCommitted; this covers a
 *   commandResult freeing its lock) or got a command queued (modules/command/signals.ts);
 * - every `sweepIntervalMs` (default 1 s): a bounded sweep (response timeouts -> retry or TIMEOUT,
 *   expiry -> EXPIRED), then a dispatch pass over every reachable lock. This also resumes the queue
 *   after a restart: a command SENT before a crash is retried by the timeout rule.
 * A sleeping lock counts as reachable for `awakeMs` after its last uplink (default
 * awakeMsFor(protocol.WAKE_WINDOW_MS): the wake window minus a margin for the lock's own clock and
 * the commit delay, 2 s but at most a fifth of the window).
 *
 * A claimed command is SENT before it is published; a publish failure leaves it SENT, and the
 * timeout rule retries it. When the transport knows the lock is not connected (embedded broker), the
 * claim is undone (QUEUED again, attempt not counted) and the lock's next uplink dispatches it. PUBACKs seen by the transport mark it DELIVERED.
 */
import { protocol } from '@iot/contract';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { type ClaimedCommand, claimCommands, failCommand, markDelivered, releaseCommand, sweepCommands } from '../../modules/command/lifecycle.js';
import { buildDownlink } from '../../modules/command/payload.js';
import { onQueued } from '../../modules/command/signals.js';
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
  /** Sweep and full dispatch pass period, ms (default 1000). */
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

/** Starts a dispatcher (its sweep timer runs until close()). */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { database, transport, box, log } = options;
  const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;
  const batch = options.batch ?? 100;
  const awakeMs = options.awakeMs ?? awakeMsFor(protocol.WAKE_WINDOW_MS);
  const counters: DispatcherStats = { notConnected: 0, sent: 0, publishFailed: 0, delivered: 0, retried: 0, timedOut: 0, expired: 0 };
  const pendingLocks = new Set<number>();
  let pendingAll = false;
  let running: Promise<void> | undefined;
  let closed = false;

  async function send(command: ClaimedCommand): Promise<void> {
    if (transport.isConnected(command.imei) === false) {
      counters.notConnected++; // e.g. just fell asleep, or not reconnected after a restart: wait for its next uplink
      await releaseCommand(database.system, command.id);
      return;
    }
    let message: protocol.DownlinkMessage;
    try {
      message = buildDownlink(command, box);
    } catch (error) {
      log.error({ commandId: command.id, err: error }, 'command cannot be built (secret not readable); FAILED');
      await failCommand(database.system, command.id, 'platform: payload cannot be built');
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

  async function drain(): Promise<void> {
    while (!closed && (pendingAll || pendingLocks.size > 0)) {
      const all = pendingAll;
      const lockIds = all ? undefined : [...pendingLocks];
      pendingAll = false;
      pendingLocks.clear();
      try {
        if (all) {
          const swept = await sweepCommands(database.system, { responseTimeoutMs, limit: batch });
          counters.retried += swept.retried;
          counters.timedOut += swept.timedOut;
          counters.expired += swept.expired;
        }
        let claimed: ClaimedCommand[];
        do {
          claimed = await claimCommands(database.system, { lockIds, limit: batch, awakeMs });
          await Promise.all(claimed.map(send));
        } while (claimed.length === batch && !closed);
      } catch (error) {
        if (!closed) log.warn({ err: error }, 'command dispatch pass failed; retried at the next sweep');
      }
    }
  }

  function kick(): void {
    if (running || closed) return;
    running = drain().finally(() => {
      running = undefined;
      if (pendingAll || pendingLocks.size > 0) kick();
    });
  }

  transport.onDelivered((imei, msgId) => {
    if (closed || msgId.startsWith('ota-')) return; // firmware transfer downlinks (gateway/ota.ts) are not commands
    markDelivered(database.system, imei, msgId).then(
      (changed) => { if (changed) counters.delivered++; },
      (error: unknown) => log.warn({ imei, msgId, err: error }, 'command delivery not recorded'),
    );
  });
  const stopListening = onQueued(database, (lockId) => wake([lockId]));
  const timer = setInterval(() => { pendingAll = true; kick(); }, options.sweepIntervalMs ?? 1000);

  function wake(lockIds: readonly number[]): void {
    for (const id of lockIds) pendingLocks.add(id);
    kick();
  }

  return {
    wake,
    async tick() {
      await running;
      pendingAll = true;
      kick();
      await running;
    },
    stats: () => ({ ...counters }),
    async close() {
      closed = true;
      clearInterval(timer);
      stopListening();
      await running;
    },
  };
}
