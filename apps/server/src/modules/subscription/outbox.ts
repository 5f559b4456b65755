/**
 * The delivery outbox writer: events become push_deliveries rows in the caller's
 * transaction, so an event that rolls back is never pushed, and a committed one always is. One
 * statement per batch whatever its size and the number of subscriptions: the events are passed as
 * arrays and joined with the enabled configurations of their tenant that subscribe to their type
 * (and, when limited to buildings, whose building holds the lock).
 */
import { randomUUID } from 'node:crypto';
import { protocol, type PushEventType } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowCount, rowsOf } from '../../db/rows.js';
import { emit } from '../../events/emit.js';
import type { FinishedCommand } from '../command/transitions.js';

/** One event of a lock. `data`: the payload's `data` (docs/open-platform.md); occurredAt: ms since epoch. */
export interface PushEvent {
  tenantId: number;
  lockId: number;
  type: PushEventType;
  occurredAt: number;
  data: Record<string, unknown>;
}

/** Writes one delivery per (event, subscribed configuration), emitting `push.queued` when any; returns how many rows. */
export async function enqueuePushEvents(tx: Executor, events: readonly PushEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const param = <V>(pick: (e: PushEvent) => V) => sql.param(events.map(pick));
  const result = await tx.execute(sql`
    insert into push_deliveries (tenant_id, customer_code_id, event_id, event_type, lock_id, occurred_at, data)
    select e.tenant_id, c.customer_code_id, e.event_id, e.event_type, e.lock_id, e.occurred_at, e.data::jsonb
    from unnest(${param((e) => e.tenantId)}::int[], ${param((e) => e.lockId)}::int[], ${param((e) => e.type)}::text[],
      ${param(() => randomUUID())}::uuid[], ${param((e) => new Date(e.occurredAt).toISOString())}::timestamptz[],
      ${param((e) => JSON.stringify(e.data))}::text[]) with ordinality as e(tenant_id, lock_id, event_type, event_id, occurred_at, data, ord)
    join push_configs c on c.tenant_id = e.tenant_id and c.enabled and e.event_type = any(c.event_types)
    join customer_codes cc on cc.id = c.customer_code_id and cc.enabled
    where cardinality(c.buildings) = 0 or exists (select 1 from locks l where l.id = e.lock_id and l.building = any(c.buildings))
    order by e.ord, c.customer_code_id`);
  const queued = rowCount(result);
  if (queued > 0) await emit(tx, 'push.queued', { tenantId: null, count: queued }); // the delivery worker wakes (worker.ts)
  return queued;
}

type Uplink<K extends protocol.UplinkType> = { tenantId: number; lockId: number; imei: string; message: Extract<protocol.UplinkMessage, { type: K }> };

/** The push event of a stored event uplink, or none for types not pushed (configReport). */
export function eventOfUplink(uplink: { tenantId: number; lockId: number; imei: string; message: protocol.UplinkMessage }): PushEvent | undefined {
  const { tenantId, lockId, message } = uplink;
  const base = { tenantId, lockId, occurredAt: message.ts };
  const meta = { imei: uplink.imei, seq: message.seq };
  switch (message.type) {
    case 'openRecord': {
      const { data } = (uplink as Uplink<'openRecord'>).message;
      return { ...base, type: 'unlock', data: { ...meta, method: data.method, success: data.success, slot: data.slot ?? null, userSlot: data.userSlot ?? null, lockTime: new Date(data.lockTime).toISOString() } };
    }
    case 'alarm': {
      const { data } = (uplink as Uplink<'alarm'>).message;
      return { ...base, type: 'alarm', data: { ...meta, kind: data.kind, severity: protocol.ALARM_KINDS[data.kind], state: data.cleared ? 'cleared' : 'raised', detail: data.detail ?? null } };
    }
    case 'doorState':
      return { ...base, type: 'doorState', data: { ...meta, ...(uplink as Uplink<'doorState'>).message.data } };
    default:
      return undefined;
  }
}

/** The heartbeat summary event of a lock's newest heartbeat in a batch. */
export function heartbeatEvent(tenantId: number, lockId: number, imei: string, message: Extract<protocol.UplinkMessage, { type: 'heartbeat' }>): PushEvent {
  const { data } = message;
  return { tenantId, lockId, type: 'heartbeat', occurredAt: message.ts, data: { imei, seq: message.seq, ...data } };
}

/**
 * A presence event: the lock came online (its first stored heartbeat after being offline or unknown;
 * `seq` is that heartbeat's) or went offline (the presence sweep: no heartbeat for
 * ONLINE_HEARTBEAT_FACTOR intervals; `seq` null). occurredAt: ms since epoch.
 */
export function presenceEvent(tenantId: number, lockId: number, imei: string, state: 'online' | 'offline', occurredAt: number, seq: number | null, lastHeartbeatAt: string | null): PushEvent {
  return { tenantId, lockId, type: 'presence', occurredAt, data: { imei, seq, state, lastHeartbeatAt } };
}

/**
 * Alarm events of alerts an operator acknowledged (state `acknowledged`, `seq` null), in the
 * acknowledging transaction. `alerts`: lockAlert's acknowledged rows.
 */
export async function enqueueAcknowledgedAlarms(tx: Executor, alerts: readonly { tenantId: number; lockId: number; kind: string; severity: string; detail: string | null }[], username: string): Promise<void> {
  if (alerts.length === 0) return;
  const imeis = rowsOf<{ id: number; imei: string }>(await tx.execute(sql`select id, imei from locks where id = any(${sql.param(alerts.map((a) => a.lockId))}::int[])`));
  const imeiOf = new Map(imeis.map((row) => [row.id, row.imei]));
  const now = Date.now();
  await enqueuePushEvents(tx, alerts.map((alert) => ({
    tenantId: alert.tenantId, lockId: alert.lockId, type: 'alarm' as const, occurredAt: now,
    data: { imei: imeiOf.get(alert.lockId) ?? null, seq: null, kind: alert.kind, severity: alert.severity, state: 'acknowledged', detail: alert.detail, acknowledgedBy: username },
  })));
}

const CREDENTIAL_COMMANDS = new Set(['userOperation', 'foreverPassword', 'tempPassword', 'cardOperate', 'addFingerPrint', 'deleteDevice', 'registerDevice']);

/**
 * "Command finished" hook (modules/command/lifecycle.ts, wired in app.ts): a commandResult event per
 * finished command, or a credentialSync event for commands that sync lock users and credentials; in
 * the transaction that writes the final state.
 */
export async function enqueueFinishedCommands(tx: Executor, finished: readonly FinishedCommand[]): Promise<void> {
  const now = Date.now();
  await enqueuePushEvents(tx, finished.map((command) => ({
    tenantId: command.tenantId, lockId: command.lockId, occurredAt: now,
    type: CREDENTIAL_COMMANDS.has(command.type) ? 'credentialSync' : 'commandResult',
    data: { commandId: command.id, command: command.type, state: command.state, success: command.state === 'SUCCESSFUL', resultCode: command.resultCode, slot: command.resultSlot },
  })));
}
