/**
 * Ratings of a device type and the checks of every threshold and setting against them: a
 * value the contract's schema accepts may still be more than the device can hold (an over-current limit
 * of 630 A on a 63 A breaker). Terms: rated current In and rated voltage Un (IEC 60898-1), rated
 * residual operating current IΔn (IEC 61009-1). The server runs these checks on the state that would
 * be stored (the request merged over what is saved), the console shows the same messages.
 *
 * For the contract fuzz and other generators: RATED_FIELDS lists which request field is bounded by which
 * rating; a target's ratings are in GET /iot/v1/equipmentType/list (`heartbeatRangeS`, `electrical`),
 * so `limit + 1` (or `min - 1`) of a listed field is an out-of-rating number the API must refuse (400).
 */
import { z } from 'zod';
import { RANGE_ORDER } from './api/input.js';
import type { LocalizedText } from './i18n.js';
import type { CircuitThresholds } from './protocol/airSwitch.js';
import { MAX_CIRCUITS } from './protocol/airSwitch.js';
import type { LockConfig } from './protocol/index.js';
import { localized as l } from './i18n.js';

const ordered = (range: { min: number; max: number }) => range.min <= range.max;

/** Heartbeat intervals a type accepts (lock configuration pushes, its default), s. */
export const heartbeatRange = z.strictObject({ min: z.number().int().min(10).max(86_400), max: z.number().int().min(10).max(86_400) })
  .refine(ordered, { error: RANGE_ORDER, path: ['max'] });

/** Electrical ratings of an air switch type; null for a lock. */
export const electricalRatings = z.strictObject({
  /** Circuits (poles) one device carries. */
  circuits: z.number().int().min(1).max(MAX_CIRCUITS),
  /** Rated current In, A. */
  ratedCurrentA: z.number().int().min(1).max(630),
  /** Rated voltage Un, V. */
  ratedVoltageV: z.number().int().min(100).max(400),
  /** Residual-current (leakage) settings the device supports, mA. */
  leakageMa: z.strictObject({ min: z.number().int().min(10).max(500), max: z.number().int().min(10).max(500) })
    .refine(ordered, { error: RANGE_ORDER, path: ['max'] }),
});
export type ElectricalRatings = z.infer<typeof electricalRatings>;

/** One refused field: its name within the checked object, the limit, and the message. */
export interface RatingIssue {
  field: string;
  limit: number;
  message: LocalizedText;
}

/** Which request field each rating bounds (documentation for generators; the checks below are the rule). */
export const RATED_FIELDS = [
  { path: '/iot/v1/airSwitch/thresholds', field: 'thresholds.currentLimitA', rating: 'electrical.ratedCurrentA', relation: '<=' },
  { path: '/iot/v1/airSwitch/thresholds', field: 'thresholds.powerLimitW', rating: 'electrical.ratedVoltageV * electrical.ratedCurrentA', relation: '<=' },
  { path: '/iot/v1/airSwitch/thresholds', field: 'thresholds.overVoltageV', rating: 'electrical.ratedVoltageV', relation: '>=' },
  { path: '/iot/v1/airSwitch/thresholds', field: 'thresholds.underVoltageV', rating: 'electrical.ratedVoltageV', relation: '<=' },
  { path: '/iot/v1/airSwitch/thresholds', field: 'thresholds.leakageWarnMa', rating: 'electrical.leakageMa', relation: 'within' },
  { path: '/iot/v1/airSwitch/thresholds', field: 'thresholds.leakageTripMa', rating: 'electrical.leakageMa', relation: 'within' },
  { path: '/iot/v1/airSwitch/thresholds', field: 'circuit', rating: 'electrical.circuits', relation: '<=' },
  { path: '/iot/v1/lockConfig', field: 'config.heartbeatIntervalS', rating: 'heartbeatRangeS', relation: 'within' },
  { path: '/iot/v1/lockConfig/batch', field: 'config.heartbeatIntervalS', rating: 'heartbeatRangeS', relation: 'within' },
  { path: '/iot/v1/zg/foreverPassword', field: 'password', rating: 'passwordDigits', relation: 'length within' },
  { path: '/iot/v1/zg/tempPassword', field: 'password', rating: 'passwordDigits', relation: 'length within' },
] as const;


/**
 * Issues of a circuit's thresholds as they would be stored (`merged`: saved values overlaid by the
 * request) on a device of `model` with `rating` (null: a model without ratings, only the order of the
 * leakage pair is checked); empty when the device can hold them.
 */
