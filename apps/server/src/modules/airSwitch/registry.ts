/**
 * The air switch registry (tables `air_switches`, `air_switch_circuits`, owned by this module): register
 * (circuits from the model's device type, its electrical ratings, device secret returned once and stored as its
 * SHA-256 in the device registry, modules/device), list and detail with live readings and the simulator's
 * fresh credentials. Errors: 400 for a model that is no air switch type of the data centre; 409 for a
 * serial already registered (in any data centre, without saying which); 404 for an id not in the tenant.
 */
import { AIR_SWITCH_MODELS, type AirSwitchRecord, type CircuitRecord, type Page, type protocol } from '@iot/contract';
import { and, asc, count, eq, ilike, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { Database, Executor, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { airSwitchCircuits, airSwitches, deviceTypes } from '../../db/schema.js';
import { containsPattern, iso } from '../../db/sql.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { issueDeviceSecrets, registerDevice } from '../device/registry.js';
import { ratingsOfModels } from '../deviceType/ratings.js';

/**
 * A switch counts as online when its last uplink is at most this old, ms: 3 telemetry intervals of
 * 30 s (the simulated switches' SIM_AIR_SWITCH_INTERVAL_S; it was 10 s until the idle CPU budget of bench/idle.ts).
 */
export const ONLINE_WITHIN_MS = 90_000;

/** Registers a switch with the circuits of its model; returns its id and device secret (shown once). */
export async function registerAirSwitch(tx: Tx, tenantId: number, input: { serial: string; name: string; model: string; location: string; simulated: boolean }): Promise<{ id: number; secret: string }> {
  const [type] = await tx.select({ model: deviceTypes.model, circuits: deviceTypes.circuits }).from(deviceTypes)
    .where(and(eq(deviceTypes.model, input.model), eq(deviceTypes.kind, 'airSwitch')));
  if (!type) throw fieldError('body.model', `空开设备类型 ${input.model} 不存在`, `There is no air switch device type ${input.model}`);
  const circuits = type.circuits ?? AIR_SWITCH_MODELS[input.model]?.circuits ?? 1;
  let id: number;
  let secret: string;
  try {
    const [row] = await tx.insert(airSwitches).values({ tenantId, ...input }).returning({ id: airSwitches.id });
    id = (row as { id: number }).id;
    secret = await registerDevice(tx, tenantId, { kind: 'airSwitch', id }, input.serial);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('CONFLICT', [{ field: 'body.serial', message: { 'zh-CN': '该序列号已登记', 'en-US': 'This serial number is already registered' } }]);
    throw error;
  }
  await tx.insert(airSwitchCircuits).values(Array.from({ length: circuits }, (_, i) => ({
    tenantId, airSwitchId: id, circuit: i + 1, name: `L${i + 1}`,
  })));
  return { id, secret };
}

const num = (value: number | null) => (value === null ? null : Number(value));

function circuitRecord(row: typeof airSwitchCircuits.$inferSelect): CircuitRecord {
  const desired = (row.desiredThresholds ?? {}) as protocol.CircuitThresholds;
  const reported = (row.reportedThresholds ?? null) as protocol.CircuitThresholds | null;
  const inSync = Object.entries(desired).every(([key, value]) => reported?.[key as keyof protocol.CircuitThresholds] === value);
  return {
    id: row.id, circuit: row.circuit, name: row.name, state: row.state as CircuitRecord['state'], tripReason: row.tripReason as CircuitRecord['tripReason'],
    voltage: num(row.voltage), current: num(row.current), power: num(row.power), powerFactor: num(row.powerFactor), energyKwh: num(row.energyKwh),
    leakageMa: num(row.leakageMa), temperatureC: num(row.temperatureC), readingAt: iso(row.readingAt),
    desiredThresholds: desired, reportedThresholds: reported, thresholdsInSync: inSync,
  };
}

async function withCircuits(tx: Executor, rows: (typeof airSwitches.$inferSelect)[]): Promise<AirSwitchRecord[]> {
  if (rows.length === 0) return [];
  const circuits = await tx.select().from(airSwitchCircuits).where(inArray(airSwitchCircuits.airSwitchId, rows.map((r) => r.id))).orderBy(asc(airSwitchCircuits.circuit));
  const ratings = await ratingsOfModels(tx, rows.map((row) => row.model));
  const now = Date.now();
  return rows.map((row) => ({
    id: row.id, serial: row.serial, name: row.name, model: row.model, location: row.location, enabled: row.enabled, simulated: row.simulated,
    online: row.lastUplinkAt !== null && now - new Date(row.lastUplinkAt).getTime() <= ONLINE_WITHIN_MS,
    lastUplinkAt: iso(row.lastUplinkAt), createdAt: iso(row.createdAt),
    circuits: circuits.filter((c) => c.airSwitchId === row.id).map(circuitRecord),
    ratings: ratings.get(row.model)?.electrical ?? null,
  }));
}

/** A page of the data centre's switches (keyword: serial, name or location), by id, with their circuits. */
export async function listAirSwitches(tx: Executor, q: { keyword?: string; current: number; size: number }): Promise<Page<AirSwitchRecord>> {
  const where = q.keyword ? or(ilike(airSwitches.serial, containsPattern(q.keyword)), ilike(airSwitches.name, containsPattern(q.keyword)), ilike(airSwitches.location, containsPattern(q.keyword))) : undefined;
  const [total] = await tx.select({ n: count() }).from(airSwitches).where(where);
  const rows = await tx.select().from(airSwitches).where(where).orderBy(asc(airSwitches.id)).limit(q.size).offset((q.current - 1) * q.size);
  return { records: await withCircuits(tx, rows), total: total?.n ?? 0, current: q.current, size: q.size };
}

/** One switch of the data centre with its circuits; 404 when not in the tenant. */
export async function getAirSwitch(tx: Executor, id: number): Promise<AirSwitchRecord> {
  const rows = await tx.select().from(airSwitches).where(eq(airSwitches.id, id));
  const [record] = await withCircuits(tx, rows);
  if (!record) throw new ApiError('NOT_FOUND');
  return record;
}

/** The circuit `circuit` of switch `id` in the data centre, row locked; 404 when either is missing. */
export async function lockedCircuit(tx: Tx, id: number, circuit: number) {
  const [row] = await tx.select().from(airSwitchCircuits).where(and(eq(airSwitchCircuits.airSwitchId, id), eq(airSwitchCircuits.circuit, circuit))).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Sets a circuit's desired thresholds (merged over the current ones). */
export async function setDesiredThresholds(tx: Tx, circuitId: number, thresholds: protocol.CircuitThresholds): Promise<void> {
  await tx.update(airSwitchCircuits).set({ desiredThresholds: sql`${airSwitchCircuits.desiredThresholds} || ${JSON.stringify(thresholds)}::jsonb` })
    .where(eq(airSwitchCircuits.id, circuitId));
}

const DEMO_NAMES = [['办公室配电箱', 'Office'], ['商铺配电箱', 'Shop'], ['住宅配电箱', 'Home']] as const;

/**
 * DEMO=on: makes sure each of `tenantIds` has `count` simulated ZG-AS4 switches (serial AS{tenant}{n},
 * named by their load profile in turn, 30 days of history: demo/history/airSwitches.ts); existing ones are kept.
 * Returns how many it registered.
 * @public demo/index.ts (imported dynamically) calls it.
 */
export async function ensureDemoAirSwitches(database: Database, tenantIds: readonly number[], count: number, timeZone: string): Promise<number> {
  const { backfillDemoHistory } = await import('../../demo/history/airSwitches.js');
  let added = 0;
  for (const tenantId of tenantIds) {
    for (let n = 1; n <= count; n++) {
      const serial = `AS${String(tenantId).padStart(4, '0')}${String(n).padStart(6, '0')}`;
      const [name] = DEMO_NAMES[(n - 1) % DEMO_NAMES.length] ?? DEMO_NAMES[0];
      const [exists] = await database.system.select({ id: airSwitches.id }).from(airSwitches).where(eq(airSwitches.serial, serial));
      if (exists) continue;
      await database.withTenant(tenantId, async (tx) => {
        const { id } = await registerAirSwitch(tx, tenantId, { serial, name: `${name} ${n}`, model: 'ZG-AS4', location: `A栋 ${n}层`, simulated: true });
        await backfillDemoHistory(tx, id, timeZone);
      });
      added++;
    }
  }
  return added;
}

/** A simulated air switch as the simulator needs it. */
export interface SimulatedAirSwitchDevice {
  serial: string;
  tenantId: number;
  model: string;
  circuits: number;
  lastSeq: number | null;
  secret: string;
}

/**
 * New secrets for every enabled simulated switch not among `except` (their earlier secrets stop working).
 * @public demo/index.ts (imported dynamically) starts the simulated switches with them.
 */
export async function issueAirSwitchSimulatorCredentials(database: Database, except: readonly string[] = []): Promise<SimulatedAirSwitchDevice[]> {
  return database.transaction(async (tx) => {
    const rows = await tx.select({ id: airSwitches.id, serial: airSwitches.serial, tenantId: airSwitches.tenantId, model: airSwitches.model, lastSeq: airSwitches.lastSeq })
      .from(airSwitches).where(and(eq(airSwitches.simulated, true), eq(airSwitches.enabled, true), except.length ? notInArray(airSwitches.serial, [...except]) : undefined))
      .orderBy(asc(airSwitches.id)).for('update');
    const secrets = await issueDeviceSecrets(tx, 'airSwitch', rows.map((row) => row.id));
    const out: SimulatedAirSwitchDevice[] = [];
    for (const [index, row] of rows.entries()) {
      const secret = secrets[index] as string;
      const [n] = await tx.select({ n: count() }).from(airSwitchCircuits).where(eq(airSwitchCircuits.airSwitchId, row.id));
      out.push({ serial: row.serial, tenantId: row.tenantId, model: row.model, circuits: n?.n ?? 1, lastSeq: row.lastSeq, secret });
    }
    return out;
  });
}
