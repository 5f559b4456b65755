/**
 * The locks' dispatch policy (outbox/device-dispatcher.ts runs the loop): one command in flight per
 * lock, oldest first (modules/command/lifecycle.ts claims rows with FOR UPDATE SKIP LOCKED). Locks sleep
 * (NB-IoT): a lock is reachable for `awakeMs` after its last uplink (default
 * awakeMsFor(protocol.WAKE_WINDOW_MS): the wake window minus a margin for the lock's own clock and the
 * commit delay, 2 s but at most a fifth of the window), so the ingest wakes the dispatcher with the
 * locks of committed uplinks (this covers a commandResult freeing its lock). The due pass's sweep:
 * response timeouts -> retry or TIMEOUT, expiry -> EXPIRED (config COMMAND_SWEEP_MS, default 5 min,
 * between due times).
 *
 * A claimed command is SENT before it is published; a publish failure leaves it SENT, and the timeout
 * rule retries it. When the transport knows the lock is not connected (embedded broker), the claim is
 * undone (QUEUED again, attempt not counted) and the lock's next uplink dispatches it. PUBACKs seen by
 * the transport mark it DELIVERED.
 */
import { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { type Config, SAFETY_SWEEP_MS } from '../../config.js';
import { type ClaimedCommand, claimCommands, failCommand, markDelivered, releaseCommand, sweepCommands } from '../../modules/command/lifecycle.js';
import type { CommandFollowers } from '../../modules/command/transitions.js';
import { buildDownlink } from '../../modules/command/payload.js';
import type { GatewayLog } from '../log.js';
import type { DownlinkTransport } from '../transport.js';
import { type DeviceDispatcher, type SendOutcome, startDeviceDispatcher } from './device-dispatcher.js';

/** Margin taken off the wake window when deciding a sleeping lock is still reachable, ms... */
export const AWAKE_MARGIN_MS = 2000;
/** ...but at most this share of the window (a 2 s window keeps 1.6 s). */
export const AWAKE_MARGIN_SHARE = 0.2;

/** How long after its last uplink the dispatcher counts a sleeping lock as reachable, ms, for a wake window of `wakeWindowMs` ms. */
export function awakeMsFor(wakeWindowMs: number): number {
  return wakeWindowMs - Math.min(AWAKE_MARGIN_MS, wakeWindowMs * AWAKE_MARGIN_SHARE);
}

/** Configuration the locks' dispatcher reads (all optional: defaults of config.ts). */
export type OutboxConfig = Partial<Pick<Config, 'SECRET_KEY' | 'DATA_DIR' | 'COMMAND_RESPONSE_TIMEOUT_MS' | 'COMMAND_SWEEP_MS' | 'WAKE_WINDOW_MS'>>;

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

/** The locks' dispatcher: wake(lockIds) for locks that are awake or got a command. */
export type Dispatcher = DeviceDispatcher;

/** Starts the locks' dispatcher (it sleeps between due times and wakes until close()). */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { database, transport, box, log } = options;
  const responseTimeoutMs = options.responseTimeoutMs ?? 30_000;
  const batch = options.batch ?? 100;
  const awakeMs = options.awakeMs ?? awakeMsFor(protocol.WAKE_WINDOW_MS);

  async function send(command: ClaimedCommand): Promise<SendOutcome> {
    if (transport.isConnected(command.imei) === false) {
      // e.g. just fell asleep, or not reconnected after a restart: wait for its next uplink
      await releaseCommand(database.system, command.id);
      return 'notConnected';
    }
    let message: protocol.DownlinkMessage;
    try {
      message = buildDownlink(command, box);
    } catch (error) {
      log.error({ commandId: command.id, err: error }, 'command cannot be built (secret not readable); FAILED');
      await failCommand(database.system, command.id, 'platform: payload cannot be built', options.followers);
      return 'failed';
    }
    try {
      await transport.publish(command.imei, message);
      return 'sent';
    } catch (error) {
      log.warn({ commandId: command.id, imei: command.imei, err: error }, 'downlink publish failed; retried after the response timeout');
      return 'publishFailed';
    }
  }

  return startDeviceDispatcher<ClaimedCommand>({
    kind: 'lock',
    name: 'command dispatcher',
    batch,
    safetyMs: options.sweepIntervalMs ?? SAFETY_SWEEP_MS,
    sweep: () => sweepCommands(database.system, { responseTimeoutMs, limit: batch, followers: options.followers }),
    claim: (lockIds, limit) => claimCommands(database.system, { lockIds, limit, awakeMs }),
    send,
    async nextDue() {
      const [row] = rowsOf<{ ms: number | null; queued: boolean }>(await database.system.execute(sql`
        select extract(epoch from least(open.sent + make_interval(secs => ${responseTimeoutMs / 1000}), open.expiry) - now()) * 1000 as ms,
          open.expiry is not null as queued
        from (select (select min(sent_at) from commands where state in ('SENT', 'DELIVERED') and device_kind = 'lock') as sent,
          (select min(expires_at) from commands where state = 'QUEUED' and device_kind = 'lock') as expiry) open`));
      return { ms: row?.ms == null ? null : Number(row.ms), queued: row?.queued ?? false };
    },
    // What was just sent is due for its answer.
    afterWake: (sent) => (sent > 0 ? responseTimeoutMs : undefined),
    listenDelivered(record) {
      transport.onDelivered((imei, msgId) => {
        if (msgId.startsWith('ota-')) return; // firmware transfer downlinks (gateway/ota.ts) are not commands
        record(() => markDelivered(database.system, imei, msgId), { imei, msgId });
      });
    },
  }, { database, log });
}
