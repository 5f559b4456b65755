/**
 * The command outbox (ThingsBoard persistent RPC / Huawei cached commands): every downlink is first a
 * QUEUED row of `commands`; the dispatcher (gateway/outbox/dispatcher.ts) sends it when the lock is
 * reachable. This file: enqueue (emits `command.queued`) and operator cancel. Both take the caller's
 * transaction (a tenant transaction for API calls), so a refusal writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { type CommandRecord, protocol } from '@iot/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Executor } from '../../db/client.js';
import { commands, locks } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { ApiError } from '../../http/api-error.js';
import { refusedAfterServiceEnd, serviceExpiredSql } from '../lockDevice/service-period.js';
import { type CommandFollowers, commandsFinished } from './transitions.js';
import { findCommand } from './repo.js';
import { protect } from './secrets.js';

export interface EnqueueInput<T extends protocol.DownlinkType = protocol.DownlinkType> {
  tenantId: number;
  lockId: number;
  type: T;
  /** Validated with protocol.downlinkData[type]; secret fields are encrypted before storing. */
  data: unknown;
  /** Operator username, or `system`. */
  createdBy: string;
  /** Time to live while QUEUED, ms (default protocol.COMMAND_TTL_MS = 48 h). */
  ttlMs?: number;
  /** Sends at most this many times (default 3, the column default). */
  maxAttempts?: number;
}

/**
 * Queues a command. Refuses with 400 VALIDATION_FAILED (data does not fit its type), 404 NOT_FOUND
 * (no such lock in the tenant), 402 SERVICE_EXPIRED (a granting command to a lock whose service has
 * ended: lockDevice/service-period.ts) or 409 QUEUE_FULL (the lock already has
 * protocol.MAX_QUEUED_PER_DEVICE QUEUED commands). Locks the lock row for the count, so concurrent
 * enqueues cannot pass the limit. Returns the new command (secrets masked).
 */
export async function enqueueCommand(tx: Executor, input: EnqueueInput, box: SecretBox): Promise<CommandRecord> {
  const schema = protocol.downlinkData[input.type];
  const parsed = schema?.safeParse(input.data);
  if (!parsed?.success) {
    const errors = (parsed?.error.issues ?? [{ path: ['type'], message: 'unknown type' }]).map((issue) => ({
      field: ['data', ...issue.path].join('.'),
      message: { 'zh-CN': `指令参数有误：${issue.message}`, 'en-US': `Invalid command data: ${issue.message}` },
    }));
    throw new ApiError('VALIDATION_FAILED', errors);
  }
  const [lock] = await tx.select({ id: locks.id, expired: serviceExpiredSql }).from(locks)
    .where(and(eq(locks.id, input.lockId), eq(locks.tenantId, input.tenantId))).for('update');
  if (!lock) throw new ApiError('NOT_FOUND');
  if (lock.expired && refusedAfterServiceEnd(input.type, parsed.data)) throw new ApiError('SERVICE_EXPIRED');
  const [queued] = await tx.select({ n: count() }).from(commands).where(and(eq(commands.lockId, lock.id), eq(commands.state, 'QUEUED')));
  if ((queued?.n ?? 0) >= protocol.MAX_QUEUED_PER_DEVICE) throw new ApiError('QUEUE_FULL');
  const ttlMs = input.ttlMs ?? protocol.COMMAND_TTL_MS;
  const [row] = await tx.insert(commands).values({
    msgId: randomUUID(),
    tenantId: input.tenantId,
    deviceKind: 'lock',
    lockId: lock.id,
    type: input.type,
    data: protect(parsed.data as Record<string, unknown>, box),
    createdBy: input.createdBy,
    expiresAt: sql`now() + make_interval(secs => ${ttlMs / 1000})`,
    ...(input.maxAttempts ? { maxAttempts: input.maxAttempts } : {}),
  }).returning({ id: commands.id });
  const created = row && (await findCommand(tx, row.id));
  if (!created) throw new Error('inserted command not found');
  // A dispatcher (of any instance) sends it at once if the lock is reachable (gateway/outbox/dispatcher.ts).
  await emit(tx, 'command.queued', { tenantId: input.tenantId, deviceKind: 'lock', deviceId: lock.id, commandId: created.id });
  const { rawData: _raw, ...record } = created;
  return record;
}

/**
 * Operator cancel: QUEUED -> CANCELED (completed_at now). 404 when the command does not exist in the
 * tenant, 409 COMMAND_NOT_QUEUED in any other state (a sent command cannot be recalled).
 */
export async function cancelCommand(tx: Executor, id: number, followers: CommandFollowers): Promise<CommandRecord> {
  const updated = await tx.update(commands).set({ state: 'CANCELED', completedAt: sql`now()` })
    .where(and(eq(commands.id, id), eq(commands.deviceKind, 'lock'), eq(commands.state, 'QUEUED')))
    .returning({ id: commands.id, tenant_id: commands.tenantId, lock_id: commands.lockId, type: commands.type, state: commands.state, result_code: commands.resultCode, result_slot: commands.resultSlot });
  await commandsFinished(tx, updated, followers);
  const found = await findCommand(tx, id);
  if (!found) throw new ApiError('NOT_FOUND');
  if (updated.length === 0) throw new ApiError('COMMAND_NOT_QUEUED');
  const { rawData: _raw, ...record } = found;
  return record;
}
