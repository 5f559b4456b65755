/**
 * Fixtures for the gateway tests: an in-memory PGlite with two tenants and a few locks, MQTT client
 * helpers and row queries. Test-only; not imported by production code.
 */
import { eq, sql } from 'drizzle-orm';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { type Database, openDatabase } from '../db/client.js';
import { migrateDatabase } from '../db/migrate.js';
import { devices, locks, tenants } from '../db/schema.js';
import { hashDeviceSecret } from '../crypto/device-secret.js';

export const LOCK_A = '860000000000001';
export const LOCK_B = '860000000000002';
export const LOCK_DISABLED = '860000000000003';
export const SECRET_A = 'a'.repeat(32);
export const SECRET_B = 'b'.repeat(32);
export const SECRET_DISABLED = 'c'.repeat(32);
/** Enabled simulated locks; SIM[1] has lastSeq 41, battery 15 %, interval 300 s. A fourth one is disabled. */
export const SIM: [string, string, string] = ['860000000000010', '860000000000011', '860000000000012'];

/** Fresh migrated in-memory database: tenants 100/101, locks A (100), B (101), disabled, simulated ones. */
export async function openSeededDatabase(): Promise<Database> {
  const database = await openDatabase({ dataDir: 'memory://' });
  await migrateDatabase(database);
  await database.system.insert(tenants).values([{ id: 100, name: 'A' }, { id: 101, name: 'B' }]);
  const secrets = new Map<string, string>();
  const lock = (imei: string, tenantId: number, secret: string, enabled = true) => {
    secrets.set(imei, secret);
    return { imei, tenantId, enabled, name: `lock ${imei}`, model: 'ZG-N1', firmwareVersion: '1.0.0' };
  };
  const rows = await database.system.insert(locks).values([
    lock(LOCK_A, 100, SECRET_A), lock(LOCK_B, 101, SECRET_B), lock(LOCK_DISABLED, 100, SECRET_DISABLED, false),
    { ...lock(SIM[0], 100, 'x'), simulated: true },
    { ...lock(SIM[1], 101, 'x'), simulated: true, lastSeq: 41, battery: 15, heartbeatIntervalS: 300 },
    { ...lock(SIM[2], 100, 'x'), simulated: true },
    { ...lock('860000000000013', 100, 'x', false), simulated: true },
  ]).returning({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei });
  await database.system.insert(devices).values(rows.map((row) => ({
    tenantId: row.tenantId, deviceKind: 'lock', lockId: row.id, clientId: row.imei, secretHash: hashDeviceSecret(secrets.get(row.imei) as string),
  })));
  return database;
}

/** MQTT 3.1.1 client options of a device, without automatic reconnects. */
export function deviceOptions(imei: string, secret: string, extra: IClientOptions = {}): IClientOptions {
  return { protocolVersion: 4, clientId: imei, username: imei, password: secret, reconnectPeriod: 0, connectTimeout: 5000, ...extra };
}

/** Connects clients to `url` and remembers them for endAll(). */
export function mqttClients(url: string) {
  const clients: MqttClient[] = [];
  return {
    async connect(opts: IClientOptions): Promise<MqttClient> {
      const client = await mqtt.connectAsync(url, opts);
      clients.push(client);
      return client;
    },
    /** Resolves with the CONNACK return code of a refused connection (-1 without one). */
    async refusedCode(opts: IClientOptions): Promise<number> {
      const error = await mqtt.connectAsync(url, opts).then(
        (client) => { clients.push(client); throw new Error('connection was accepted'); },
        (e: { code?: number }) => e,
      );
      return error.code ?? -1;
    },
    async endAll(): Promise<void> {
      await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
    },
  };
}

/** A heartbeat payload (JSON string). */
export function heartbeatPayload(seq: number, battery = 80): string {
  return JSON.stringify({
    msgId: `m-${seq}`, seq, type: 'heartbeat', ts: Date.now(),
    data: { battery, rssi: -85, snr: 12.5, firmwareVersion: '1.2.3', intervalS: 60 },
  });
}

/** Rows of an execute() result (PGlite and node-postgres both return `{ rows }`). */
export function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export async function lockRow(database: Database, imei: string) {
  const [row] = await database.system.select().from(locks).where(eq(locks.imei, imei));
  if (!row) throw new Error(`no lock ${imei}`);
  return row;
}

/** Heartbeat rows of a lock (of one seq when given). */
export async function heartbeatCount(database: Database, imei: string, seq?: number): Promise<number> {
  const result = await database.system.execute(sql`
    select count(*)::int as n from heartbeats h join locks l on l.id = h.lock_id
    where l.imei = ${imei} and (${seq ?? null}::int is null or h.seq = ${seq ?? null}::int)`);
  return rows<{ n: number }>(result)[0]?.n ?? 0;
}

/** The SHA-256 hex of the device secret registered for `clientId` (IMEI, serial) in the device registry; undefined when unregistered. */
export async function secretHashOf(database: Database, clientId: string): Promise<string | undefined> {
  const [row] = await database.system.select({ hash: devices.secretHash }).from(devices).where(eq(devices.clientId, clientId));
  return row?.hash;
}
