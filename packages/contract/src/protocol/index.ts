/**
 * The ZIGUANG device protocol over MQTT (ARCHITECTURE.md "Device protocol"; docs/protocol.md).
 * Topics: `zg/{imei}/up` device -> platform, `zg/{imei}/down` platform -> device.
 * Payload: JSON `{ msgId, seq, type, ts, data }`.
 */
import { z } from 'zod';

/** IMEI: 15 digits (3GPP TS 23.003). */
export const imeiSchema = z.string().regex(/^\d{15}$/, 'IMEI must be 15 digits');

export const uplinkTopic = (imei: string) => `zg/${imei}/up`;
export const downlinkTopic = (imei: string) => `zg/${imei}/down`;
/** Subscription of the platform to every uplink; `$share/platform/` is prepended with an external broker. */
export const UPLINK_WILDCARD = 'zg/+/up';
/** Parses `zg/{imei}/{direction}`; undefined for anything else. */
export function parseDeviceTopic(topic: string): { imei: string; direction: 'up' | 'down' } | undefined {
  const match = /^zg\/(\d{15})\/(up|down)$/.exec(topic);
  return match ? { imei: match[1] as string, direction: match[2] as 'up' | 'down' } : undefined;
}

/** Largest accepted payload, bytes; larger ones are dropped and counted. */
export const MAX_PAYLOAD_BYTES = 4096;

const messageBase = {
  /** Unique id chosen by the sender (uplink: device; downlink: platform command id). */
  msgId: z.string().min(1).max(64),
  /** Per-device uplink sequence number, strictly increasing; duplicates are dropped by (device, seq). int4. */
  seq: z.number().int().nonnegative().max(2 ** 31 - 1),
  /** Device or platform clock, ms since epoch; at most year 9999 (fits timestamptz). */
  ts: z.number().int().nonnegative().max(253_402_300_799_000),
};

export const heartbeatData = z.object({
  /** %. */
  battery: z.number().int().min(0).max(100),
  /** dBm (NB-IoT: about -140 to -44). */
  rssi: z.number().int().min(-150).max(0),
  /** dB. */
  snr: z.number().min(-30).max(40),
  firmwareVersion: z.string().min(1).max(32),
  /** Reporting interval of the lock, s. */
  intervalS: z.number().int().min(1).max(86_400),
});
export type HeartbeatData = z.infer<typeof heartbeatData>;

export const heartbeatMessage = z.object({ ...messageBase, type: z.literal('heartbeat'), data: heartbeatData });

/** Every uplink message; new types are added here as the gateway learns them. */
export const uplinkMessage = z.discriminatedUnion('type', [heartbeatMessage]);
export type UplinkMessage = z.infer<typeof uplinkMessage>;

/** Downlink command states (ThingsBoard persistent RPC / Huawei cached commands). */
export const COMMAND_STATES = ['QUEUED', 'SENT', 'DELIVERED', 'SUCCESSFUL', 'FAILED', 'TIMEOUT', 'EXPIRED', 'CANCELED'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
