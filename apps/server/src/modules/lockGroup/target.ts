/**
 * THE device-target resolver: every bulk action (group membership, batch config push,
 * export, OTA rollouts) turns the contract's `DeviceTarget` — `{ groupId }` | `{ imeis }` | `{ filter }`
 * — into lock ids here, so "which locks" means the same everywhere (docs/device-targets.md).
 *
 * Tenant-scoped twice: run it in the tenant's transaction (row-level security) and it also filters on
 * `tenantId` itself, so it stays right on an owner connection. Decommissioned locks and released IMEIs
 * are never targeted by a group or an IMEI list; a filter targets what 门锁信息 lists with it.
 */
import { type deviceTarget, protocol } from '@iot/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { textArray } from '../../db/array-literal.js';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { lockGroups, locks } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { inGroupSql, lockWhere } from '../lockDevice/repo.js';

/** A parsed target (contract deviceTarget). */
export type DeviceTargetInput = z.output<typeof deviceTarget>;

/** What a target resolved to: lock ids (ascending) and the listed IMEIs the data centre does not have. */
export interface ResolvedTarget {
  lockIds: number[];
  /** Only for `{ imeis }`: listed IMEIs not registered (or decommissioned) in the data centre, in list order, once each. */
  unknownImeis: string[];
}

export interface ResolveOptions {
  /** Refuse (400 on `field`) a target of more locks than this. Default: no limit. */
  max?: number;
  /** The request field the target came from, for errors (default `body.target`). */
  field?: string;
  /** How long a sleeping lock stays reachable after an uplink, ms (config WAKE_WINDOW_MS), for a filter on the live state. Default protocol.WAKE_WINDOW_MS. */
  wakeWindowMs?: number;
}

/**
 * Resolves `target` to the lock ids of data centre `tenantId`. Errors: 404 NOT_FOUND for a group not
 * in the data centre; 400 on `options.field` when more than `options.max` locks match.
 */
export async function resolveDeviceTarget(tx: Executor, tenantId: number, target: DeviceTargetInput, options: ResolveOptions = {}): Promise<ResolvedTarget> {
  const field = options.field ?? 'body.target';
  const limit = options.max === undefined ? undefined : options.max + 1;
  const select = (where: ReturnType<typeof and>) => {
    const query = tx.select({ id: locks.id, imei: locks.imei }).from(locks).where(and(eq(locks.tenantId, tenantId), where)).orderBy(asc(locks.id));
    return limit === undefined ? query : query.limit(limit);
  };
  const live = and(isNull(locks.imeiReleasedAt), isNull(locks.decommissionedAt));
  let rows: { id: number; imei: string }[];
  let unknownImeis: string[] = [];
  if (target.groupId !== undefined) {
    const [group] = await tx.select({ id: lockGroups.id }).from(lockGroups).where(and(eq(lockGroups.id, target.groupId), eq(lockGroups.tenantId, tenantId)));
    if (!group) throw new ApiError('NOT_FOUND', [{ field: `${field}.groupId`, message: { 'zh-CN': '分组不存在', 'en-US': 'There is no such group' } }]);
    rows = await select(and(live, inGroupSql(target.groupId)));
  } else if (target.imeis !== undefined) {
    const listed = [...new Set(target.imeis)];
    rows = await select(and(live, sql`${locks.imei} = any(${textArray(listed)}::text[])`));
    const found = new Set(rows.map((row) => row.imei));
    unknownImeis = listed.filter((imei) => !found.has(imei));
  } else {
    rows = await select(lockWhere(target.filter ?? {}, options.wakeWindowMs ?? protocol.WAKE_WINDOW_MS) ?? sql`true`);
  }
  if (options.max !== undefined && rows.length > options.max) {
    throw fieldError(field, `目标门锁超过 ${options.max} 把，请缩小范围`, `The target has more than ${options.max} locks; narrow it down`);
  }
  return { lockIds: rows.map((row) => row.id), unknownImeis };
}
