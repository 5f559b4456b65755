/**
 * 订阅管理 service: customer codes, their secrets and push configuration with the
 * endpoint's health. Every function runs in the caller's tenant transaction (row-level security);
 * the network handshake of saveConfig (verify.ts) runs between two of them, never inside one.
 */
import { randomBytes } from 'node:crypto';
import type { CustomerCodeRecord, PushEventType } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { rowsOf } from '../../db/rows.js';
import { emit } from '../../events/emit.js';
import { iso } from '../../db/sql.js';
import { ApiError, fieldError } from '../../http/api-error.js';

type Row = Record<string, unknown>;
const num = (value: unknown) => (value == null ? null : Number(value));
const time = (value: unknown) => (value == null ? null : iso(value as string));

/** The tenant's customer codes (optionally matching `keyword` in code or name), newest first, with keys, config and 24 h health. */
export async function listCustomerCodes(tx: Tx, keyword?: string, onlyId?: number): Promise<CustomerCodeRecord[]> {
  const pattern = keyword ? `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = rowsOf<Row>(await tx.execute(sql`
    select cc.id, cc.code, cc.name, cc.contact, cc.enabled, cc.created_at,
      (select coalesce(json_agg(json_build_object('id', k.id, 'hint', k.hint, 'createdAt', k.created_at, 'validUntil', k.valid_until) order by k.id desc), '[]')
         from customer_keys k where k.customer_code_id = cc.id and (k.valid_until is null or k.valid_until > now())) as keys,
      c.url, c.event_types, c.buildings, c.enabled as config_enabled, c.last_success_at, c.consecutive_failures, c.failing_since, c.paused_at,
      h.attempts, h.delivered, h.p95, h.pending, h.dead
    from customer_codes cc
    left join push_configs c on c.customer_code_id = cc.id
    left join lateral (
      select count(*) filter (where d.last_attempt_at > now() - interval '24 hours') as attempts,
        count(*) filter (where d.last_attempt_at > now() - interval '24 hours' and d.state = 'delivered') as delivered,
        percentile_cont(0.95) within group (order by d.last_latency_ms) filter (where d.last_attempt_at > now() - interval '24 hours') as p95,
        count(*) filter (where d.state = 'pending') as pending, count(*) filter (where d.state = 'dead') as dead
      from push_deliveries d where d.customer_code_id = cc.id) h on true
    where (${pattern}::text is null or cc.code ilike ${pattern} or cc.name ilike ${pattern}) and (${onlyId ?? null}::bigint is null or cc.id = ${onlyId ?? null})
    order by cc.id desc`));
  return rows.map((row) => {
    const attempts = Number(row.attempts ?? 0);
    const keys = (typeof row.keys === 'string' ? JSON.parse(row.keys) : row.keys) as { id: number; hint: string; createdAt: string; validUntil: string | null }[];
    return {
      id: Number(row.id), customerCode: String(row.code), name: String(row.name), contact: String(row.contact), enabled: Boolean(row.enabled),
      createdAt: iso(row.created_at as string),
      keys: keys.map((k) => ({ id: Number(k.id), hint: k.hint, createdAt: iso(k.createdAt), validUntil: time(k.validUntil) })),
      config: row.url == null ? null : {
        url: String(row.url), eventTypes: row.event_types as PushEventType[], buildings: row.buildings as string[], enabled: Boolean(row.config_enabled),
      },
      health: {
        attempts, successRate: attempts ? Number(row.delivered) / attempts : null, p95LatencyMs: num(row.p95) === null ? null : Math.round(Number(row.p95)),
        lastSuccessAt: time(row.last_success_at), consecutiveFailures: Number(row.consecutive_failures ?? 0), failingSince: time(row.failing_since),
        pausedAt: time(row.paused_at), pending: Number(row.pending ?? 0), dead: Number(row.dead ?? 0),
      },
    };
  });
}

/** Creates (no id) or updates a customer code; a code taken anywhere is a 400 on `customerCode`. */
export async function saveCustomerCode(tx: Tx, tenantId: number, input: { id?: number; customerCode?: string; name: string; contact: string; enabled: boolean }): Promise<CustomerCodeRecord> {
  let id = input.id;
  try {
    if (id === undefined) {
      const code = input.customerCode ?? `CC${randomBytes(6).toString('hex').toUpperCase()}`;
      const [row] = rowsOf<Row>(await tx.execute(sql`
        insert into customer_codes (tenant_id, code, name, contact, enabled) values (${tenantId}, ${code}, ${input.name}, ${input.contact}, ${input.enabled}) returning id`));
      id = Number(row?.id);
    } else {
      const updated = rowsOf<Row>(await tx.execute(sql`
        update customer_codes set name = ${input.name}, contact = ${input.contact}, enabled = ${input.enabled}, code = coalesce(${input.customerCode ?? null}, code)
        where id = ${id} returning id`));
      if (updated.length === 0) throw new ApiError('NOT_FOUND');
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('body.customerCode', '客户编码已被使用', 'This customer code is taken');
    throw error;
  }
  const [record] = await listCustomerCodes(tx, undefined, id);
  return record as CustomerCodeRecord;
}

/** The id of the tenant's customer code `code`; 404 when the tenant has none such. */
export async function customerCodeId(tx: Tx, code: string): Promise<number> {
  const [row] = rowsOf<Row>(await tx.execute(sql`select id from customer_codes where code = ${code}`));
  if (!row) throw new ApiError('NOT_FOUND');
  return Number(row.id);
}

/** The configuration of customer code `code` (null when none is saved). */
export async function getConfig(tx: Tx, code: string): Promise<CustomerCodeRecord['config']> {
  const [record] = await listCustomerCodes(tx, undefined, await customerCodeId(tx, code));
  return record?.config ?? null;
}

/** Writes the configuration of customer code `id` (upsert). */
export async function writeConfig(tx: Tx, tenantId: number, id: number, config: { url: string; eventTypes: readonly string[]; buildings: readonly string[]; enabled: boolean }): Promise<void> {
  await tx.execute(sql`
    insert into push_configs (customer_code_id, tenant_id, url, event_types, buildings, enabled)
    values (${id}, ${tenantId}, ${config.url}, ${sql.param([...config.eventTypes])}::text[], ${sql.param([...config.buildings])}::text[], ${config.enabled})
    on conflict (customer_code_id) do update set url = excluded.url, event_types = excluded.event_types, buildings = excluded.buildings,
      enabled = excluded.enabled, updated_at = now()`);
  if (config.enabled) await emit(tx, 'push.queued', { tenantId, count: 1 }); // deliveries held by a disabled endpoint may be due
}

/** Unpauses customer code `id`'s endpoint and makes its pending deliveries due now; false when it has no configuration. */
export async function resumeEndpoint(tx: Tx, id: number): Promise<boolean> {
  const updated = rowsOf(await tx.execute(sql`
    update push_configs set paused_at = null, consecutive_failures = 0, failing_since = null where customer_code_id = ${id} returning customer_code_id`));
  await tx.execute(sql`update push_deliveries set next_attempt_at = now() where customer_code_id = ${id} and state = 'pending' and next_attempt_at > now()`);
  if (updated.length > 0) await emit(tx, 'push.queued', { tenantId: null, count: 1 }); // the worker looks again
  return updated.length > 0;
}
