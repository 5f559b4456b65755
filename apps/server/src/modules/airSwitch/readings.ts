/**
 * Pure bookkeeping of air switch uplinks (no database): a batch's new uplinks, in seq order per switch,
 * applied to the circuits' last known state. Produces the circuits' new state, the energy and power
 * rollup increments per (circuit, UTC hour), the trips and the alarm raises/clears.
 *
 * Energy comes from the cumulative counter (kWh): the increase since the circuit's previous reading.
 * A counter that went down was reset (device restart, replacement with a new meter): the energy since
 * then is the new value itself (the counter restarted from 0). A circuit without a previous reading
 * (new, or its baseline cleared) only sets the baseline. A reading not newer (seq) than the circuit's
 * last one changes nothing (a late or replayed reading never counts energy twice).
 */
import { protocol } from '@iot/contract';

/** The stored state of a circuit the bookkeeping starts from. */
export interface CircuitState {
  id: number;
  tenantId: number;
  airSwitchId: number;
  circuit: number;
  state: string | null;
  tripReason: string | null;
  energyKwh: number | null;
  readingSeq: number | null;
  /** Energy counted so far, kWh (sum of the circuit's hourly `kwh`), and the latest hour with a row. */
  energyTotalKwh: number;
  energyHour: Date | null;
  /** Highest power reading in `energyHour`, W (float4, as stored). */
  hourPowerMaxW: number;
  reading?: protocol.CircuitReading;
  readingAt?: Date;
  changed?: boolean;
}

/** Increments of one circuit's rollup in one UTC hour. */
export interface RollupIncrement {
  tenantId: number;
  circuitId: number;
  /** Start of the UTC hour. */
  hour: Date;
  kwh: number;
  powerSum: number;
  samples: number;
  powerMax: number;
  trips: number;
  /** The circuit's kWh through the end of the hour (set by assignTotals). */
  kwhTotal?: number;
  /** How much the hour's highest reading rose, W (set by assignTotals; undefined for a late hour: read from the row). */
  maxDelta?: number;
}

/** An alarm to raise or clear on (switch, circuit, kind). */
export interface AlarmChange {
  tenantId: number;
  airSwitchId: number;
  circuit: number;
  kind: string;
  severity: string;
  detail: string | null;
  cleared: boolean;
}

export interface NewUplink {
  airSwitchId: number;
  tenantId: number;
  message: protocol.AirSwitchUplinkMessage;
}

/** A device clock further than this from the platform's is not believed; the receive time is used, ms. */
const CLOCK_TRUST_MS = 24 * 3600_000;

/** The time a reading is booked at: the device's, unless its clock is off by more than a day. */
export function bookedAt(deviceTs: number, now: number): Date {
  return new Date(Math.abs(deviceTs - now) <= CLOCK_TRUST_MS ? deviceTs : now);
}

/** kWh between two counter readings (see the module comment). */
export function energyDelta(previous: number | null, current: number): number {
  if (previous === null) return 0;
  return current >= previous ? current - previous : current;
}

/**
 * Applies `uplinks` (new ones only) to `circuits` (keyed `${airSwitchId}:${circuit}`, mutated: their
 * state, reading and `changed`); returns the rollup increments and alarm changes, in order.
 */
