/**
 * The air switches' dispatch policy (outbox/device-dispatcher.ts runs the loop; modules/command/
 * air-switch.ts writes their rows of the one `commands` table). Air switches are always online, so a queued command is sent at once:
 * on its `command.queued` event (from any instance), at the earliest due time (a response timeout, a
 * queued command's time to live) and at the safety sweep (default 5 min: restarts, lost notifications, a
 * switch that reconnected). A claimed command is SENT before it is published on `as/{serial}/down`;
 * when the transport knows the switch is not connected the claim is undone (QUEUED, EXPIRED at its
 * expires_at, protocol.AIR_SWITCH_COMMAND_TTL_MS after it was queued). PUBACKs seen by the transport mark it DELIVERED; the sweep times
 * out commands without an answer (never resent: switching power twice minutes apart is not safe).
 */
import { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { SAFETY_SWEEP_MS } from '../../config.js';
import {
  type ClaimedAirSwitchCommand, claimAirSwitchCommands, markAirSwitchDelivered, releaseAirSwitchCommand, sweepAirSwitchCommands,
} from '../../modules/command/air-switch.js';
import type { GatewayLog } from '../log.js';
import type { DownlinkTransport } from '../transport.js';
import { type DeviceDispatcher, type SendOutcome, startDeviceDispatcher } from './device-dispatcher.js';

/** Starts the air switches' dispatcher over `transport` (it sleeps between due times until close(); no retries: `retried` stays 0). */
export function startAirSwitchDispatcher(options: {
  database: Database; transport: DownlinkTransport; log: GatewayLog; sweepIntervalMs?: number; responseTimeoutMs?: number;
}): DeviceDispatcher {
  const { database, transport, log } = options;
  const responseTimeoutMs = options.responseTimeoutMs ?? protocol.AIR_SWITCH_RESPONSE_TIMEOUT_MS;

  async function send(command: ClaimedAirSwitchCommand): Promise<SendOutcome> {
    const topic = protocol.airSwitchDownlinkTopic(command.serial);
    if (transport.isSubscribed?.(command.serial, topic) === false || !transport.publishTo) {
      await releaseAirSwitchCommand(database.system, command.id);
      return 'notConnected';
    }
    const message: protocol.AirSwitchDownlinkMessage = { msgId: command.msgId, type: command.type, ts: Date.now(), data: command.data };
    try {
      await transport.publishTo(topic, message);
      return 'sent';
    } catch (error) {
      log.warn({ commandId: command.id, serial: command.serial, err: error }, 'air switch downlink publish failed; TIMEOUT follows');
      return 'publishFailed';
    }
  }

  return startDeviceDispatcher<ClaimedAirSwitchCommand>({
    kind: 'airSwitch',
    name: 'air switch dispatcher',
    batch: 100,
    safetyMs: options.sweepIntervalMs ?? SAFETY_SWEEP_MS,
    sweep: () => sweepAirSwitchCommands(database.system, { responseTimeoutMs }),
    claim: (airSwitchIds, limit) => claimAirSwitchCommands(database.system, { airSwitchIds, limit }),
    send,
    async nextDue() {
      const [row] = rowsOf<{ ms: number | null; queued: boolean }>(await database.system.execute(sql`
        select extract(epoch from least(
          min(sent_at) filter (where state in ('SENT', 'DELIVERED')) + make_interval(secs => ${responseTimeoutMs / 1000}),
          min(expires_at) filter (where state = 'QUEUED')) - now()) * 1000 as ms,
          bool_or(state = 'QUEUED') is true as queued
        from commands where device_kind = 'airSwitch' and state in ('QUEUED', 'SENT', 'DELIVERED')`));
      return { ms: row?.ms == null ? null : Number(row.ms), queued: row?.queued ?? false };
    },
    // A claim given back is QUEUED until its time to live: look again after a response timeout.
    afterWake: () => responseTimeoutMs,
    listenDelivered(record) {
      transport.onTopicDelivered?.((topic, clientId, msgId) => {
        if (!protocol.parseAirSwitchTopic(topic)) return;
        record(() => markAirSwitchDelivered(database.system, clientId, msgId), { serial: clientId, msgId });
      });
    },
  }, { database, log });
}
