/**
 * Air switch tables, tenant-scoped with row-level security (migration *_air_switch_rls.sql),
 * written only by modules/airSwitch. Raw uplinks (the one `uplinks` log, schema-device.ts) are kept TELEMETRY_RETENTION_DAYS; the hourly and daily
 * energy rollups are kept for good and are what analysis reads.
 */
import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './schema.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * An air switch gateway; `serial` is its MQTT identity (protocol airSwitchIdSchema), unique across data centres; its device secret is in the device registry (schema-devices.ts).
 * Fillfactor 50 (migration 0029, as air_switch_circuits): ingest rewrites the row every batch, kept HOT.
 */
export const airSwitches = pgTable('air_switches', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  serial: text('serial').notNull(),
  name: text('name').notNull(),
  /** device_types.model of kind airSwitch. */
  model: text('model').notNull(),
  location: text('location').notNull().default(''),
  enabled: boolean('enabled').notNull().default(true),
  simulated: boolean('simulated').notNull().default(false),
  /** Highest uplink seq seen. */
  lastSeq: integer('last_seq'),
  lastUplinkAt: timestamp('last_uplink_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('air_switches_serial').on(t.serial), index('air_switches_tenant').on(t.tenantId, t.id),
  // What the device registry's row names (schema-devices.ts devices_air_switch_identity).
  unique('air_switches_identity').on(t.id, t.tenantId, t.serial),
]);

/** A circuit (line) of a switch with its latest readings and thresholds (desired by the platform, reported by the device). */
export const airSwitchCircuits = pgTable('air_switch_circuits', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  airSwitchId: integer('air_switch_id').notNull().references(() => airSwitches.id, { onDelete: 'cascade' }),
  /** 1..protocol.MAX_CIRCUITS */
  circuit: integer('circuit').notNull(),
  name: text('name').notNull(),
  /** on | off | tripped */
  state: text('state'),
  tripReason: text('trip_reason'),
  /** V, A, W, -, kWh (the device's cumulative counter as last read), mA, °C */
  voltage: real('voltage'),
  current: real('current'),
  power: real('power'),
  powerFactor: real('power_factor'),
  energyKwh: doublePrecision('energy_kwh'),
  leakageMa: real('leakage_ma'),
  temperatureC: real('temperature_c'),
  readingAt: timestamp('reading_at', { withTimezone: true }),
  /** seq of the reading above; older (late) readings do not roll it back or count energy twice. */
  readingSeq: integer('reading_seq'),
  /** Energy counted so far, kWh: the sum of the circuit's hourly rollup `kwh` (ingest keeps both in one transaction). */
  energyTotalKwh: doublePrecision('energy_total_kwh').notNull().default(0),
  /** Latest UTC hour with an hourly rollup row; a row for an earlier hour is late (its later rows' kwh_total move). */
  energyHour: timestamp('energy_hour', { withTimezone: true }),
  /** Highest power reading in `energy_hour` (its hourly row's power_max), W: the data centre's maximum load moves by its change. */
  hourPowerMaxW: real('hour_power_max_w').notNull().default(0),
  desiredThresholds: jsonb('desired_thresholds').notNull().default(sql`'{}'::jsonb`),
  reportedThresholds: jsonb('reported_thresholds'),
}, (t) => [uniqueIndex('air_switch_circuits_switch').on(t.airSwitchId, t.circuit), index('air_switch_circuits_tenant').on(t.tenantId)]);

const rollupColumns = {
  tenantId: integer('tenant_id').notNull(),
  circuitId: integer('circuit_id').notNull(),
  /** Energy counted from the cumulative counter's increase, kWh. */
  kwh: doublePrecision('kwh').notNull().default(0),
  /** Sum of the power readings, W, and their count (average = sum / samples). */
  powerSum: doublePrecision('power_sum').notNull().default(0),
  samples: integer('samples').notNull().default(0),
  /** Highest power reading, W. */
  powerMax: real('power_max').notNull().default(0),
  trips: integer('trips').notNull().default(0),
};

/**
 * Per circuit and UTC hour. `kwh_total` is the circuit's energy through the end of the hour (the sum of
 * its `kwh` up to and including this hour), so a range's energy is two rows' difference, in any zone.
 */
export const airSwitchEnergyHourly = pgTable('air_switch_energy_hourly', {
  ...rollupColumns,
  hour: timestamp('hour', { withTimezone: true }).notNull(),
  /** Cumulative kWh through the end of this hour (see above). */
  kwhTotal: doublePrecision('kwh_total').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.circuitId, t.hour] }), index('air_switch_energy_hourly_tenant').on(t.tenantId, t.hour)]);

/** Per circuit and calendar day in TELEMETRY_TIME_ZONE (analysis in another zone sums the hourly rows). */
export const airSwitchEnergyDaily = pgTable('air_switch_energy_daily', {
  ...rollupColumns,
  day: date('day').notNull(),
}, (t) => [primaryKey({ columns: [t.circuitId, t.day] })]);

/**
 * The data centre per UTC hour, kept exact as readings arrive (upserts that add, in the ingest
 * transaction): its load, the sum over its circuits of each circuit's average power in that hour, W
 * (peak demand and the load curve read it); its energy, kWh, and trips (the energy per day or month of
 * the whole data centre reads these few rows, in any whole-hour time zone).
 */
export const airSwitchLoadHourly = pgTable('air_switch_load_hourly', {
  tenantId: integer('tenant_id').notNull(),
  hour: timestamp('hour', { withTimezone: true }).notNull(),
  loadW: doublePrecision('load_w').notNull().default(0),
  /** Sum over its circuits of each circuit's highest power reading in the hour, W (the load curve's maximum). */
  powerMaxW: doublePrecision('power_max_w').notNull().default(0),
  kwh: doublePrecision('kwh').notNull().default(0),
  trips: integer('trips').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.tenantId, t.hour] })]);
