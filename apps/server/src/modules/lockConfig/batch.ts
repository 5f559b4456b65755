/**
 * Batch configuration push: the same configuration queued for every lock of a device
 * target (a group, an IMEI list, 门锁信息's filter; lockGroup/target.ts). Each lock is checked against its
 * own device type (limits.ts) and queued in its own savepoint, so a lock that refuses (a setting its type
 * cannot hold, QUEUE_FULL, ...) is reported with the reason and the others go on; all of it
 * is one transaction with its system-log row.
 */
import { CONFIG_BATCH_MAX, ERRORS, type LockConfigBatchResult, type protocol } from '@iot/contract';
import { asc, inArray } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { enqueueCommand } from '../command/outbox.js';
import { ratingsOfModels } from '../deviceType/ratings.js';
import { type DeviceTargetInput, resolveDeviceTarget } from '../lockGroup/target.js';
import { configIssues } from './limits.js';

/** Queues a configPush of `config` for each lock of `target`; returns what was queued and refused. */
export async function pushConfigToTarget(
  tx: Tx, who: { tenantId: number; username: string }, target: DeviceTargetInput, config: protocol.LockConfig, box: SecretBox, wakeWindowMs: number,
): Promise<LockConfigBatchResult> {
  const { lockIds, unknownImeis } = await resolveDeviceTarget(tx, who.tenantId, target, { max: CONFIG_BATCH_MAX, wakeWindowMs });
  const rows = lockIds.length === 0 ? [] : await tx.select({ id: locks.id, imei: locks.imei, model: locks.model }).from(locks).where(inArray(locks.id, lockIds)).orderBy(asc(locks.id));
  const ratings = await ratingsOfModels(tx, rows.map((row) => row.model));
  let queued = 0;
  const refused: LockConfigBatchResult['refused'] = [];
  for (const lock of rows) {
    const [issue] = configIssues(config, ratings.get(lock.model) as NonNullable<ReturnType<typeof ratings.get>>);
    if (issue) {
      refused.push({ lockId: lock.id, imei: lock.imei, code: 'VALIDATION_FAILED', message: issue.message });
      continue;
    }
    try {
      await tx.transaction((sp) => enqueueCommand(sp, { tenantId: who.tenantId, lockId: lock.id, type: 'configPush', data: { config }, createdBy: who.username }, box));
      queued++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refused.push({ lockId: lock.id, imei: lock.imei, code: error.code, message: error.localizedMessage ?? error.errors?.[0]?.message ?? ERRORS[error.code].message });
    }
  }
  return { queued, refused, unknownImeis };
}
