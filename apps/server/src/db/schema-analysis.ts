/**
 * Analysis rollups, written only by modules/analysis. Counters per metric:
 * - metric `heartbeat` (n heartbeats), `battery` and `rssi` (n readings, sum/min/max of % / dBm),
 *   `unlock.<method>` (successful unlocks), `unlock_failed` (failed attempts), `alarm` (alerts raised,
 *   every kind) and `alarm.<kind>`; per tenant and day also `reporting` (locks with a heartbeat that day).
 * - hour: start of the hour (timestamptz) the event belongs to (device time, see modules/analysis/rollup.ts);
 *   day: the calendar day in the data centre's time zone (tenants.time_zone, default Asia/Shanghai).
 * Tenant tables carry row-level security (migration *_analysis_rls.sql).
 */
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';

const counters = () => ({
  metric: text('metric').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
  sum: bigint('sum', { mode: 'number' }).notNull().default(0),
  min: integer('min'),
  max: integer('max'),
});

/** Per tenant and hour. */
export const analysisTenantHour = pgTable('analysis_tenant_hour', {
  tenantId: integer('tenant_id').notNull(),
  hour: timestamp('hour', { withTimezone: true }).notNull(),
  ...counters(),
}, (t) => [primaryKey({ columns: [t.tenantId, t.hour, t.metric] })]);

/** Per tenant and day. */
export const analysisTenantDay = pgTable('analysis_tenant_day', {
  tenantId: integer('tenant_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  ...counters(),
}, (t) => [primaryKey({ columns: [t.tenantId, t.day, t.metric] })]);

/** Per lock and day (top 10s, battery trends). */
export const analysisLockDay = pgTable('analysis_lock_day', {
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  ...counters(),
}, (t) => [
  primaryKey({ columns: [t.lockId, t.day, t.metric] }),
  index('analysis_lock_day_tenant_metric').on(t.tenantId, t.metric, t.day),
  // The analysis' top 10 locks (modules/analysis/trends.ts topOf): the range's rows of the two sparse
  // metrics it ranks, lock and count in the key, so it reads no table row (index-only).
  index('analysis_lock_day_top').on(t.tenantId, t.metric, t.day, t.lockId, t.n).where(sql`metric in ('alarm', 'unlock_failed')`),
]);

/**
 * How far each raw table is rolled up (one row per source, all tenants): rows with id <= watermark are
 * counted; pending_max / pending_xmax: the highest id seen and the transaction horizon when it was seen
 * (ids up to pending_max are counted once every transaction older than pending_xmax has ended).
 */
export const analysisCursors = pgTable('analysis_cursors', {
  source: text('source').primaryKey(),
  watermark: bigint('watermark', { mode: 'number' }).notNull().default(0),
  pendingMax: bigint('pending_max', { mode: 'number' }).notNull().default(0),
  pendingXmax: bigint('pending_xmax', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Derived-alarm thresholds of a tenant (defaults in contract ANALYSIS_THRESHOLD_DEFAULTS when no row). */
export const analysisThresholds = pgTable('analysis_thresholds', {
  tenantId: integer('tenant_id').primaryKey(),
  /** Door open without an unlock or key record within this many s: forcedEntry. */
  forcedEntryS: integer('forced_entry_s').notNull(),
  /** Failed attempts on one lock within the window: bruteForce. */
  bruteForceAttempts: integer('brute_force_attempts').notNull(),
  /** Locks one credential slot failed on within the window: bruteForce. */
  bruteForceLocks: integer('brute_force_locks').notNull(),
  bruteForceWindowS: integer('brute_force_window_s').notNull(),
  /** Heartbeat intervals without an uplink: silentLock. */
  silentIntervals: real('silent_intervals').notNull(),
  /** Predicted flat within this many days: batteryCliff. */
  batteryCliffDays: integer('battery_cliff_days').notNull(),
});

/** Battery forecast per lock (least squares over the daily mean battery of the last 14 days). */
export const analysisBatteryForecast = pgTable('analysis_battery_forecast', {
  lockId: integer('lock_id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  /** %/day (negative: draining). */
  slopePerDay: real('slope_per_day').notNull(),
  battery: integer('battery').notNull(),
  /** When the trend reaches 0 %; null when not draining. */
  flatAt: timestamp('flat_at', { withTimezone: true }),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('analysis_battery_forecast_tenant_flat').on(t.tenantId, t.flatAt)]);

/**
 * The analysis's costly parts per tenant, recomputed by the analysis job (modules/analysis/snapshot.ts)
 * so that a request reads one row instead of scanning the fleet: `current` (fleet, attention,
 * distributions, buildings, open alarms, queued commands, new locks per day) as of `currentAt`, and
 * `lists` (top 10 locks per range, battery forecast) as of `listsAt`. Null until the first run.
 */
export const analysisSnapshots = pgTable('analysis_snapshots', {
  tenantId: integer('tenant_id').primaryKey(),
  current: jsonb('current'),
  currentAt: timestamp('current_at', { withTimezone: true }),
  lists: jsonb('lists'),
  listsAt: timestamp('lists_at', { withTimezone: true }),
});
