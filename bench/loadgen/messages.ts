/**
 * What a generated lock says (pure): its heartbeat and its answer to a downlink, in the contract's
 * JSON envelope `{ msgId, seq, type, ts, data }` (packages/contract protocol; docs/protocol.md).
 * Answers follow the simulator's lock (apps/simulator/src/commands.ts): a downlink whose type or data
 * does not fit the contract gets code INVALID; clockSync, registerDevice and configPush get the
 * simulator's details (configPush also a configReport); any other valid type is answered OK without
 * state (the generator keeps no credential tables: it measures the platform, not the lock).
 */
import { protocol } from '@iot/contract';

/** One heartbeat's readings; the generator keeps them fixed per lock (cheap, and valid). */
export interface Readings { battery: number; rssi: number; snr: number; firmwareVersion: string; intervalS: number }

/** The heartbeat uplink with sequence number `seq` at `now` (ms). */
export function heartbeatMessage(imei: string, seq: number, now: number, readings: Readings): protocol.UplinkMessage {
  return { msgId: `${imei}:${seq}`, seq, type: 'heartbeat', ts: now, data: readings };
}

/** The lock's readings from its index in the fleet: spread, within the contract's ranges. */
export function readingsOf(index: number, intervalS: number): Readings {
  return { battery: 40 + (index % 60), rssi: -110 + (index % 40), snr: (index % 20) - 3, firmwareVersion: 'V1.2.3', intervalS };
}

/** The simulator's detail text per answered type. */
const DETAILS: Partial<Record<string, string>> = { clockSync: 'clock set', registerDevice: 'registered', configPush: 'config applied' };

/**
 * The uplinks answering downlink `payload` (bytes of the JSON envelope), numbered from `nextSeq`:
 * a commandResult, plus a configReport after a configPush. An unparseable payload is answered with
 * nothing (there is no msgId to answer), as the simulator does.
 */
export function answerDownlink(imei: string, payload: Buffer, nextSeq: number, now: number): protocol.UplinkMessage[] {
  let message: { msgId?: unknown; type?: unknown; data?: unknown };
  try {
    message = JSON.parse(payload.toString('utf8'));
  } catch {
    return [];
  }
  if (typeof message?.msgId !== 'string' || typeof message.type !== 'string') return [];
  const schema = protocol.downlinkData[message.type as protocol.DownlinkType];
  const parsed = schema?.safeParse(message.data);
  const envelope = (seq: number) => ({ msgId: `${imei}:${seq}`, seq, ts: now });
  if (!parsed?.success) {
    const detail = schema ? 'invalid data' : `unsupported type ${message.type}`;
    return [{ ...envelope(nextSeq), type: 'commandResult', data: { commandMsgId: message.msgId, code: protocol.RESULT_CODES.INVALID, detail } }];
  }
  const result: protocol.UplinkMessage = {
    ...envelope(nextSeq), type: 'commandResult', data: { commandMsgId: message.msgId, code: protocol.RESULT_CODES.OK, detail: DETAILS[message.type] ?? 'ok' },
  };
  if (message.type !== 'configPush') return [result];
  const config = (parsed.data as { config: protocol.LockConfig }).config;
  return [result, { ...envelope(nextSeq + 1), type: 'configReport', data: { config } }];
}

/**
 * The broker password of a generated lock: derived from its IMEI, so the coordinator ships only IMEIs
 * to the workers and provisioning stores sha256 of the same text in SQL (provision.ts). Predictable,
 * hence for benchmark databases only.
 */
export const loadgenSecret = (imei: string): string => `loadgen-${imei}`;
