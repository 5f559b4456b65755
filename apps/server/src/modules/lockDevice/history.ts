/**
 * The demo fleet as its lived-in history needs it (demo/history/; table `locks`, owned by this
 * module): which simulated locks there are, and their readings after the seeded history.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { locks } from '../../db/schema.js';

/** The simulated locks, ordered by id. */
export async function simulatedLocks(db: Executor) {
  return db.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei, name: locks.name, model: locks.model, firmwareVersion: locks.firmwareVersion })
    .from(locks).where(eq(locks.simulated, true)).orderBy(asc(locks.id));
}

/** A lock's readings at the end of its seeded history; lastHeartbeatAt ms since epoch, battery %, rssi dBm, snr dB. */
export interface SeededReadings {
  lockId: number; seq: number; battery: number; rssi: number; snr: number; lastHeartbeatAt: number;
}

/**
 * Sets each lock's latest readings, last heartbeat time and last seq (the simulated lock goes on from
 * seq + 1 and from this battery). Presence stays as it was: the next live heartbeat announces it.
 */
export async function seedLockReadings(db: Executor, readings: readonly SeededReadings[]): Promise<void> {
  if (readings.length === 0) return;
  await db.execute(sql`
    update locks l set battery = v.battery, rssi = v.rssi, snr = v.snr, last_heartbeat_at = v.at, last_uplink_at = v.at,
      last_seq = greatest(l.last_seq, v.seq)
    from unnest(${sql.param(readings.map((r) => r.lockId))}::int[], ${sql.param(readings.map((r) => r.seq))}::int[],
      ${sql.param(readings.map((r) => r.battery))}::int[], ${sql.param(readings.map((r) => r.rssi))}::int[],
      ${sql.param(readings.map((r) => r.snr))}::real[], ${sql.param(readings.map((r) => new Date(r.lastHeartbeatAt).toISOString()))}::timestamptz[])
      as v(lock_id, seq, battery, rssi, snr, at)
    where l.id = v.lock_id`);
}
