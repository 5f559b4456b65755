/**
 * Realistic day-to-day activity of a simulated lock, free of any transport and of seq numbering:
 * unlock attempts (openRecord) with door movements (doorState open, then closed), rare alarms
 * (doorLeftOpen then cleared, wrongPasswordLockout after wrong passwords, tamper), a lowBattery alarm
 * while the battery is at or below LOW_BATTERY_PERCENT, one configReport after connecting, and now and
 * then a door opened with no unlock or a burst of failed attempts (derived forcedEntry / bruteForce).
 * Everything is decided once per heartbeat with the given deterministic `random`.
 */
import { LOW_BATTERY_PERCENT, type protocol } from '@iot/contract';
import { randomInt } from './random.js';
import type { Random } from './types.js';

/** An event uplink without its envelope (seq, msgId, ts are added by the lock). */
/** Refusals of the simulated unlock failures: mostly unknown credentials, some out of time. */
const FAILURE_REASONS = ['unknown', 'unknown', 'expired', 'outsideSchedule', 'frozen'] as const;

export type ActivityEvent = { [K in Exclude<protocol.UplinkType, 'heartbeat'>]: { type: K; data: DataOf<K> } }[Exclude<protocol.UplinkType, 'heartbeat'>];
type DataOf<K> = Extract<protocol.UplinkMessage, { type: K }>['data'];

/** Probabilities per heartbeat unless noted. */
export interface ActivityRates {
  /** Chance of an unlock attempt (default 0.25: one every ~4 heartbeats). */
  openProbability: number;
  /** Share of attempts that fail (default 0.08). */
  failureRatio: number;
  /** Chance an opened door is left open: doorLeftOpen alarm, cleared when it closes 3-5 heartbeats later (default 0.03). */
  leftOpenProbability: number;
  /** Chance of 3 wrong passwords and a wrongPasswordLockout alarm, cleared 2-5 heartbeats later (default 0.002). */
  lockoutProbability: number;
  /** Chance of a tamper alarm, cleared 1-3 heartbeats later (default 0.0002). */
  tamperProbability: number;
  /** While the battery is low, the lowBattery alarm repeats every this many heartbeats (default 100). */
  lowBatteryRepeatEvery: number;
  /** Chance the closed door reports open with no unlock before it (the platform derives forcedEntry), closing at the next heartbeat (default 0.0005). */
  forcedEntryProbability: number;
  /** Chance of a burst of 6 failed password attempts (the platform derives bruteForce) (default 0.0005). */
  bruteForceProbability: number;
}

export const DEFAULT_ACTIVITY: ActivityRates = {
  openProbability: 0.25, failureRatio: 0.08, leftOpenProbability: 0.03, lockoutProbability: 0.002, tamperProbability: 0.0002,
  lowBatteryRepeatEvery: 100, forcedEntryProbability: 0.0005, bruteForceProbability: 0.0005,
};
/**
 * Presets for SIM_ACTIVITY: `off` (heartbeats only), `normal` (the demo: DEFAULT_ACTIVITY with an
 * unlock attempt every ~8 heartbeats, about 7 per door per hour at the demo's 60 s heartbeat; each
 * brings three uplinks and their pushes, so this sets most of the demo's CPU), `high`
 * (busy logs, e2e tests).
 */
export const ACTIVITY_PRESETS: Record<'off' | 'normal' | 'high', ActivityRates | undefined> = {
  off: undefined,
  normal: { ...DEFAULT_ACTIVITY, openProbability: 0.12 },
  high: {
    openProbability: 0.9, failureRatio: 0.15, leftOpenProbability: 0.2, lockoutProbability: 0.05, tamperProbability: 0.02, lowBatteryRepeatEvery: 5,
    forcedEntryProbability: 0.01, bruteForceProbability: 0.01,
  },
};

const METHODS: [protocol.OpenMethod, number][] = [['fingerprint', 0.3], ['password', 0.3], ['card', 0.2], ['app', 0.15], ['mechanicalKey', 0.05]];

export class LockActivity {
  private readonly rates: ActivityRates;
  /** Heartbeats until the open door closes; 0: closed. */
  private doorOpenFor = 0;
  private leftOpen: 'no' | 'pending' | 'raised' = 'no';
  private lockoutFor = 0;
  private tamperFor = 0;
  private lowBatteryBeats = -1;

  constructor(private readonly random: Random, rates: Partial<ActivityRates> = {}) {
    this.rates = { ...DEFAULT_ACTIVITY, ...rates };
  }

  /** The configuration reported once after connecting; heartbeatIntervalS (s) only when the protocol allows it (>= 10). */
  configReport(intervalS: number): ActivityEvent {
    const config: protocol.LockConfig = { volume: 60, autoLockS: 5, wrongAttemptLimit: 3, language: 'zh-CN' };
    if (intervalS >= 10) config.heartbeatIntervalS = intervalS;
    return { type: 'configReport', data: { config } };
  }

