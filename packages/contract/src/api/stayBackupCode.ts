/**
 * Backup codes for sleeping locks (docs/stays.md "Backup codes"): every lock in a room keeps
 * a pool of pre-loaded passwords, each held by a lock user of Matter type expiringUser (activated by its
 * first use), installed through the credential service and the outbox while the lock is awake. Nobody
 * knows their digits (sealed like every password) until one is issued: when a checked-in guest's own
 * code is still queued for a sleeping lock, the front desk issues a backup code, which works at once
 * (no downlink at that moment). It is retired (its lock user deleted through the outbox) once the
 * guest's own code is 正常 on that lock or the stay ends, and the pool is refilled.
 *
 * Authority: the stays' key (VOUCHER_USER_MANAGE) to issue; the views also with LOOK_INFO.
 */
import { z } from 'zod';
import type { Authority } from '../authorities.js';
import { SYNC_STATES } from './credentialLog.js';
import { endpoint } from './endpoint.js';
import { int4Id } from './input.js';

/** Backup codes a lock keeps installed when its device type does not say (device type `backupCodePool`; 0 for none). */
export const BACKUP_CODE_POOL_DEFAULT = 3;
/** The most a device type may ask for. */
export const BACKUP_CODE_POOL_MAX = 10;
/**
 * Minutes a backup code opens after its first use (the lock user's `expiringMinutes`): the lock's own
 * backstop should its delete not reach the lock; normally it is deleted at the lock's next wake.
 */
export const BACKUP_CODE_EXPIRING_MINUTES = 1440;

/** The `issuedBy` of a backup code the platform issued by itself (data-centre setting `stayAutoBackupCode`), and its system-log rows' username. */
export const BACKUP_CODE_JOB_USERNAME = 'system:backupCodes';
/** The system-log action of an automatic issue (target the stay, detail `stayId` and `lockId`, never the code). */
export const BACKUP_CODE_AUTO_ACTION = 'backupCode-auto-issued';

/** issued: given to a stay and valid; retired: its delete was queued (the lock drops it at its next wake). */
export const BACKUP_CODE_STATES = ['issued', 'retired'] as const;
/** synced: the guest's own code became 正常 on that lock; ended: the stay was checked out, suspended or moved to another room. */
export const BACKUP_CODE_RETIRE_REASONS = ['synced', 'ended'] as const;

export const backupCodeIssueBody = z.strictObject({
  stayId: int4Id,
  /** One lock of the stay's room; omitted: every lock of the room where a guest's code is not 正常 yet. */
  lockId: int4Id.optional(),
});

/** An issued code, with its digits (shown to the front desk; asking again for the same stay and lock shows the same code). */
export const issuedBackupCode = z.object({
  id: z.number().int(), lockId: z.number().int(), lockName: z.string(), code: z.string(), issuedAt: z.string(),
  /** Who issued it: the front desk's username, or BACKUP_CODE_JOB_USERNAME when the platform did (data-centre setting `stayAutoBackupCode`). */
  issuedBy: z.string(),
  /** The latest it is valid: the end of the stay's doors' window (check-out + buffer after); retired earlier once the guest's code is 正常. */
  validUntil: z.string(),
  /** The lock itself refuses it this many minutes after its first use. */
  expiringMinutes: z.number().int(),
});
export type IssuedBackupCode = z.infer<typeof issuedBackupCode>;
export const backupCodeIssued = z.object({ stayId: z.number().int(), codes: z.array(issuedBackupCode) });

/** A backup code given to a stay (never its digits). `userState`: its lock user's sync state, `deleted` once the lock confirmed the delete. */
export const backupCodeRecord = z.object({
  id: z.number().int(), stayId: z.number().int(), lockId: z.number().int(), lockName: z.string(), state: z.enum(BACKUP_CODE_STATES),
  issuedAt: z.string(), issuedBy: z.string(), retiredAt: z.string().nullable(), retireReason: z.enum(BACKUP_CODE_RETIRE_REASONS).nullable(),
  userState: z.enum([...SYNC_STATES, 'deleted']),
});
export type BackupCodeRecord = z.infer<typeof backupCodeRecord>;

/** A lock's pool: its size (from the device type), entries ready to issue (正常), on their way, failed (retry or discard in 用户管理), and codes issued now. */
export const backupCodePool = z.object({
  lockId: z.number().int(), size: z.number().int(), available: z.number().int(), installing: z.number().int(), failed: z.number().int(), issued: z.number().int(),
});
export type BackupCodePool = z.infer<typeof backupCodePool>;

const W: Authority = 'VOUCHER_USER_MANAGE';
const R: readonly Authority[] = ['VOUCHER_USER_MANAGE', 'LOOK_INFO'];

export const stayBackupCodeEndpoints = {
  /**
   * Issues a backup code to a checked-in stay on each lock (or the one named) where a guest's code is
   * not 正常 yet. 409 on body.stayId when the stay is not checked in or every door is ready, on
   * body.lockId when a lock has no backup code ready (pool empty or still installing); 400 on
   * body.lockId for a lock outside the stay's room.
   */
  backupCode: endpoint({ method: 'POST', path: '/iot/v1/stay/backupCode', access: W, kind: 'token', body: backupCodeIssueBody, response: backupCodeIssued,
    action: { label: { 'zh-CN': '发放备用密码', 'en-US': 'Issue a backup code' }, target: ['stayId'] } }),
  /** The backup codes given to a stay, oldest first. */
  backupCodes: endpoint({ method: 'GET', path: '/iot/v1/stay/backupCodes', access: R, kind: 'token', query: z.object({ stayId: int4Id }), response: z.array(backupCodeRecord) }),
  /** The backup-code pool of a lock. */
  backupCodePool: endpoint({ method: 'GET', path: '/iot/v1/stay/backupCodePool', access: R, kind: 'token', query: z.object({ lockId: int4Id }), response: backupCodePool }),
};
