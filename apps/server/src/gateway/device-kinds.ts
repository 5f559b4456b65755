/**
 * The device kinds the gateway serves, one entry each: what names a device (its MQTT username and
 * client id), its topics, the uplink schema and the function that stores a
 * batch of its uplinks through the modules owning the tables, and its command dispatch policy
 * (outbox/device-dispatcher.ts runs every kind's). Every kind's credentials are in the one device
 * registry (`devices`, modules/device). Authentication (auth.ts), the topic rules, the
 * external broker's subscriptions and device sessions (external-broker.ts, session-cache.ts), the
 * ingest lanes (ingest.ts) and the dispatchers (index.ts) iterate this table and never name a kind, so
 * a third kind (a water meter, a gateway-attached BLE lock) is a device type, a protocol file in the
 * contract, its module's store function and dispatch policy and one entry here, not a fork of the
 * gateway.
 */
import { DEVICE_KINDS, type DeviceKind, protocol } from '@iot/contract';
import { lazySecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/client.js';
import type { DeviceCredentials } from '../modules/device/credentials.js';
import { commandFollowers } from '../wiring.js';
import { applyAirSwitchUplinks } from '../modules/airSwitch/ingest.js';
import type { GatewayLog } from './log.js';
import { startAirSwitchDispatcher } from './outbox/air-switch-dispatcher.js';
import type { DeviceDispatcher } from './outbox/device-dispatcher.js';
import { awakeMsFor, type DispatcherTuning, type OutboxConfig, startDispatcher } from './outbox/dispatcher.js';
import type { DownlinkTransport } from './transport.js';
import { storeUplinks } from './uplink-store.js';

/** An authenticated lock (set at MQTT CONNECT). */
export interface LockSession {
  kind: 'lock';
  lockId: number;
  tenantId: number;
  imei: string;
}

/** An authenticated air switch; `serial` is its MQTT client id and username. */
export interface AirSwitchSession {
  kind: 'airSwitch';
  airSwitchId: number;
  tenantId: number;
  serial: string;
}

/** Any authenticated device. */
export type GatewaySession = LockSession | AirSwitchSession;
type SessionOf<K extends DeviceKind> = Extract<GatewaySession, { kind: K }>;

/** Each kind's uplink message (the contract's protocol files). */
interface UplinkMessages {
  lock: protocol.UplinkMessage;
  airSwitch: protocol.AirSwitchUplinkMessage;
}

/** What every uplink message carries (docs/protocol.md): sequence number, device clock (ms), data. */
export interface UplinkMessageBase { seq: number; ts: number; data: unknown }

/** One validated uplink of an authenticated device of kind K: its session's fields and the message. */
export type UplinkOf<K extends DeviceKind> = SessionOf<K> & { message: UplinkMessages[K] };

/** What authenticating a device needs: its row in the device registry (modules/device/credentials.ts). */
export type { DeviceCredentials };

/** What starting a kind's command dispatcher over the gateway's transport needs. */
export interface DispatchContext {
  database: Database;
  transport: DownlinkTransport;
  log: GatewayLog;
  config: OutboxConfig;
  /** Tests and benchmarks (defaults from config). */
  tuning?: DispatcherTuning;
}

/** A zod-like schema: only safeParse is used. */
interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** What a kind declares (one per kind, below). */
interface GatewayKindSpec<K extends DeviceKind> {
  kind: K;
  /** The device's name (MQTT username = client id): `label` for log lines, `noun` for refusals. */
  identity: { label: string; noun: string; schema: { safeParse(value: unknown): { success: boolean } } };
  topics: {
    uplink(id: string): string;
    downlink(id: string): string;
    /** The platform's subscription to every uplink of the kind (external broker). */
    uplinkWildcard: string;
    parse(topic: string): { id: string; direction: 'up' | 'down' } | undefined;
  };
  session(row: DeviceCredentials): SessionOf<K>;
  /** The device's name and row id in a session. */
  keyOf(session: SessionOf<K>): string;
  deviceIdOf(session: SessionOf<K>): number;
  uplinkSchema: Schema<UplinkMessages[K]>;
  /** Stores a batch in one transaction; returns how many uplinks were new. Rejects, storing nothing, when the database fails. */
  store(database: Database, records: readonly UplinkOf<K>[], context: { timeZone: string }): Promise<number>;
  /** Starts the kind's command dispatcher; the gateway wakes it with the devices of each committed batch (they are reachable). */
  startDispatcher(context: DispatchContext): DeviceDispatcher;
}

/**
 * A kind as the gateway uses it: the same functions over any session and message. The gateway hands a
 * kind only sessions it authenticated and messages its own schema parsed (ingest.ts), which is what
 * makes the casts of `erase` sound.
 */
export interface GatewayKind extends Omit<GatewayKindSpec<DeviceKind>, 'kind' | 'session' | 'keyOf' | 'deviceIdOf' | 'uplinkSchema' | 'store'> {
  kind: DeviceKind;
  session(row: DeviceCredentials): GatewaySession;
  keyOf(session: GatewaySession): string;
  deviceIdOf(session: GatewaySession): number;
  uplinkSchema: Schema<UplinkMessageBase>;
  store(database: Database, records: readonly (GatewaySession & { message: UplinkMessageBase })[], context: { timeZone: string }): Promise<number>;
}

const erase = <K extends DeviceKind>(spec: GatewayKindSpec<K>): GatewayKind => spec as unknown as GatewayKind;

const lock = erase<'lock'>({
  kind: 'lock',
  identity: { label: 'imei', noun: 'lock', schema: protocol.imeiSchema },
  topics: { uplink: protocol.uplinkTopic, downlink: protocol.downlinkTopic, uplinkWildcard: protocol.UPLINK_WILDCARD,
    parse: (topic) => { const parsed = protocol.parseDeviceTopic(topic); return parsed && { id: parsed.imei, direction: parsed.direction }; } },
  session: (row) => ({ kind: 'lock', lockId: row.id, tenantId: row.tenantId, imei: row.key }),
  keyOf: (session) => session.imei,
  deviceIdOf: (session) => session.lockId,
  uplinkSchema: protocol.uplinkMessage,
  store: async (database, records) => (await storeUplinks(database, records)).inserted,
  startDispatcher: ({ database, transport, log, config, tuning }) => startDispatcher({
    // Opened lazily: only a command with a secret field needs the key (SECRET_KEY or DATA_DIR/secret.key).
    database, transport, box: lazySecretBox(config), log, followers: commandFollowers,
    responseTimeoutMs: config.COMMAND_RESPONSE_TIMEOUT_MS, sweepIntervalMs: config.COMMAND_SWEEP_MS,
    awakeMs: config.WAKE_WINDOW_MS === undefined ? undefined : awakeMsFor(config.WAKE_WINDOW_MS),
    ...tuning,
  }),
});

const airSwitch = erase<'airSwitch'>({
  kind: 'airSwitch',
  identity: { label: 'serial', noun: 'air switch', schema: protocol.airSwitchIdSchema },
  topics: { uplink: protocol.airSwitchUplinkTopic, downlink: protocol.airSwitchDownlinkTopic, uplinkWildcard: protocol.AIR_SWITCH_UPLINK_WILDCARD, parse: protocol.parseAirSwitchTopic },
  session: (row) => ({ kind: 'airSwitch', airSwitchId: row.id, tenantId: row.tenantId, serial: row.key }),
  keyOf: (session) => session.serial,
  deviceIdOf: (session) => session.airSwitchId,
  uplinkSchema: protocol.airSwitchUplinkMessage,
  store: (database, records, { timeZone }) => database.transaction((tx) => applyAirSwitchUplinks(tx, records, { timeZone })),
  startDispatcher: ({ database, transport, log, config, tuning }) =>
    startAirSwitchDispatcher({ database, transport, log, sweepIntervalMs: tuning?.sweepIntervalMs ?? config.COMMAND_SWEEP_MS }),
});

/** Each kind by name: the contract's DEVICE_KINDS, every one (a kind added there fails the typecheck here). */
const BY_KIND: Record<DeviceKind, GatewayKind> = { lock, airSwitch };

/** Every kind of the contract's DEVICE_KINDS, in its order (a CONNECT's username is tried against their name schemas: they do not overlap). */
export const GATEWAY_KINDS: readonly GatewayKind[] = DEVICE_KINDS.map((kind) => BY_KIND[kind]);

/** The kind of `session`. */
export function kindOf(session: GatewaySession): GatewayKind {
  return BY_KIND[session.kind];
}

/** The kind, device name and direction of a device topic (`zg/{imei}/up`, `as/{serial}/down`, ...); undefined for any other topic. */
export function parseDeviceTopic(topic: string): { kind: GatewayKind; id: string; direction: 'up' | 'down' } | undefined {
  for (const kind of GATEWAY_KINDS) {
    const parsed = kind.topics.parse(topic);
    if (parsed) return { kind, ...parsed };
  }
  return undefined;
}
