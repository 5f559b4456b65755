/**
 * Firmware packages (table `firmware_packages`, owned by this module): list in semantic-version order
 * per device type, add (after the upload has been streamed to the package store), delete. Functions
 * take the caller's tenant transaction. Versions are stored canonical (contract version.ts), so the
 * unique (tenant, model, version) index refuses versions of equal precedence. Errors: 400 for an
 * unknown device type, 409 CONFLICT for a version the type already has or a package an unfinished rollout uses, 404 for an unknown id.
 */
import { type FirmwarePackageRecord, type FirmwareUploadFields, formatVersion, type Page } from '@iot/contract';
import { and, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import semver from 'semver';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { deviceTypes, firmwarePackages, firmwareRollouts } from '../../db/schema.js';
import { containsPattern, iso } from '../../db/sql.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import type { StoredPackage } from './storage.js';

/** Rollout states during which the package must stay. */
export const UNFINISHED_ROLLOUTS = ['CREATED', 'RUNNING', 'PAUSED'];

const activeRollouts = sql<number>`(select count(*) from firmware_rollouts r where r.package_id = firmware_packages.id
  and r.state in ('CREATED', 'RUNNING', 'PAUSED'))`.mapWith(Number);
const familyOf = sql<string>`coalesce((select d.firmware_family from device_types d where d.tenant_id = firmware_packages.tenant_id
  and d.model = firmware_packages.model), '')`;

/** Newest first by semantic version (semver precedence) within each model, models in code order. */
export function comparePackages(a: { model: string; version: string }, b: { model: string; version: string }): number {
  return a.model.localeCompare(b.model) || semver.rcompare(a.version, b.version);
}

/** A page of packages (all of the data centre are ordered in memory: a handful per type). */
export async function listPackages(tx: Executor, q: { model?: string; keyword?: string; current: number; size: number }): Promise<Page<FirmwarePackageRecord>> {
  const conditions: SQL[] = [];
  if (q.model) conditions.push(eq(firmwarePackages.model, q.model));
  if (q.keyword) {
    const pattern = containsPattern(q.keyword);
    conditions.push(or(ilike(firmwarePackages.version, pattern), ilike(firmwarePackages.model, pattern), ilike(firmwarePackages.fileName, pattern)) as SQL);
  }
  const rows = await tx.select({ row: firmwarePackages, activeRollouts, family: familyOf }).from(firmwarePackages)
    .where(conditions.length ? and(...conditions) : undefined);
  const sorted = rows.sort((a, b) => comparePackages(a.row, b.row));
  const records = sorted.slice((q.current - 1) * q.size, q.current * q.size).map(({ row, activeRollouts: active, family }) => ({
    id: row.id, model: row.model, firmwareFamily: family, version: row.version, fileName: row.fileName, sizeBytes: row.sizeBytes,
    sha256: row.sha256, keyId: row.keyId, notes: { 'zh-CN': row.notesZh, 'en-US': row.notesEn }, createdBy: row.createdBy,
    createdAt: iso(row.createdAt), activeRollouts: active,
  }));
  return { records, total: rows.length, current: q.current, size: q.size };
}

/** Records an uploaded package; 400 when the data centre has no such device type, 409 for a known version. */
export async function addPackage(tx: Executor, tenantId: number, fields: FirmwareUploadFields, stored: StoredPackage & { fileName: string; keyId: string }, createdBy: string): Promise<{ id: number }> {
  const [type] = await tx.select({ id: deviceTypes.id }).from(deviceTypes).where(eq(deviceTypes.model, fields.model));
  if (!type) throw fieldError('body.model', `设备类型 ${fields.model} 不存在`, `There is no device type ${fields.model}`);
  try {
    const [row] = await tx.insert(firmwarePackages).values({
      tenantId, model: fields.model, version: fields.version, fileName: stored.fileName.slice(0, 255), sizeBytes: stored.size,
      sha256: stored.sha256, keyId: stored.keyId, storageKey: stored.key, notesZh: fields.notesZh, notesEn: fields.notesEn, createdBy,
    }).returning({ id: firmwarePackages.id });
    return { id: (row as { id: number }).id };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError('CONFLICT', [{ field: 'body.version', message: {
        'zh-CN': `${fields.model} 已有版本 ${formatVersion(fields.version)}（版本按语义化版本优先级比较，构建元数据与前缀 V 不区分版本）`,
        'en-US': `${fields.model} already has version ${formatVersion(fields.version)} (versions compare by semantic-versioning precedence: build metadata and a leading V do not make another version)`,
      } }]);
    }
    throw error;
  }
}

/**
 * Deletes a package no unfinished rollout uses (409 naming how many do); returns its storage key so
 * the caller removes the bytes after the commit.
 */
export async function deletePackage(tx: Executor, id: number): Promise<{ storageKey: string }> {
  const [row] = await tx.select({ storageKey: firmwarePackages.storageKey }).from(firmwarePackages).where(eq(firmwarePackages.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  const using = await tx.select({ id: firmwareRollouts.id }).from(firmwareRollouts)
    .where(and(eq(firmwareRollouts.packageId, id), inArray(firmwareRollouts.state, UNFINISHED_ROLLOUTS)));
  if (using.length > 0) {
    throw new ApiError('CONFLICT', [{ field: 'body.id', message: {
      'zh-CN': `该固件正被 ${using.length} 个未结束的升级任务使用，不能删除`, 'en-US': `${using.length} unfinished rollout(s) use this package; it cannot be deleted`,
    } }]);
  }
  await tx.delete(firmwarePackages).where(eq(firmwarePackages.id, id));
  return row;
}

/** The package of `id` in the data centre (for a new rollout), or 404 naming the field. */
export async function packageOf(tx: Executor, id: number) {
  const [row] = await tx.select().from(firmwarePackages).where(eq(firmwarePackages.id, id));
  if (!row) throw fieldError('body.packageId', '固件不存在', 'No such firmware package');
  return row;
}
