/**
 * Uplink ingest, independent of the MQTT transport: the embedded broker (broker.ts) calls it from
 * aedes' authorizePublish; an external-broker subscriber can call it the same way and ack afterwards.
 *
 * `ingest()` resolves once the message is committed (or deliberately dropped), so the transport may
 * acknowledge it then; it rejects when the message could not be stored (database failure, full
 * queue), so the transport must not acknowledge it and the device will retry.
 */
import { type DeviceKind, protocol } from '@iot/contract';
import type { Database } from '../db/client.js';
import { type Batcher, type BatcherStats, createLanes } from './batcher.js';
import { GATEWAY_KINDS, type GatewaySession, kindOf, type UplinkMessageBase } from './device-kinds.js';
import { type GatewayLog, throttled } from './log.js';

export type IngestOutcome = 'stored' | 'dropped';

export interface IngestStats {
  /** Uplinks handed to ingest(). */
  received: number;
  /** Valid uplinks committed (new rows plus duplicates). */
  committed: number;
  /** Committed uplinks whose (lock, seq) was already stored. */
  duplicates: number;
  /** Uplinks dropped as not valid JSON / not a valid message / out of storable range. */
  droppedMalformed: number;
  /** Uplinks dropped for exceeding protocol.MAX_PAYLOAD_BYTES. */
  droppedOversized: number;
  /** Uplinks that failed to be stored (database error, full queue); never acknowledged. */
  failed: number;
  queue: BatcherStats;
}

export interface Ingest {
  /** Validates and stores one uplink payload of `device`. See the module comment for the contract. */
  ingest(device: GatewaySession, payload: Buffer): Promise<IngestOutcome>;
  stats(): IngestStats;
  /** Writes what is queued, then refuses further uplinks. */
  close(): Promise<void>;
}

export interface IngestOptions {
  database: Database;
  log: GatewayLog;
  /**
   * Group commits running at once (batcher.ts createLanes; a lock always uses the same one). Default:
   * INGEST_WRITERS_POSTGRES on PostgreSQL, 1 on PGlite (one connection: more would only interleave).
   */
  writers?: number;
  /** Batcher tuning per writer (defaults: 500 items, 20 ms, 10,000 queued). */
  maxBatch?: number;
  maxDelayMs?: number;
  maxQueue?: number;
  /**
   * Called after each commit with the kind, the devices (row ids) and the uplinks it stored (e.g. to
   * dispatch commands to devices now awake); `records` are that kind's UplinkOf (device-kinds.ts).
   */
  onCommitted?: (kind: DeviceKind, deviceIds: readonly number[], records: readonly unknown[]) => void;
  /** IANA zone of the air switches' daily energy rollup (config TELEMETRY_TIME_ZONE; default Asia/Shanghai). */
  telemetryTimeZone?: string;
}

const INT4_MAX = 2_147_483_647;
/** 9999-12-31T23:59:59.999Z, ms: the largest device clock PostgreSQL timestamps hold comfortably. */
const TS_MAX = 253_402_300_799_999;
/** The six bytes of a JSON-escaped NUL character. */
const ESCAPED_NUL = Buffer.from('\\u0000');

/**
 * Default concurrent group commits on PostgreSQL (3 of the pool's 10 connections): bench/ingest.ts
 * persisted 9.2k heartbeats/s with 1, 10.9k with 2, 11.9k with 3 on the 2-core development machine.
 */
export const INGEST_WRITERS_POSTGRES = 3;

type IngestRecord = GatewaySession & { message: UplinkMessageBase };

/**
 * Creates the ingest pipeline: validation against the device kind's uplink schema -> that kind's
 * bounded group-commit lanes (a device always uses the same lane) -> the kind's store (device-kinds.ts).
 */
