/**
 * The downlink a command becomes: `protocol.downlinkMessage` `{ msgId, type, ts, data }` on
 * `zg/{imei}/down`, QoS 1. `ts` is the claim time (sent_at), so the payload is reproducible for the
 * logs: the vendor view (/iot/v1/zg/logDownPara) shows this message, the ISP view
 * (/iot/v1/isp/logDownPara) the MQTT envelope around it; both with secrets masked (same size).
 * clockSync carries the time of sending, not of queueing (a queued sync may wait hours for a wake-up).
 */
import { protocol } from '@iot/contract';
import type { SecretBox } from '../../crypto/secret-box.js';
import { masked, reveal } from './secrets.js';

export interface CommandForPayload {
  msgId: string;
  type: protocol.DownlinkType;
  /** As stored (secret fields sealed). */
  data: Record<string, unknown>;
  /** ms since epoch; null when never sent. */
  sentAtMs: number | null;
}

function message(command: CommandForPayload, data: Record<string, unknown>): { msgId: string; type: protocol.DownlinkType; ts: number | null; data: Record<string, unknown> } {
  const ts = command.sentAtMs;
  const withTime = command.type === 'clockSync' && ts !== null ? { ...data, time: ts } : data;
  return { msgId: command.msgId, type: command.type, ts, data: withTime };
}

/** The message to publish (secrets in clear). Throws when a secret cannot be decrypted. */
export function buildDownlink(command: CommandForPayload & { sentAtMs: number }, box: SecretBox): protocol.DownlinkMessage {
  return protocol.downlinkMessage.parse(message(command, reveal(command.data, box)));
}

/** The message as shown to operators (secrets masked); ts null when never sent. */
export function maskedDownlink(command: CommandForPayload) {
  return message(command, masked(command.data));
}

/** The MQTT envelope as shown to operators: topic, QoS, payload text (masked) and its size in bytes. */
export function maskedEnvelope(imei: string, command: CommandForPayload) {
  const payload = JSON.stringify(maskedDownlink(command));
  return { topic: protocol.downlinkTopic(imei), qos: 1 as const, retain: false as const, bytes: Buffer.byteLength(payload), payload };
}
