/**
 * The lock's inventory against what the platform believes (contract api/lockDrift.ts):
 * the `inventory` uplink handler (in the uplink's transaction) stores the lock's latest report,
 * records the slots nobody put there as unmanaged (unmanaged_slots; a slot the platform later knows is
 * dropped at the next report), and raises or clears the derived alarm `credentialDrift`; `missingRows`
 * finds the rows the lock lacks. Tables: lock_inventories, unmanaged_slots (this module's).
 */
import { protocol } from '@iot/contract';
import { and, eq, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { credentials, lockInventories, lockUsers, unmanagedSlots } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { clearDerivedAlarms, raiseDerivedAlarms } from '../deviceAlert/lock.js';

type InventoryTable = protocol.InventoryTable;

interface InventoryUplink {
  lockId: number;
  tenantId: number;
  message: Extract<protocol.UplinkMessage, { type: 'inventory' }>;
}

/** Sync states of a row the platform believes the lock holds. */
const BELIEVED = ['normal', 'modifying', 'modify_failed', 'delete_failed'];

/**
 * The slots of each table the platform knows of on the lock: any row but one whose add failed (the
 * lock never took it, so what the lock holds in that slot came from elsewhere: the keypad).
 */
async function knownSlots(tx: Executor, lockId: number): Promise<Record<InventoryTable, Set<number>>> {
  const users = await tx.select({ slot: lockUsers.userSlot }).from(lockUsers).where(and(eq(lockUsers.lockId, lockId), ne(lockUsers.syncState, 'add_failed')));
  const held = await tx.select({ table: credentials.slotTable, slot: credentials.slot }).from(credentials)
    .where(and(eq(credentials.lockId, lockId), isNotNull(credentials.slot), ne(credentials.syncState, 'add_failed')));
  const of = (table: string) => new Set(held.filter((row) => row.table === table).map((row) => row.slot as number));
  return { users: new Set(users.map((row) => row.slot)), passwords: of('passwords'), cards: of('cards'), fingerprints: of('fingerprints') };
}

export interface MissingRow {
  table: InventoryTable;
  subject: 'user' | 'credential';
  id: number;
  slot: number;
  name: string | null;
  kind: string | null;
}

/**
 * Rows the platform believes on the lock, unchanged since the report `reportedAt`, whose slot the
 * report `onLock` lacks.
 */
export async function missingRows(tx: Executor, lockId: number, onLock: Record<InventoryTable, Set<number>>, reportedAt: Date): Promise<MissingRow[]> {
  const users = await tx.select().from(lockUsers).where(and(eq(lockUsers.lockId, lockId), inArray(lockUsers.syncState, BELIEVED), lte(lockUsers.updatedAt, reportedAt)));
  const rows = await tx.select({ row: credentials, holder: lockUsers.name }).from(credentials).leftJoin(lockUsers, eq(lockUsers.id, credentials.lockUserId))
    .where(and(eq(credentials.lockId, lockId), inArray(credentials.syncState, BELIEVED), lte(credentials.updatedAt, reportedAt), isNotNull(credentials.slot)));
  return [
    ...users.filter((user) => !onLock.users.has(user.userSlot)).map((user) => ({ table: 'users' as const, subject: 'user' as const, id: user.id, slot: user.userSlot, name: user.name, kind: null })),
    ...rows.filter(({ row }) => !onLock[row.slotTable as InventoryTable]?.has(row.slot as number))
      .map(({ row, holder }) => ({ table: row.slotTable as InventoryTable, subject: 'credential' as const, id: row.id, slot: row.slot as number, name: holder, kind: row.kind })),
  ];
}

/** A stored report's occupied slots per table. */
export function reportSlots(report: Record<InventoryTable, string>): Record<InventoryTable, Set<number>> {
  return Object.fromEntries(protocol.INVENTORY_TABLES.map((table) => [table, new Set(protocol.bitmapSlots(report[table]))])) as Record<InventoryTable, Set<number>>;
}

/**
 * Raises (with the counts) or clears the lock's credentialDrift alarm (notifications route it as any
 * alarm), and emits `credential.drift` with what is left (docs/events.md).
 */
export async function reviewDrift(tx: Tx, tenantId: number, lockId: number, unmanaged: number, missing: number): Promise<void> {
  await emit(tx, 'credential.drift', { tenantId, lockId, unmanaged, missing });
  if (unmanaged + missing > 0) await raiseDerivedAlarms(tx, [{ tenantId, lockId, kind: 'credentialDrift', detail: `unmanaged ${unmanaged}, missing ${missing}` }]);
  else await clearDerivedAlarms(tx, 'credentialDrift', [lockId]);
}

/** The uplink handler: each lock's newest report in the batch is compared (see the module comment). */
export async function applyInventories(tx: Tx, uplinks: readonly InventoryUplink[]): Promise<void> {
  const newest = new Map<number, InventoryUplink>();
  for (const uplink of uplinks) if ((newest.get(uplink.lockId)?.message.seq ?? -1) < uplink.message.seq) newest.set(uplink.lockId, uplink);
  for (const { lockId, tenantId, message } of newest.values()) {
    const { reason, digest, users, passwords, cards, fingerprints } = message.data;
    const report = { users, passwords, cards, fingerprints };
    const [stored] = await tx.insert(lockInventories).values({ lockId, tenantId, reason, digest, ...report })
      .onConflictDoUpdate({ target: lockInventories.lockId, set: { reason, digest, ...report, reportedAt: sql`now()` } }).returning({ reportedAt: lockInventories.reportedAt });
    const onLock = reportSlots(report);
    const known = await knownSlots(tx, lockId);
    const fresh = protocol.INVENTORY_TABLES.flatMap((table) => [...onLock[table]].filter((slot) => !known[table].has(slot)).map((slot) => ({ table, slot })));
    await tx.delete(unmanagedSlots).where(and(eq(unmanagedSlots.lockId, lockId), eq(unmanagedSlots.syncState, 'normal'),
      fresh.length ? sql`(${unmanagedSlots.slotTable}, ${unmanagedSlots.slot}) not in (${sql.join(fresh.map((f) => sql`(${f.table}, ${f.slot}::int)`), sql`, `)})` : undefined));
    if (fresh.length) {
      await tx.insert(unmanagedSlots).values(fresh.map(({ table, slot }) => ({ tenantId, lockId, slotTable: table, slot, syncState: 'normal', pendingAction: 'add' }))).onConflictDoNothing();
    }
    const missing = await missingRows(tx, lockId, onLock, stored?.reportedAt ?? new Date());
    await reviewDrift(tx, tenantId, lockId, fresh.length, missing.length);
  }
}
