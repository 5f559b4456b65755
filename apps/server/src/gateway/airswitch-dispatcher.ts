/**
 * The air switch command dispatcher (modules/airSwitch/commands.ts owns the table). Air
 * switches are always online, so a queued command is sent at once: on its `command.queued` event (from
 * any instance), at the earliest due time it knows (a response timeout, a queued command's time to
 * live) and at a safety sweep every `sweepIntervalMs` (default 5 min: restarts, lost notifications, a
 * switch that reconnected); it sleeps otherwise (jobs/loop.ts). A claimed command is SENT before it is published on `as/{serial}/down`; when the
 * transport knows the switch is not connected the claim is undone (QUEUED, EXPIRED after
 * protocol.AIR_SWITCH_COMMAND_TTL_MS). PUBACKs seen by the transport mark it DELIVERED; the sweep times
 * out commands without an answer (never resent: switching power twice minutes apart is not safe).
 */
import { protocol } from '@iot/contract';
import type { Database } from '../db/client.js';
import {
  type ClaimedAirSwitchCommand, claimAirSwitchCommands, markAirSwitchDelivered, releaseAirSwitchCommand, sweepAirSwitchCommands,
} from '../modules/airSwitch/commands.js';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows.js';
import { SAFETY_SWEEP_MS } from '../config.js';
import { type NextDue, startWorkerLoop } from '../jobs/loop.js';
import type { GatewayLog } from './log.js';
import type { DownlinkTransport } from './transport.js';

export interface AirSwitchDispatcher {
  /** Sweeps and sends what is queued now; resolves when done (tests). */
  tick(): Promise<void>;
  stats(): { sent: number; notConnected: number; publishFailed: number; delivered: number; timedOut: number; expired: number };
  close(): Promise<void>;
}

/** Starts the dispatcher over `transport` (timer until close()). */
export function startAirSwitchDispatcher(options: {
  database: Database; transport: DownlinkTransport; log: GatewayLog; sweepIntervalMs?: number; responseTimeoutMs?: number; ttlMs?: number;
}): AirSwitchDispatcher {
  const { database, transport, log } = options;
  const counters = { sent: 0, notConnected: 0, publishFailed: 0, delivered: 0, timedOut: 0, expired: 0 };
  const pending = new Set<number>();
  const responseTimeoutMs = options.responseTimeoutMs ?? protocol.AIR_SWITCH_RESPONSE_TIMEOUT_MS;
  const ttlMs = options.ttlMs ?? protocol.AIR_SWITCH_COMMAND_TTL_MS;
  let closed = false;

  async function send(command: ClaimedAirSwitchCommand): Promise<void> {
    const topic = protocol.airSwitchDownlinkTopic(command.serial);
    if (transport.isSubscribed?.(command.serial, topic) === false || !transport.publishTo) {
      counters.notConnected++;
      await releaseAirSwitchCommand(database.system, command.id);
      return;
    }
    counters.sent++;
    const message: protocol.AirSwitchDownlinkMessage = { msgId: command.msgId, type: command.type, ts: Date.now(), data: command.data };
    await transport.publishTo(topic, message).catch((error: unknown) => {
      counters.publishFailed++;
      log.warn({ commandId: command.id, serial: command.serial, err: error }, 'air switch downlink publish failed; TIMEOUT follows');
    });
  }

  async function pass(due: boolean): Promise<NextDue> {
    const ids = due ? undefined : [...pending];
    pending.clear();
    if (ids?.length === 0) return undefined;
    if (due) {
      const swept = await sweepAirSwitchCommands(database.system, { responseTimeoutMs, ttlMs });
      counters.timedOut += swept.timedOut;
      counters.expired += swept.expired;
    }
    let claimed: ClaimedAirSwitchCommand[];
    do {
      claimed = await claimAirSwitchCommands(database.system, { airSwitchIds: ids, limit: 100 });
      await Promise.all(claimed.map(send));
    } while (claimed.length === 100 && !closed);
    return due ? nextDueMs() : responseTimeoutMs;
  }

  /** ms until the earliest response timeout or time to live of an open command; undefined when none is open. */
  async function nextDueMs(): Promise<NextDue> {
    const [row] = rowsOf<{ ms: number | null }>(await database.system.execute(sql`
      select extract(epoch from least(
        min(sent_at) filter (where state in ('SENT', 'DELIVERED')) + make_interval(secs => ${responseTimeoutMs / 1000}),
        min(created_at) filter (where state = 'QUEUED') + make_interval(secs => ${ttlMs / 1000})) - now()) * 1000 as ms
      from air_switch_commands where state in ('QUEUED', 'SENT', 'DELIVERED')`));
    return row?.ms == null ? undefined : Number(row.ms);
  }

  const loop = startWorkerLoop({ name: 'air switch dispatcher', run: pass, safetyMs: options.sweepIntervalMs ?? SAFETY_SWEEP_MS, log });

  transport.onTopicDelivered?.((topic, clientId, msgId) => {
    if (closed || !protocol.parseAirSwitchTopic(topic)) return;
    markAirSwitchDelivered(database.system, clientId, msgId).then(
      (changed) => { if (changed) counters.delivered++; },
      (error: unknown) => log.warn({ serial: clientId, msgId, err: error }, 'air switch command delivery not recorded'),
    );
  });
  const stopListening = database.events.on('command.queued', ({ deviceKind, deviceId }) => {
    if (deviceKind !== 'airSwitch' || closed) return;
    pending.add(deviceId);
    loop.wake();
  });
  const stopResync = database.events.onResync(() => { void loop.sweepNow(); });

  return {
    tick: () => loop.sweepNow(),
    stats: () => ({ ...counters }),
    async close() {
      closed = true;
      stopListening();
      stopResync();
      await loop.close();
    },
  };
}