export function createIngest(options: IngestOptions): Ingest {
  const { database, log } = options;
  const counters = { received: 0, committed: 0, duplicates: 0, droppedMalformed: 0, droppedOversized: 0, failed: 0 };
  const writers = options.writers ?? (database.kind === 'postgres' ? INGEST_WRITERS_POSTGRES : 1);
  const context = { timeZone: options.telemetryTimeZone ?? 'Asia/Shanghai' };
  const lanes = new Map<DeviceKind, Batcher<IngestRecord>>(GATEWAY_KINDS.map((kind) => [kind.kind, createLanes<IngestRecord>(writers, (record) => kind.deviceIdOf(record), {
    maxBatch: options.maxBatch,
    maxDelayMs: options.maxDelayMs,
    maxQueue: options.maxQueue,
    async write(records) {
      const inserted = await kind.store(database, records, context);
      counters.committed += records.length;
      counters.duplicates += records.length - inserted;
      options.onCommitted?.(kind.kind, [...new Set(records.map((record) => kind.deviceIdOf(record)))], records);
    },
  })]));
  const warnDrop = throttled(log, 20, 10_000);

  async function ingest(device: GatewaySession, payload: Buffer): Promise<IngestOutcome> {
    counters.received++;
    const kind = kindOf(device);
    const id = () => ({ [kind.identity.label]: kind.keyOf(device) }); // for log lines only
    if (payload.length > protocol.MAX_PAYLOAD_BYTES) {
      counters.droppedOversized++;
      warnDrop({ ...id(), bytes: payload.length }, 'uplink dropped: payload too large');
      return 'dropped';
    }
    const parsed = parseUplink(payload, kind.uplinkSchema);
    if (!parsed.ok) {
      counters.droppedMalformed++;
      warnDrop({ ...id(), bytes: payload.length, reason: parsed.reason }, 'uplink dropped: malformed');
      return 'dropped';
    }
    const message = parsed.message;
    try {
      await (lanes.get(kind.kind) as Batcher<IngestRecord>).add({ ...device, message });
    } catch (error) {
      counters.failed++;
      log.warn({ ...id(), seq: message.seq, err: error }, 'uplink not stored; left unacknowledged');
      throw error;
    }
    return 'stored';
  }

  return {
    ingest,
    stats: () => ({ ...counters, queue: sumStats([...lanes.values()].map((lane) => lane.stats())) }),
    close: async () => { await Promise.all([...lanes.values()].map((lane) => lane.close())); },
  };
}

/** Queue counters of every kind's lanes together. */
function sumStats(all: readonly BatcherStats[]): BatcherStats {
  const sum = { ...(all[0] as BatcherStats) };
  for (const stats of all.slice(1)) for (const key of Object.keys(sum) as (keyof BatcherStats)[]) sum[key] += stats[key];
  return sum;
}

/**
 * Parses and validates an uplink payload against `schema` (default protocol.uplinkMessage; air switches:
 * protocol.airSwitchUplinkMessage) plus what the database can
 * store (seq fits int4, ts a valid timestamp, no NUL in text). Never throws.
 */
export function parseUplink<M extends { seq: number; ts: number; data: unknown } = protocol.UplinkMessage>(
  payload: Buffer,
  schema: { safeParse(value: unknown): { success: true; data: M } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } } = protocol.uplinkMessage as never,
): { ok: true; message: M } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { ok: false, reason: issue ? `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}` : 'invalid' };
  }
  const message = result.data;
  if (message.seq > INT4_MAX) return { ok: false, reason: 'seq: too large' };
  if (message.ts > TS_MAX) return { ok: false, reason: 'ts: too large' };
  // PostgreSQL text cannot hold NUL. JSON can only carry one escaped (a raw control character is not
  // valid JSON), so only payloads holding the bytes `\u0000` need the exact check of the parsed data.
  if (payload.includes(ESCAPED_NUL) && JSON.stringify(message.data).includes('\\u0000')) return { ok: false, reason: 'data: NUL character in text' };
  return { ok: true, message };
}
