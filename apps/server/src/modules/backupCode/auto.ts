/**
 * Backup codes issued by the platform by rule (docs/stays.md "Automatic backup codes"): in a
 * data centre whose setting `stayAutoBackupCode` is on (tenant module), the backup-code job (job.ts)
 * gives each checked-in stay a backup code on every lock where a door it holds is not 正常 yet (the
 * guest's own code still on its way to a sleeping lock, or failed) and the stay holds no issued code,
 * from the lock's pool (issue.ts issueEntry). A lock without a ready entry is skipped (tried again at
 * the next pass that finds one ready). Every issue writes a system-log row in the same transaction
 * naming the stay and the lock, never the digits; the front desk reads the digits with the manual
 * issue (POST /iot/v1/stay/backupCode gives a held code again). Retiring is the same as for a manual one.
 */
import { BACKUP_CODE_AUTO_ACTION } from '@iot/contract';
import { and, eq, exists, isNull, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.js';
import { backupCodes, credentials, lockUsers, stayDoors, stays, tenants } from '../../db/schema.js';
import { insertAudit } from '../auditLog/repo.js';
import { doorStates } from '../stay/doors.js';
import { stayAutoBackupCodeOf } from '../tenant/settings.js';
import { entryReady } from './pool.js';
import { guestCodeReady, heldCode, issueEntry } from './issue.js';

/**
 * Checked-in stays that may want an automatic backup code (owner connection, every data centre): their
 * data centre has the setting on, and a door they hold (not released) is not 正常 on a lock that has a
 * ready pool entry and where the stay holds no issued code. autoIssueBackupCodes decides exactly in the
 * tenant's transaction. `{ id, tenantId }` by stay id.
 */
export async function autoIssueCandidates(database: Database): Promise<{ id: number; tenantId: number }[]> {
  const db = database.system;
  const doorUser = alias(lockUsers, 'door_user');
  const doorPassword = alias(credentials, 'door_password');
  const held = alias(backupCodes, 'held_code');
  const readyEntry = db.select({ one: sql`1` }).from(backupCodes)
    .innerJoin(lockUsers, eq(lockUsers.id, backupCodes.lockUserId)).innerJoin(credentials, eq(credentials.id, backupCodes.credentialId))
    .where(and(eq(backupCodes.lockId, stayDoors.lockId), eq(backupCodes.state, 'pool'), entryReady));
  const holding = db.select({ one: sql`1` }).from(held)
    .where(and(eq(held.stayId, stayDoors.stayId), eq(held.lockId, stayDoors.lockId), eq(held.state, 'issued')));
  const waiting = db.select({ one: sql`1` }).from(stayDoors)
    .leftJoin(doorUser, eq(doorUser.id, stayDoors.lockUserId)).leftJoin(doorPassword, eq(doorPassword.id, stayDoors.credentialId))
    .where(and(eq(stayDoors.stayId, stays.id), isNull(stayDoors.releasedAt),
      sql`not coalesce(${doorUser.syncState} = 'normal' and ${doorUser.status} = 'normal' and ${doorPassword.syncState} = 'normal', false)`,
      exists(readyEntry), notExists(holding)));
  return db.select({ id: stays.id, tenantId: stays.tenantId }).from(stays).innerJoin(tenants, eq(tenants.id, stays.tenantId))
    .where(and(eq(stays.state, 'CHECKED_IN'), eq(tenants.stayAutoBackupCode, true), exists(waiting))).orderBy(stays.id);
}

/**
 * Issues a backup code as `username` at `now` (ms) to stay `stayId` on every lock where a door it holds
 * is not 正常 and it holds no issued code, if its data centre `tenantId` has the setting on and the stay
 * is checked in (otherwise nothing); a lock without a ready entry is skipped. Each issue writes its
 * system-log row (BACKUP_CODE_AUTO_ACTION, target the stay, detail `stayId`, `lockId`, `backupCodeId`).
 * Runs in the tenant's transaction; returns the locks whose pools lost an entry (to be refilled).
 */
export async function autoIssueBackupCodes(tx: Executor, tenantId: number, username: string, stayId: number, now = Date.now()): Promise<number[]> {
  if (!(await stayAutoBackupCodeOf(tx, tenantId))) return [];
  const [stay] = await tx.select({ id: stays.id, state: stays.state }).from(stays).where(eq(stays.id, stayId)).for('update');
  if (stay?.state !== 'CHECKED_IN') return [];
  const doors = (await doorStates(tx, [stay.id])).filter((door) => !door.released);
  const waiting = [...new Set(doors.filter((door) => !guestCodeReady(door)).map((door) => door.lockId))];
  const issued: number[] = [];
  for (const lockId of waiting) {
    if (await heldCode(tx, stay.id, lockId)) continue;
    const row = await issueEntry(tx, username, stay.id, lockId, now);
    if (!row) continue;
    await insertAudit(tx, {
      tenantId, accountId: null, username, action: BACKUP_CODE_AUTO_ACTION, target: String(stay.id), result: 'success', clientIp: '',
      detail: { stayId: stay.id, lockId, backupCodeId: row.id },
    });
    issued.push(lockId);
  }
  return issued;
}
