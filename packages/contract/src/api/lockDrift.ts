/**
 * The lock's own inventory against the platform (设备信息's drift card): a lock reports which
 * user, password, card and fingerprint slots it holds (uplink `inventory`: after a change at the
 * keypad, on `queryInventory`, daily). Per table: slots the lock holds that the platform never put
 * there are **unmanaged** (adopt one for a person, or delete it from the lock); rows the platform
 * believes on the lock (normal, modifying or a failed modify / delete, unchanged since the report) that
 * the lock lacks are **missing** (re-queue the add, or mark it lost). Any of either raises the derived
 * alarm `credentialDrift`; a report without drift clears it. Reads with LOOK_INFO, changes with
 * LOCK_DRIFT_RESOLVE.
 */
import { z } from 'zod';
import { INVENTORY_REASONS, INVENTORY_TABLES } from '../protocol/access.js';
import { commandRecord, lockId } from './command.js';
import { credentialRecord, lockRefQuery } from './credential.js';
import { CREDENTIAL_KINDS, SYNC_STATES } from './credentialLog.js';
import { lockRefFields } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { int4Id } from './input.js';
import { localized as label } from '../i18n.js';

const subject = z.enum(['user', 'credential']);
export const lockDriftRecord = z.object({
  lockId: z.number().int(), imei: z.string(),
  /** The latest report; null when the lock has sent none. */
  inventory: z.object({ reason: z.enum(INVENTORY_REASONS), digest: z.string(), reportedAt: z.string() }).nullable(),
  /** True when the latest report shows no drift. */
  inSync: z.boolean(),
  tables: z.array(z.object({
    table: z.enum(INVENTORY_TABLES),
    /** Slots the lock reported, rows the platform believes on the lock. */
    onLock: z.number().int(), onPlatform: z.number().int(),
    unmanaged: z.array(z.object({ id: z.number().int(), slot: z.number().int(), syncState: z.enum(SYNC_STATES) })),
    missing: z.array(z.object({ subject, id: z.number().int(), slot: z.number().int(), name: z.string().nullable(), kind: z.enum(CREDENTIAL_KINDS).nullable() })),
  })),
});
export type LockDriftRecord = z.infer<typeof lockDriftRecord>;

const T = 'token' as const;
const R = 'LOCK_DRIFT_RESOLVE' as const;
const rowRef = z.strictObject({ subject, id: int4Id });

export const lockDriftEndpoints = {
  drift: endpoint({ method: 'GET', path: '/iot/v1/lockDevice/drift', access: ['LOOK_INFO', R], kind: T, query: lockRefQuery, response: lockDriftRecord }),
  /** Asks the lock for its inventory now (queued for a sleeping lock). */
  queryInventory: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/queryInventory', access: R, kind: T, body: z.strictObject({ lockId }), response: commandRecord,
    action: { label: label('查询门锁清单', 'Query lock inventory'), target: ['lockId'] } }),
  /** Assigns an unmanaged password, card or fingerprint to a lock user (Matter SetCredential modify: downlink credentialOwner). */
  adopt: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/drift/adopt', access: R, kind: T, body: z.strictObject({ id: int4Id, lockUserId: int4Id }), response: credentialRecord,
    action: { label: label('认领门锁上的凭证', 'Adopt a credential found on the lock'), target: ['id'] } }),
  /** Deletes an unmanaged slot from the lock. */
  deleteUnmanaged: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/drift/deleteUnmanaged', access: R, kind: T, body: z.strictObject({ id: int4Id }),
    response: z.object({ id: z.number().int(), commandId: z.number().int() }), action: { label: label('从门锁删除未登记凭证', 'Delete an unmanaged slot from the lock'), target: ['id'] } }),
  /** Sends the add of a row the lock lacks again (not a fingerprint: it needs the finger). */
  requeue: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/drift/requeue', access: R, kind: T, body: rowRef, response: z.object({ commandId: z.number().int() }),
    action: { label: label('重新下发门锁缺失的凭证', 'Re-queue a missing row'), target: ['id'] } }),
  /** Deletes the platform row of something the lock lacks, sending nothing. */
  markLost: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/drift/markLost', access: R, kind: T, body: rowRef, response: z.object({ id: z.number().int() }),
    action: { label: label('标记门锁缺失的凭证已丢失', 'Mark a missing row lost'), target: ['id'] } }),
  /** DEMO/TEST ONLY: someone adds a password at the keypad of a simulated lock; 404 when the lock is not simulated in-process. */
  keypadAdd: endpoint({ method: 'POST', path: '/iot/v1/simulator/keypadAdd', access: 'VOUCHER_PASSWORD_MANAGE', kind: T,
    body: z.strictObject({ ...lockRefFields, password: z.string().regex(/^\d{4,12}$/) }).refine((v) => v.lockId !== undefined || v.imei !== undefined, { message: 'lockId or imei is required', path: ['lockId'] }),
    response: z.object({ slot: z.number().int() }), action: { label: label('模拟键盘添加密码', 'Simulated keypad code'), target: ['lockId', 'imei'] } }),
};
