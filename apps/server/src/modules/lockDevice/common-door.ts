/**
 * Common doors (docs/stays.md "Common doors"): a lock that serves every room of its building
 * (`building`: an entrance, a lift) or of its floor (`floor`: a floor gate). `locks` is this module's
 * table, so the mark is written here; the stays module reads it when it chooses a room's doors.
 */
import type { CommonDoorScope } from '@iot/contract';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';

/** A common door as listed: where it stands and whom it serves. */
export interface CommonDoorRow { lockId: number; name: string; imei: string; building: string; floor: string; room: string; commonDoor: CommonDoorScope }

/**
 * Marks `lockId` a common door of its building or floor (`null`: a room's own door again); answers the
 * lock's place. 404 NOT_FOUND outside the tenant or for a retired lock.
 */
export async function setCommonDoor(tx: Executor, tenantId: number, lockId: number, commonDoor: CommonDoorScope | null): Promise<{ building: string; floor: string }> {
  const [row] = await tx.update(locks).set({ commonDoor })
    .where(and(eq(locks.id, lockId), eq(locks.tenantId, tenantId), isNull(locks.decommissionedAt), isNull(locks.imeiReleasedAt)))
    .returning({ building: locks.building, floor: locks.floor });
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** The data centre's common doors (of `building` when given), by building, floor and id. */
export async function listCommonDoors(tx: Executor, building?: string): Promise<CommonDoorRow[]> {
  const rows = await tx.select({ lockId: locks.id, name: locks.name, imei: locks.imei, building: locks.building, floor: locks.floor, room: locks.room, commonDoor: locks.commonDoor })
    .from(locks)
    .where(and(isNotNull(locks.commonDoor), building === undefined ? undefined : eq(locks.building, building), isNull(locks.decommissionedAt), isNull(locks.imeiReleasedAt)))
    .orderBy(locks.building, locks.floor, locks.id);
  return rows.flatMap((row) => (row.commonDoor === 'building' || row.commonDoor === 'floor' ? [{ ...row, commonDoor: row.commonDoor }] : []));
}