export function applyReadings(uplinks: readonly NewUplink[], circuits: Map<string, CircuitState>, now = Date.now()) {
  const rollups = new Map<string, RollupIncrement>();
  const alarms: AlarmChange[] = [];
  const bucket = (c: CircuitState, at: Date) => {
    const hour = new Date(Math.floor(at.getTime() / 3600_000) * 3600_000);
    const key = `${c.id}:${hour.getTime()}`;
    const row = rollups.get(key) ?? { tenantId: c.tenantId, circuitId: c.id, hour, kwh: 0, powerSum: 0, samples: 0, powerMax: 0, trips: 0 };
    rollups.set(key, row);
    return row;
  };
  const transition = (c: CircuitState, state: string, reason: string | null, seq: number, at: Date) => {
    if (state === 'tripped' && c.state !== 'tripped') {
      bucket(c, at).trips++;
      const tripReason = (reason ?? 'manual') as protocol.TripReason;
      alarms.push({ tenantId: c.tenantId, airSwitchId: c.airSwitchId, circuit: c.circuit, kind: 'trip', severity: protocol.TRIP_SEVERITY[tripReason] ?? 'major', detail: tripReason, cleared: false });
    } else if (state === 'on' && c.state === 'tripped') {
      alarms.push({ tenantId: c.tenantId, airSwitchId: c.airSwitchId, circuit: c.circuit, kind: 'trip', severity: 'warning', detail: null, cleared: true });
    }
    c.state = state;
    c.tripReason = state === 'tripped' ? (reason ?? 'manual') : null;
    c.readingSeq = seq;
    c.changed = true;
  };
  const sorted = [...uplinks].sort((a, b) => a.airSwitchId - b.airSwitchId || a.message.seq - b.message.seq);
  for (const { airSwitchId, tenantId, message } of sorted) {
    const at = bookedAt(message.ts, now);
    if (message.type === 'telemetry') {
      for (const reading of message.data.circuits) {
        const c = circuits.get(`${airSwitchId}:${reading.circuit}`);
        if (!c || (c.readingSeq !== null && message.seq <= c.readingSeq)) continue;
        const row = bucket(c, at);
        row.kwh += energyDelta(c.energyKwh, reading.energyKwh);
        row.powerSum += reading.power;
        row.samples++;
        row.powerMax = Math.max(row.powerMax, reading.power);
        c.energyKwh = reading.energyKwh;
        c.reading = reading;
        c.readingAt = at;
        transition(c, reading.state, reading.tripReason ?? null, message.seq, at);
      }
    } else if (message.type === 'switchEvent') {
      const c = circuits.get(`${airSwitchId}:${message.data.circuit}`);
      if (!c || (c.readingSeq !== null && message.seq <= c.readingSeq)) continue;
      transition(c, message.data.state, message.data.reason ?? null, message.seq, at);
    } else if (message.type === 'alarm') {
      const { circuit, kind, cleared, value } = message.data;
      alarms.push({ tenantId, airSwitchId, circuit, kind, severity: protocol.AIR_SWITCH_ALARM_KINDS[kind], detail: value === undefined ? null : String(value), cleared });
    }
  }
  return { rollups: [...rollups.values()], alarms };
}

/**
 * Sets each increment's `kwhTotal` (the circuit's kWh through the end of its hour) and `maxDelta` from
 * the circuits' running totals and advances them (`energyTotalKwh`, `energyHour`, `hourPowerMaxW`; `changed`). An increment before
 * its circuit's latest stored hour is late: the rows after it hold totals without it. Returns, per
 * circuit with a late increment, its earliest late hour (the caller recomputes that circuit's rows
 * from there; the totals set here for those rows are then replaced).
 */
export function assignTotals(rollups: readonly RollupIncrement[], circuits: Iterable<CircuitState>): Map<number, Date> {
  const byId = new Map<number, CircuitState>();
  for (const c of circuits) byId.set(c.id, c);
  const late = new Map<number, Date>();
  const sorted = [...rollups].sort((a, b) => a.circuitId - b.circuitId || a.hour.getTime() - b.hour.getTime());
  for (const r of sorted) {
    const c = byId.get(r.circuitId);
    if (!c) continue;
    if (c.energyHour && r.hour < c.energyHour && !late.has(c.id)) late.set(c.id, r.hour); // sorted: the earliest
    c.energyTotalKwh += r.kwh;
    r.kwhTotal = c.energyTotalKwh;
    const max = Math.fround(r.powerMax);
    if (!c.energyHour || r.hour > c.energyHour) {
      r.maxDelta = max;
      c.energyHour = r.hour;
      c.hourPowerMaxW = max;
    } else if (r.hour.getTime() === c.energyHour.getTime()) {
      r.maxDelta = Math.max(0, max - c.hourPowerMaxW);
      c.hourPowerMaxW = Math.max(c.hourPowerMaxW, max);
    }
    c.changed = true;
  }
  return late;
}