export function thresholdIssues(merged: CircuitThresholds, rating: ElectricalRatings | null, model: string): RatingIssue[] {
  const issues: RatingIssue[] = [];
  const add = (field: string, limit: number, message: LocalizedText) => issues.push({ field, limit, message });
  if (rating) ratedIssues(merged, rating, model, add);
  const { leakageWarnMa: warn, leakageTripMa: trip } = merged;
  if (warn !== undefined && trip !== undefined && warn > trip) {
    add('leakageWarnMa', trip, l(`漏电预警值 ${warn} mA 高于漏电动作值 ${trip} mA（含已保存的阈值）`, `The leakage warning ${warn} mA is above the leakage trip ${trip} mA (saved thresholds included)`));
  }
  return issues;
}

function ratedIssues(merged: CircuitThresholds, rating: ElectricalRatings, model: string, add: (field: string, limit: number, message: LocalizedText) => void): void {
  const { ratedCurrentA: In, ratedVoltageV: Un, leakageMa } = rating;
  if (merged.currentLimitA !== undefined && merged.currentLimitA > In) {
    add('currentLimitA', In, l(`过流阈值 ${merged.currentLimitA} A 超过型号 ${model} 的额定电流 ${In} A`, `The current limit ${merged.currentLimitA} A exceeds the rated current of ${model}, ${In} A`));
  }
  const maxPower = Un * In;
  if (merged.powerLimitW !== undefined && merged.powerLimitW > maxPower) {
    add('powerLimitW', maxPower, l(`功率阈值 ${merged.powerLimitW} W 超过型号 ${model} 的额定功率 ${maxPower} W（${Un} V × ${In} A）`,
      `The power limit ${merged.powerLimitW} W exceeds the rating of ${model}, ${maxPower} W (${Un} V × ${In} A)`));
  }
  if (merged.overVoltageV !== undefined && merged.overVoltageV < Un) {
    add('overVoltageV', Un, l(`过压阈值 ${merged.overVoltageV} V 低于型号 ${model} 的额定电压 ${Un} V`, `The over-voltage limit ${merged.overVoltageV} V is below the rated voltage of ${model}, ${Un} V`));
  }
  if (merged.underVoltageV !== undefined && merged.underVoltageV > Un) {
    add('underVoltageV', Un, l(`欠压阈值 ${merged.underVoltageV} V 高于型号 ${model} 的额定电压 ${Un} V`, `The under-voltage limit ${merged.underVoltageV} V is above the rated voltage of ${model}, ${Un} V`));
  }
  for (const [field, zh, en] of [['leakageWarnMa', '漏电预警值', 'leakage warning'], ['leakageTripMa', '漏电动作值', 'leakage trip']] as const) {
    const value = merged[field];
    if (value === undefined || (value >= leakageMa.min && value <= leakageMa.max)) continue;
    add(field, value < leakageMa.min ? leakageMa.min : leakageMa.max, l(`${zh} ${value} mA 超出型号 ${model} 的漏电范围 ${leakageMa.min}-${leakageMa.max} mA`,
      `The ${en} ${value} mA is outside the leakage range of ${model}, ${leakageMa.min}-${leakageMa.max} mA`));
  }
}

/** The issue of a circuit number beyond the type's circuits, or undefined. */
export function circuitIssue(circuit: number, rating: ElectricalRatings, model: string): RatingIssue | undefined {
  if (circuit <= rating.circuits) return undefined;
  return { field: 'circuit', limit: rating.circuits, message: l(`型号 ${model} 只有 ${rating.circuits} 个回路`, `${model} has only ${rating.circuits} circuits`) };
}

/** Issues of a lock configuration on a lock of `model` accepting `heartbeatRangeS`. */
export function lockConfigIssues(config: Partial<LockConfig>, heartbeatRangeS: { min: number; max: number }, model: string): RatingIssue[] {
  const value = config.heartbeatIntervalS;
  const { min, max } = heartbeatRangeS;
  if (value === undefined || (value >= min && value <= max)) return [];
  return [{
    field: 'heartbeatIntervalS', limit: value < min ? min : max,
    message: l(`心跳间隔 ${value} 秒超出型号 ${model} 的范围 ${min}-${max} 秒`, `The heartbeat interval ${value} s is outside the range of ${model}, ${min}-${max} s`),
  }];
}
