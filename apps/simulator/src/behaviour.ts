/** Tunables and ranges of a simulated lock's behaviour (lock.ts): outages, battery, radio readings. */

/** Tunables of the simulated behaviour (probabilities per heartbeat unless noted). */
export interface LockBehaviour {
  /** Share of the NB-IoT locks that now and then drop off the network (default 0.05); always-online locks never do. */
  flakyRatio?: number;
  /** Chance that a flaky lock goes offline after a heartbeat (default 0.1). */
  offlineProbability?: number;
  /** Offline period, in heartbeat intervals (default [3, 6]). */
  offlineIntervals?: [number, number];
  /** Share of locks without a reported battery that start low, 8-20 % (default 0.1). */
  lowBatteryRatio?: number;
  /** Chance the battery loses 1 % (default 0.02); it never drops below 5 %. */
  drainProbability?: number;
}

export const RSSI_RANGE = { min: -115, max: -60 } as const; // dBm
export const SNR_RANGE = { min: -5, max: 25 } as const; // dB
export const BATTERY_FLOOR = 5; // %

/** `value` within [min, max]. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
