/**
 * Batch configuration push (issue #11): the same configuration queued for every lock of a device
 * target (a group, an IMEI list, 门锁信息's filter; lockGroup/target.ts). Each lock is queued in its
 * own savepoint, so a lock that refuses (QUEUE_FULL, ...) is reported and the others go on; all of it
 * is one transaction with its system-log row.
 */
import { CONFIG_BATCH_MAX, type LockConfigBatchResult, type protocol } from '@iot/contract';
import { asc, inArray } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { enqueueCommand } from '../command/outbox.js';
import { type DeviceTargetInput, resolveDeviceTarget } from '../lockGroup/target.js';

/** Queues a configPush of `config` for each lock of `target`; returns what was queued and refused. */
export async function pushConfigToTarget(
  tx: Tx, who: { tenantId: number; username: string }, target: DeviceTargetInput, config: protocol.LockConfig, box: SecretBox, wakeWindowMs: number,
): Promise<LockConfigBatchResult> {
  const { lockIds, unknownImeis } = await resolveDeviceTarget(tx, who.tenantId, target, { max: CONFIG_BATCH_MAX, wakeWindowMs });
  const rows = lockIds.length === 0 ? [] : await tx.select({ id: locks.id, imei: locks.imei }).from(locks).where(inArray(locks.id, lockIds)).orderBy(asc(locks.id));
  let queued = 0;
  const refused: LockConfigBatchResult['refused'] = [];
  for (const lock of rows) {
    try {
      await tx.transaction((sp) => enqueueCommand(sp, { tenantId: who.tenantId, lockId: lock.id, type: 'configPush', data: { config }, createdBy: who.username }, box));
      queued++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refused.push({ lockId: lock.id, imei: lock.imei, code: error.code });
    }
  }
  return { queued, refused, unknownImeis };
}
