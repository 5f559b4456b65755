/**
 * High-security doors: a lock whose remote unlocks need a second operator's approval
 * (modules/remoteUnlock). `locks` is this module's table, so the flag is read and written here.
 */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';

/** What remote unlock needs to know of a lock; 404 NOT_FOUND outside the tenant. `lock`: lock the row for the rest of the transaction. */
export async function remoteUnlockTraits(tx: Executor, tenantId: number, lockId: number, lock = false): Promise<{ alwaysOnline: boolean; highSecurity: boolean }> {
  const query = tx.select({ alwaysOnline: locks.alwaysOnline, highSecurity: locks.highSecurity }).from(locks).where(and(eq(locks.id, lockId), eq(locks.tenantId, tenantId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Marks a lock high-security or not; 404 NOT_FOUND outside the tenant. */
export async function setHighSecurity(tx: Executor, tenantId: number, lockId: number, highSecurity: boolean): Promise<{ lockId: number; highSecurity: boolean }> {
  const [row] = await tx.update(locks).set({ highSecurity }).where(and(eq(locks.id, lockId), eq(locks.tenantId, tenantId))).returning({ id: locks.id });
  if (!row) throw new ApiError('NOT_FOUND');
  return { lockId, highSecurity };
}
