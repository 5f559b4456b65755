/**
 * A week of a simulated fleet's device history, generated with the simulator's own lock and activity
 * models (deterministic: each lock's random source is seeded with its index): hourly heartbeats,
 * unlock records, door states and alarms by day (07:00-22:59 Beijing time), configuration reports, the
 * commands a plan puts on the lock with their answers (commandResult uplinks), and the alert lifecycle
 * those alarms ran. Pure: returns rows for the owning modules' history writers.
 */
import type { protocol } from '@iot/contract';
import { DEFAULT_ACTIVITY, randomInt, seededRandom, SimulatedLock, type Random } from '@iot/simulator';
import type { PastAlert } from '../../modules/deviceAlert/history.js';
import type { PastCommand } from '../../modules/command/history.js';
import type { PastHeartbeat } from '../../modules/logHeartbeat/history.js';
import type { PastUplink } from '../../modules/uplinkLog/history.js';
import type { SeededReadings } from '../../modules/lockDevice/history.js';
import { lockSeqKey } from '../../db/rows.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** Beijing time is UTC+8 all year: the hour of day the demo's people live by. */
export const localHour = (ms: number) => new Date(ms + 8 * HOUR).getUTCHours();

export interface HistoryLock { id: number; tenantId: number; imei: string; name?: string; model: string; firmwareVersion: string }

/** A command the plan puts on a lock in hour `hour` of its history (0: the first), `minute` past its heartbeat. */
export interface PlannedCommand {
  hour: number;
  minute: number;
  type: protocol.DownlinkType;
  data: Record<string, unknown>;
  state: protocol.CommandState;
  createdBy: string;
  resultCode?: number;
  resultDetail?: string;
  resultSlot?: number;
  /** Told the command's index in `commands` and its time, ms. */
  created?: (index: number, at: number) => void;
}

export interface FleetHistory {
  heartbeats: PastHeartbeat[];
  uplinks: PastUplink[];
  /** Unlock records by their uplink's lockSeqKey. */
  openRecords: { key: string; tenantId: number; lockId: number; data: protocol.OpenRecordData; receivedAt: number }[];
  alerts: PastAlert[];
  commands: PastCommand[];
  readings: SeededReadings[];
}

/** Unlocks a little busier than the live demo's default, since a history beat stands for an hour. */
const RATES = { ...DEFAULT_ACTIVITY, openProbability: 0.3, lockoutProbability: 0.01, tamperProbability: 0.002 };

/** Generates `locks`' history from `start` to `end` (ms); `plans` by lock id. */
export function fleetHistory(locks: readonly HistoryLock[], start: number, end: number, plans: ReadonlyMap<number, PlannedCommand[]>): FleetHistory {
  const out: FleetHistory = { heartbeats: [], uplinks: [], openRecords: [], alerts: [], commands: [], readings: [] };
  for (const [index, lock] of locks.entries()) lockHistory(lock, seededRandom(0x5eed + index), start, end, plans.get(lock.id) ?? [], out);
  return out;
}

