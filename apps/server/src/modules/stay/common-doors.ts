/**
 * Common doors for stays (contract api/stayCommonDoor.ts, docs/stays.md "Common doors"): the
 * mark itself is the lock registry's (lockDevice/common-door.ts); here, marking or unmarking a door makes
 * every issued active stay of its building look at its doors again (`pending`, `stay.changed`), so the
 * stays job adds the guests' users on a new common door and deletes them from one no longer common.
 */
import { type CommonDoorScope, STAY_ACTIVE_STATES } from '@iot/contract';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { stays } from '../../db/schema.js';
import { emitAll } from '../../events/emit.js';
import { setCommonDoor } from '../lockDevice/common-door.js';

/** Sets the mark and re-arms the building's issued active stays; answers how many. 404 NOT_FOUND for a lock outside the tenant. */
export async function markCommonDoor(tx: Executor, tenantId: number, lockId: number, commonDoor: CommonDoorScope | null) {
  const place = await setCommonDoor(tx, tenantId, lockId, commonDoor);
  const affected = await tx.update(stays).set({ pending: true, updatedAt: new Date() })
    .where(and(eq(stays.building, place.building), inArray(stays.state, [...STAY_ACTIVE_STATES]), isNotNull(stays.issuedAt)))
    .returning({ id: stays.id });
  await emitAll(tx, affected.map((stay) => ({ name: 'stay.changed' as const, payload: { tenantId, stayId: stay.id } })));
  return { lockId, commonDoor, staysAffected: affected.length };
}
