/**
 * Each data centre's settings (tenants; table `tenants`, owned by this module; the header's list of
 * them: options.ts): its IANA time zone (every page, the big screen, exports and the
 * analysis' days use it). The zone is read often (exports, user info): it is cached per instance for
 * ZONE_CACHE_MS, and at once when this instance changes it. Password sign-in on or off per data
 * centre (the sso module decides when it may be turned off). The buffers a stay booked
 * without its own gets (minutes), read by the stay module through stayBuffersOf, and
 * whether backup codes are issued by rule (read by the backup-code module through
 * stayAutoBackupCodeOf).
 */
import { DEFAULT_TIME_ZONE, STAY_DEFAULT_BUFFERS, type TenantSettings, type TenantSettingsBody } from '@iot/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { tenants } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';

/** How long another instance's change of a zone may take to be seen here, ms. */
const ZONE_CACHE_MS = 10_000;
const zones = new Map<number, { zone: string; at: number }>();

/** The time zone of data centre `tenantId` (DEFAULT_TIME_ZONE for an unknown one), cached (see the module comment). */
export async function timeZoneOf(db: Executor, tenantId: number): Promise<string> {
  const cached = zones.get(tenantId);
  if (cached && Date.now() - cached.at < ZONE_CACHE_MS) return cached.zone;
  const [row] = await db.select({ zone: tenants.timeZone }).from(tenants).where(eq(tenants.id, tenantId));
  const zone = row?.zone ?? DEFAULT_TIME_ZONE;
  zones.set(tenantId, { zone, at: Date.now() });
  return zone;
}

/** The settings of data centre `tenantId` (buffers in minutes); 404 when there is none. */
export async function tenantSettingsOf(db: Executor, tenantId: number): Promise<TenantSettings> {
  const [row] = await db.select({
    name: tenants.name, timeZone: tenants.timeZone, stayBufferBeforeMinutes: tenants.stayBufferBeforeMinutes, stayBufferAfterMinutes: tenants.stayBufferAfterMinutes,
    stayAutoBackupCode: tenants.stayAutoBackupCode,
  }).from(tenants).where(eq(tenants.id, tenantId));
  if (!row) throw new ApiError('NOT_FOUND');
  return { tenantId, ...row };
}

/**
 * Changes the fields of `body` that are present (time zone, default stay buffers in minutes, automatic backup codes; already
 * checked by the contract) of data centre `tenantId` in the caller's transaction.
 */
export async function saveTenantSettings(db: Executor, tenantId: number, body: TenantSettingsBody): Promise<TenantSettings> {
  const changes = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as TenantSettingsBody;
  if (Object.keys(changes).length > 0) await db.update(tenants).set(changes).where(eq(tenants.id, tenantId));
  if (changes.timeZone) zones.set(tenantId, { zone: changes.timeZone, at: Date.now() });
  return tenantSettingsOf(db, tenantId);
}

/** The buffers, minutes, a stay of data centre `tenantId` gets when it names none (STAY_DEFAULT_BUFFERS for an unknown one). */
export async function stayBuffersOf(db: Executor, tenantId: number): Promise<{ beforeMinutes: number; afterMinutes: number }> {
  const [row] = await db.select({ beforeMinutes: tenants.stayBufferBeforeMinutes, afterMinutes: tenants.stayBufferAfterMinutes }).from(tenants).where(eq(tenants.id, tenantId));
  return row ?? { ...STAY_DEFAULT_BUFFERS };
}

/** Whether data centre `tenantId` has the backup-code job issue backup codes by itself (false for an unknown one). */
export async function stayAutoBackupCodeOf(db: Executor, tenantId: number): Promise<boolean> {
  const [row] = await db.select({ on: tenants.stayAutoBackupCode }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.on ?? false;
}

/** Whether data centre `tenantId` allows password sign-in (true for an unknown one: the sign-in then fails on its own). */
export async function passwordSignInOf(db: Executor, tenantId: number): Promise<boolean> {
  const [row] = await db.select({ on: tenants.passwordSignIn }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.on ?? true;
}

/** Whether any of `tenantIds` has password sign-in off. */
export async function anyPasswordSignInOff(db: Executor, tenantIds: number[]): Promise<boolean> {
  if (tenantIds.length === 0) return false;
  const rows = await db.select({ id: tenants.id }).from(tenants).where(and(inArray(tenants.id, tenantIds), eq(tenants.passwordSignIn, false)));
  return rows.length > 0;
}

/** Turns password sign-in of `tenantId` on or off in the caller's transaction (the sso module checks the lock-out guard first). */
export async function setPasswordSignIn(db: Executor, tenantId: number, on: boolean): Promise<void> {
  await db.update(tenants).set({ passwordSignIn: on }).where(eq(tenants.id, tenantId));
}
