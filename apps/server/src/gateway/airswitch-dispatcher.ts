/**
 * The air switch command dispatcher (issue #13; modules/airSwitch/commands.ts owns the table). Air
 * switches are always online, so a queued command is sent at once: on the module's "queued" signal
 * (same process), and by a sweep every `sweepIntervalMs` (other instances' commands, restarts, a switch
 * that reconnected). A claimed command is SENT before it is published on `as/{serial}/down`; when the
 * transport knows the switch is not connected the claim is undone (QUEUED, EXPIRED after
 * protocol.AIR_SWITCH_COMMAND_TTL_MS). PUBACKs seen by the transport mark it DELIVERED; the sweep times
 * out commands without an answer (never resent: switching power twice minutes apart is not safe).
 */
import { protocol } from '@iot/contract';
import type { Database } from '../db/client.js';
import {
  type ClaimedAirSwitchCommand, claimAirSwitchCommands, markAirSwitchDelivered, releaseAirSwitchCommand, sweepAirSwitchCommands,
} from '../modules/airSwitch/commands.js';
import { onAirSwitchQueued } from '../modules/airSwitch/signals.js';
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
  let sweepDue = false;
  let running: Promise<void> | undefined;
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

  async function drain(): Promise<void> {
    while (!closed && (sweepDue || pending.size > 0)) {
      const all = sweepDue;
      const ids = all ? undefined : [...pending];
      sweepDue = false;
      pending.clear();
      try {
        if (all) {
          const swept = await sweepAirSwitchCommands(database.system, {
            responseTimeoutMs: options.responseTimeoutMs ?? protocol.AIR_SWITCH_RESPONSE_TIMEOUT_MS, ttlMs: options.ttlMs ?? protocol.AIR_SWITCH_COMMAND_TTL_MS,
          });
          counters.timedOut += swept.timedOut;
          counters.expired += swept.expired;
        }
        let claimed: ClaimedAirSwitchCommand[];
        do {
          claimed = await claimAirSwitchCommands(database.system, { airSwitchIds: ids, limit: 100 });
          await Promise.all(claimed.map(send));
        } while (claimed.length === 100 && !closed);
      } catch (error) {
        if (!closed) log.warn({ err: error }, 'air switch dispatch failed; retried at the next sweep');
      }
    }
  }

  function kick(): void {
    if (running || closed) return;
    running = drain().finally(() => {
      running = undefined;
      if (sweepDue || pending.size > 0) kick();
    });
  }

  transport.onTopicDelivered?.((topic, clientId, msgId) => {
    if (closed || !protocol.parseAirSwitchTopic(topic)) return;
    markAirSwitchDelivered(database.system, clientId, msgId).then(
      (changed) => { if (changed) counters.delivered++; },
      (error: unknown) => log.warn({ serial: clientId, msgId, err: error }, 'air switch command delivery not recorded'),
    );
  });
  const stopListening = onAirSwitchQueued(database, (id) => { pending.add(id); kick(); });
  const timer = setInterval(() => { sweepDue = true; kick(); }, options.sweepIntervalMs ?? 1000);

  return {
    async tick() {
      await running;
      sweepDue = true;
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
