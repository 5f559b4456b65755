/**
 * Remote unlock requests (contract api/remoteUnlock.ts; table `remote_unlocks`, owned here).
 * A request on an always-online lock becomes a `remoteUnlock` command in the outbox at once, or, on a
 * high-security door, once a second operator approves it within REMOTE_UNLOCK_APPROVAL_MS. The
 * command lives REMOTE_UNLOCK_TTL_MS while queued: a door must not open long after someone asked.
 * Every function takes the caller's tenant transaction, so a refusal writes nothing.
 */
import { REMOTE_UNLOCK_APPROVAL_MS, type RemoteUnlockOverview, type RemoteUnlockRecord } from '@iot/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { commands, remoteUnlocks } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { ApiError, conflictError, fieldError } from '../../http/api-error.js';
import { enqueueCommand } from '../command/outbox.js';
import type { Actor } from '../credential/ops.js';
import { remoteUnlockTraits } from '../lockDevice/high-security.js';

/** How long a remote unlock waits in the outbox, ms: the lock is always online, so it answers at once or not at all. */
export const REMOTE_UNLOCK_TTL_MS = 60_000;

const columns = {
  id: remoteUnlocks.id, lockId: remoteUnlocks.lockId, reason: remoteUnlocks.reason, requestedBy: remoteUnlocks.requestedBy, requestedAt: remoteUnlocks.requestedAt,
  approveBy: remoteUnlocks.approveBy, approvedBy: remoteUnlocks.approvedBy, approvedAt: remoteUnlocks.approvedAt, commandId: remoteUnlocks.commandId,
  commandState: commands.state, resultCode: commands.resultCode, open: sql<boolean>`coalesce(${remoteUnlocks.approveBy} > now(), false)`,
};
type Row = Awaited<ReturnType<typeof select>>[number];
const select = (tx: Executor) => tx.select(columns).from(remoteUnlocks).leftJoin(commands, eq(commands.id, remoteUnlocks.commandId));

function record(row: Row): RemoteUnlockRecord {
  const state = row.commandId !== null ? 'sent' : row.open ? 'awaitingApproval' : 'expired';
  return {
    id: row.id, lockId: row.lockId, reason: row.reason, requestedBy: row.requestedBy, requestedAt: iso(row.requestedAt), approvedBy: row.approvedBy,
    approvedAt: iso(row.approvedAt), state, approveBy: iso(row.approveBy), commandId: row.commandId,
    commandState: (row.commandState ?? null) as RemoteUnlockRecord['commandState'], resultCode: row.resultCode,
  };
}

async function one(tx: Executor, tenantId: number, id: number): Promise<RemoteUnlockRecord> {
  const [row] = await select(tx).where(and(eq(remoteUnlocks.id, id), eq(remoteUnlocks.tenantId, tenantId)));
  if (!row) throw new ApiError('NOT_FOUND');
  return record(row);
}

/** Whether the lock offers remote unlock, whether it is high-security, and its latest 10 requests. */
export async function overview(tx: Executor, tenantId: number, lockId: number): Promise<RemoteUnlockOverview> {
  const traits = await remoteUnlockTraits(tx, tenantId, lockId);
  const rows = await select(tx).where(and(eq(remoteUnlocks.lockId, lockId), eq(remoteUnlocks.tenantId, tenantId))).orderBy(desc(remoteUnlocks.id)).limit(10);
  return { lockId, offered: traits.alwaysOnline, notOffered: traits.alwaysOnline ? null : 'sleeping', highSecurity: traits.highSecurity, requests: rows.map(record) };
}

const send = (tx: Executor, actor: Actor, lockId: number, operator: string, reason: string) =>
  enqueueCommand(tx, { tenantId: actor.tenantId, lockId, type: 'remoteUnlock', data: { operator, reason }, createdBy: actor.username, ttlMs: REMOTE_UNLOCK_TTL_MS }, actor.box);

/**
 * An operator asks to open `lockId` now. 404 outside the tenant; 400 on body.lockId for a sleeping
 * (NB-IoT) lock. On a high-security door the request waits for approval; otherwise it is sent.
 */
export async function requestUnlock(tx: Executor, actor: Actor, lockId: number, reason: string): Promise<RemoteUnlockRecord> {
  const traits = await remoteUnlockTraits(tx, actor.tenantId, lockId, true);
  if (!traits.alwaysOnline) {
    throw fieldError('body.lockId', '该门锁为 NB-IoT 休眠门锁，只在自身上报后短暂可达，不提供远程开锁', 'This NB-IoT lock sleeps between its uplinks and offers no remote unlock');
  }
  const approveBy = traits.highSecurity ? sql`now() + make_interval(secs => ${REMOTE_UNLOCK_APPROVAL_MS / 1000})` : null;
  const [row] = await tx.insert(remoteUnlocks).values({ tenantId: actor.tenantId, lockId, reason, requestedBy: actor.username, approveBy }).returning({ id: remoteUnlocks.id });
  const id = row?.id as number;
  if (!traits.highSecurity) {
    const command = await send(tx, actor, lockId, actor.username, reason);
    await tx.update(remoteUnlocks).set({ commandId: command.id }).where(eq(remoteUnlocks.id, id));
  }
  return one(tx, actor.tenantId, id);
}

/**
 * A second operator approves request `id`: 404 outside the tenant; 403 on body.id for the requester
 * themself; 409 on body.id when it needs no approval, was approved already or waited over 10 minutes.
 * The open record names the requester.
 */
export async function approveUnlock(tx: Executor, actor: Actor, id: number): Promise<RemoteUnlockRecord> {
  const [row] = await tx.select({ lockId: remoteUnlocks.lockId, requestedBy: remoteUnlocks.requestedBy, reason: remoteUnlocks.reason, approveBy: remoteUnlocks.approveBy,
    commandId: remoteUnlocks.commandId, open: columns.open }).from(remoteUnlocks).where(and(eq(remoteUnlocks.id, id), eq(remoteUnlocks.tenantId, actor.tenantId))).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  if (row.approveBy === null) throw conflictError('body.id', '该门不是高安全门，远程开锁无需审批', 'This door is not high-security; its remote unlock needs no approval');
  if (row.commandId !== null) throw conflictError('body.id', '该远程开锁已批准', 'This remote unlock was approved already');
  if (!row.open) throw conflictError('body.id', '审批已超时（须在申请后 10 分钟内批准），请重新申请', 'The approval window (10 minutes after the request) has passed; ask again');
  if (row.requestedBy === actor.username) {
    throw new ApiError('FORBIDDEN', [{ field: 'body.id', message: { 'zh-CN': '高安全门须由另一名操作员批准', 'en-US': 'A second operator must approve a high-security door' } }]);
  }
  const command = await send(tx, actor, row.lockId, row.requestedBy, row.reason);
  await tx.update(remoteUnlocks).set({ approvedBy: actor.username, approvedAt: sql`now()`, commandId: command.id }).where(eq(remoteUnlocks.id, id));
  return one(tx, actor.tenantId, id);
}