  /** What happens until the next heartbeat; `battery` %, `now` ms since epoch. */
  afterHeartbeat(battery: number, now: number): ActivityEvent[] {
    const events: ActivityEvent[] = [...this.door(), ...this.alarms(battery)];
    if (this.doorOpenFor === 0 && this.random() < this.rates.openProbability) events.push(...this.attempt(now));
    if (this.lockoutFor === 0 && this.random() < this.rates.lockoutProbability) {
      for (let i = 0; i < 3; i++) events.push(this.openRecord('password', false, now - (3 - i) * 1000));
      events.push({ type: 'alarm', data: { kind: 'wrongPasswordLockout', cleared: false, detail: '3 wrong passwords' } });
      this.lockoutFor = randomInt(this.random, 2, 5);
    }
    if (this.tamperFor === 0 && this.random() < this.rates.tamperProbability) {
      events.push({ type: 'alarm', data: { kind: 'tamper', cleared: false } });
      this.tamperFor = randomInt(this.random, 1, 3);
    }
    if (this.doorOpenFor === 0 && this.random() < this.rates.forcedEntryProbability) {
      events.push({ type: 'doorState', data: { door: 'open', locked: false } });
      this.doorOpenFor = 1;
    }
    if (this.random() < this.rates.bruteForceProbability) {
      for (let i = 0; i < 6; i++) events.push(this.openRecord('password', false, now - (6 - i) * 2000));
    }
    return events;
  }

  private attempt(now: number): ActivityEvent[] {
    const success = this.random() >= this.rates.failureRatio;
    const method = weighted(METHODS, this.random());
    const record = this.openRecord(success ? method : method === 'mechanicalKey' || method === 'app' ? 'password' : method, success, now - randomInt(this.random, 0, 3000));
    if (!success) return [record];
    const leftOpen = this.random() < this.rates.leftOpenProbability;
    this.doorOpenFor = leftOpen ? randomInt(this.random, 3, 5) : 1;
    this.leftOpen = leftOpen ? 'pending' : 'no';
    return [record, { type: 'doorState', data: { door: 'open', locked: false } }];
  }

  private openRecord(method: protocol.OpenMethod, success: boolean, lockTime: number): ActivityEvent {
    const credential = method === 'password' || method === 'card' || method === 'fingerprint';
    const data: protocol.OpenRecordData = { method, success, lockTime: Math.max(0, lockTime) };
    if (credential) data.slot = randomInt(this.random, 1, 20);
    if (credential || method === 'app') data.userSlot = randomInt(this.random, 1, 10);
    // Why the lock refused, from the slot already drawn so the random sequence stays as it was.
    if (!success) data.refusal = FAILURE_REASONS[(data.slot ?? 0) % FAILURE_REASONS.length];
    return { type: 'openRecord', data };
  }

  private door(): ActivityEvent[] {
    if (this.doorOpenFor === 0) return [];
    this.doorOpenFor -= 1;
    if (this.doorOpenFor > 0) {
      if (this.leftOpen !== 'pending') return [];
      this.leftOpen = 'raised';
      return [{ type: 'alarm', data: { kind: 'doorLeftOpen', cleared: false, detail: 'door open too long' } }];
    }
    const cleared: ActivityEvent[] = this.leftOpen === 'raised' ? [{ type: 'alarm', data: { kind: 'doorLeftOpen', cleared: true } }] : [];
    this.leftOpen = 'no';
    return [{ type: 'doorState', data: { door: 'closed', locked: true } }, ...cleared];
  }

  private alarms(battery: number): ActivityEvent[] {
    const events: ActivityEvent[] = [];
    if (this.lockoutFor > 0 && --this.lockoutFor === 0) events.push({ type: 'alarm', data: { kind: 'wrongPasswordLockout', cleared: true } });
    if (this.tamperFor > 0 && --this.tamperFor === 0) events.push({ type: 'alarm', data: { kind: 'tamper', cleared: true } });
    if (battery <= LOW_BATTERY_PERCENT) {
      this.lowBatteryBeats += 1;
      if (this.lowBatteryBeats % this.rates.lowBatteryRepeatEvery === 0) {
        events.push({ type: 'alarm', data: { kind: 'lowBattery', cleared: false, detail: `${battery}%` } });
      }
    } else if (this.lowBatteryBeats >= 0) {
      this.lowBatteryBeats = -1;
      events.push({ type: 'alarm', data: { kind: 'lowBattery', cleared: true } });
    }
    return events;
  }
}

/** The item whose cumulative weight first exceeds `pick` (in [0, 1)). */
function weighted<T>(items: readonly [T, number][], pick: number): T {
  let sum = 0;
  for (const [item, weight] of items) {
    sum += weight;
    if (pick < sum) return item;
  }
  return (items.at(-1) as [T, number])[0];
}