function lockHistory(lock: HistoryLock, random: Random, start: number, end: number, plan: readonly PlannedCommand[], out: FleetHistory): void {
  const sim = new SimulatedLock({ imei: lock.imei, secret: '', tenantId: lock.tenantId, model: lock.model, firmwareVersion: lock.firmwareVersion,
    heartbeatIntervalS: 3600, lastSeq: null, battery: null }, { random, behaviour: { flakyRatio: 0 }, activity: RATES });
  const alerts = new AlertLifecycle(lock, random, end);
  const received = (message: protocol.UplinkMessage, at: number) => {
    out.uplinks.push({ tenantId: lock.tenantId, lockId: lock.id, message, receivedAt: at + 400 });
    if (message.type === 'openRecord') out.openRecords.push({ key: lockSeqKey(lock.id, message.seq), tenantId: lock.tenantId, lockId: lock.id, data: message.data, receivedAt: at + 400 });
    if (message.type === 'alarm') alerts.apply(message.data, at);
  };
  const first = start + randomInt(random, 0, 59) * MINUTE;
  for (const message of sim.eventsOnConnect(first - MINUTE)) received(message, first - MINUTE);
  let last: PastHeartbeat | undefined;
  for (let hour = 0, t = first; t < end; hour++, t += HOUR) {
    const beat = sim.nextHeartbeat(t);
    last = { tenantId: lock.tenantId, lockId: lock.id, seq: beat.seq, ...beat.data, deviceTs: t, receivedAt: t + 300 };
    out.heartbeats.push(last);
    const at = Math.min(t + randomInt(random, 1, 50) * MINUTE, end);
    const hourOfDay = localHour(at);
    if (hourOfDay >= 7 && hourOfDay <= 22) for (const message of sim.eventsAfterHeartbeat(at)) received(message, at);
    for (const planned of plan.filter((p) => p.hour === hour)) {
      const createdAt = Math.min(t + planned.minute * MINUTE, end - MINUTE);
      const command = pastCommand(lock, planned, createdAt, `demo-${lock.imei}-${out.commands.length}`);
      planned.created?.(out.commands.push(command) - 1, createdAt);
      if (command.resultCode === undefined) continue;
      const result = { commandMsgId: command.msgId, code: command.resultCode, detail: command.resultDetail, ...(command.resultSlot === undefined ? {} : { slot: command.resultSlot }) };
      received(sim.nextUplink({ type: 'commandResult', data: result }, createdAt + 3000), createdAt + 3000);
    }
  }
  alerts.finish(out.alerts);
  if (last) out.readings.push({ lockId: lock.id, seq: sim.seq, battery: last.battery, rssi: last.rssi, snr: last.snr, lastHeartbeatAt: last.receivedAt });
}

/** The command row of `planned`: answered ones got their answer 3 s later, a TIMEOUT after 3 tries, EXPIRED after 48 h, CANCELED after 5 min. */
function pastCommand(lock: HistoryLock, planned: PlannedCommand, createdAt: number, msgId: string): PastCommand {
  const answered = planned.state === 'SUCCESSFUL' || planned.state === 'FAILED';
  const data = planned.type === 'clockSync' ? { time: createdAt } : planned.data;
  const base = { msgId, tenantId: lock.tenantId, lockId: lock.id, type: planned.type, data, state: planned.state, createdBy: planned.createdBy, createdAt };
  if (answered) return { ...base, attempts: 1, completedAt: createdAt + 3000, resultCode: planned.resultCode ?? 0, resultDetail: planned.resultDetail, resultSlot: planned.resultSlot };
  if (planned.state === 'TIMEOUT') return { ...base, attempts: 3, completedAt: createdAt + 95_000 };
  if (planned.state === 'EXPIRED') return { ...base, attempts: 0, completedAt: createdAt + 48 * HOUR };
  return { ...base, attempts: 0, completedAt: createdAt + 5 * MINUTE };
}

/** The alerts lifecycle of one lock's alarms (as deviceAlert/lock.ts runs it live), then some acknowledged by the administrator. */
class AlertLifecycle {
  private readonly active = new Map<protocol.AlarmKind, PastAlert>();
  private readonly done: PastAlert[] = [];
  constructor(private readonly lock: HistoryLock, private readonly random: Random, private readonly end: number) {}

  apply(alarm: Extract<protocol.UplinkMessage, { type: 'alarm' }>['data'], at: number): void {
    const open = this.active.get(alarm.kind);
    if (alarm.cleared) {
      if (!open) return;
      this.done.push({ ...open, clearedAt: at, detail: alarm.detail ?? open.detail });
      this.active.delete(alarm.kind);
    } else if (open) {
      Object.assign(open, { occurrences: open.occurrences + 1, lastAt: at, detail: alarm.detail ?? open.detail });
    } else {
      this.active.set(alarm.kind, { tenantId: this.lock.tenantId, lockId: this.lock.id, kind: alarm.kind, detail: alarm.detail ?? null, occurrences: 1, firstAt: at, lastAt: at });
    }
  }

  finish(into: PastAlert[]): void {
    for (const alert of [...this.done, ...this.active.values()]) {
      const acknowledgedAt = Math.min((alert.clearedAt ?? alert.lastAt) + randomInt(this.random, 2, 90) * MINUTE, this.end);
      const acknowledged = this.random() < (alert.clearedAt === undefined ? 0.3 : 0.6);
      into.push(acknowledged ? { ...alert, acknowledgedBy: 'admin', acknowledgedAt } : alert);
    }
  }
}
