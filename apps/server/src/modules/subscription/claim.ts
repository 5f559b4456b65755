/**
 * Claiming due deliveries for the delivery worker (worker.ts): due pending rows of enabled, unpaused
 * endpoints, oldest due first, at most one per (endpoint, lock) in order, FOR UPDATE SKIP LOCKED; a
 * claim is a lease (next_attempt_at moves `leaseS` ahead) and counts an attempt.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

/** A claimed delivery: what the attempt needs. */
export interface Claimed {
  id: number; customerCodeId: number; code: string; url: string; eventId: string; eventType: string; tenantId: number;
  lockId: number | null; imei: string | null; occurredAt: string; data: unknown; attempts: number; createdAt: number;
}

/** Claims at most `batch` due deliveries with a lease of `leaseS` s (owner connection). */
export async function claimDeliveries(db: Db, batch: number, leaseS: number): Promise<Claimed[]> {
  const result = await db.execute(sql`
    with candidate as (
      select d.id from push_deliveries d join push_configs c on c.customer_code_id = d.customer_code_id
      where d.state = 'pending' and d.next_attempt_at <= now() and c.paused_at is null and c.enabled
        and not exists (select 1 from push_deliveries p where p.customer_code_id = d.customer_code_id
          and p.lock_id is not distinct from d.lock_id and p.state = 'pending' and p.id < d.id)
      order by d.next_attempt_at, d.id limit ${batch}
      for update of d skip locked)
    update push_deliveries d set next_attempt_at = now() + make_interval(secs => ${leaseS}), attempts = d.attempts + 1, last_attempt_at = now()
    from candidate, push_configs c, customer_codes cc
    where d.id = candidate.id and c.customer_code_id = d.customer_code_id and cc.id = d.customer_code_id
    returning d.id, d.customer_code_id, cc.code, c.url, d.event_id, d.event_type, d.tenant_id, d.lock_id,
      (select imei from locks l where l.id = d.lock_id) as imei, d.occurred_at, d.data, d.attempts, d.created_at`);
  return rowsOf<Record<string, unknown>>(result).map((row) => ({
    id: Number(row.id), customerCodeId: Number(row.customer_code_id), code: String(row.code), url: String(row.url),
    eventId: String(row.event_id), eventType: String(row.event_type), tenantId: Number(row.tenant_id),
    lockId: row.lock_id == null ? null : Number(row.lock_id), imei: row.imei == null ? null : String(row.imei),
    occurredAt: new Date(row.occurred_at as string).toISOString(), data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    attempts: Number(row.attempts), createdAt: new Date(row.created_at as string).getTime(),
  }));
}
