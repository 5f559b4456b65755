/**
 * Ratings of device types (contract ratings.ts): their columns, the ratings of a device's
 * model for the modules that check thresholds and settings against them (air switches, lock
 * configuration), and the check that an edited type still holds what its devices are set to (the
 * type's own merged state). Reads other modules' tables, writes none.
 */
import {
  AIR_SWITCH_MODELS, DEFAULT_HEARTBEAT_RANGE_S, type DeviceTypeInput, type ElectricalRatings, type FieldError, protocol, thresholdIssues,
} from '@iot/contract';
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { airSwitchCircuits, airSwitches, deviceTypes } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';

type TypeRow = typeof deviceTypes.$inferSelect;

/** Table columns of a type's ratings (electrical ones null for a lock type). */
export function ratingColumns(input: Pick<DeviceTypeInput, 'heartbeatRangeS' | 'electrical'>) {
  const e = input.electrical;
  return {
    heartbeatMinS: input.heartbeatRangeS.min, heartbeatMaxS: input.heartbeatRangeS.max,
    circuits: e?.circuits ?? null, ratedCurrentA: e?.ratedCurrentA ?? null, ratedVoltageV: e?.ratedVoltageV ?? null,
    leakageMinMa: e?.leakageMa.min ?? null, leakageMaxMa: e?.leakageMa.max ?? null,
  };
}

/** The electrical ratings of a row; null unless every one is set. */
export function electricalOf(row: Pick<TypeRow, 'circuits' | 'ratedCurrentA' | 'ratedVoltageV' | 'leakageMinMa' | 'leakageMaxMa'>): ElectricalRatings | null {
  const { circuits, ratedCurrentA, ratedVoltageV, leakageMinMa, leakageMaxMa } = row;
  if (circuits === null || ratedCurrentA === null || ratedVoltageV === null || leakageMinMa === null || leakageMaxMa === null) return null;
  return { circuits, ratedCurrentA, ratedVoltageV, leakageMa: { min: leakageMinMa, max: leakageMaxMa } };
}

/** What a device of some model may be set to: the heartbeat range and, for an air switch, its electrical ratings. */
export interface ModelRatings {
  model: string;
  heartbeatRangeS: { min: number; max: number };
  electrical: ElectricalRatings | null;
}

/**
 * Ratings of each model of `models` in the caller's data centre (tenant transaction). A model without a
 * type row gets the protocol's heartbeat range and the contract's AIR_SWITCH_MODELS entry, if any.
 */
export async function ratingsOfModels(tx: Executor, models: readonly string[]): Promise<Map<string, ModelRatings>> {
  const unique = [...new Set(models)];
  const rows = unique.length === 0 ? [] : await tx.select().from(deviceTypes).where(inArray(deviceTypes.model, unique));
  const byModel = new Map(rows.map((row) => [row.model, row]));
  return new Map(unique.map((model) => {
    const row = byModel.get(model);
    const seeded = AIR_SWITCH_MODELS[model];
    const fallback = seeded ? { circuits: seeded.circuits, ratedCurrentA: seeded.ratedCurrentA, ratedVoltageV: seeded.ratedVoltageV, leakageMa: seeded.leakageMa } : null;
    return [model, {
      model,
      heartbeatRangeS: row ? { min: row.heartbeatMinS, max: row.heartbeatMaxS } : { ...DEFAULT_HEARTBEAT_RANGE_S },
      electrical: row ? electricalOf(row) : fallback,
    }];
  }));
}

/** Ratings of one model (see ratingsOfModels). */
export async function ratingsOfModel(tx: Executor, model: string): Promise<ModelRatings> {
  return (await ratingsOfModels(tx, [model])).get(model) as ModelRatings;
}

/**
 * Before an air switch type's ratings change: every circuit of its switches must still hold its
 * desired thresholds and exist under the new circuit count, else 409 naming how many do not and the
 * first reason (the stored state would be one the devices cannot hold).
 */
export async function checkTypeEdit(tx: Executor, model: string, input: DeviceTypeInput): Promise<void> {
  if (input.kind !== 'airSwitch' || !input.electrical) return;
  const rows = await tx.select({ circuit: airSwitchCircuits.circuit, desired: airSwitchCircuits.desiredThresholds })
    .from(airSwitchCircuits).innerJoin(airSwitches, eq(airSwitches.id, airSwitchCircuits.airSwitchId)).where(eq(airSwitches.model, model));
  const problems: FieldError[] = [];
  let count = 0;
  for (const row of rows) {
    const desired = protocol.circuitThresholds.safeParse(row.desired ?? {}).data ?? {};
    const issues = thresholdIssues(desired, input.electrical, input.model);
    if (row.circuit > input.electrical.circuits) {
      issues.push({ field: 'circuits', limit: row.circuit, message: { 'zh-CN': `已有设备使用第 ${row.circuit} 回路`, 'en-US': `devices use circuit ${row.circuit}` } });
    }
    if (issues.length === 0) continue;
    count++;
    if (problems.length === 0) problems.push({ field: 'body.electrical', message: issues[0]?.message as FieldError['message'] });
  }
  if (count === 0) return;
  const first = problems[0] as FieldError;
  throw new ApiError('CONFLICT', [{
    field: first.field,
    message: {
      'zh-CN': `新的额定值下有 ${count} 个回路的阈值不再有效，请先调整这些阈值：${first.message['zh-CN']}`,
      'en-US': `${count} circuit(s) would hold thresholds the new ratings refuse; change those first: ${first.message['en-US']}`,
    },
  }]);
}
