/**
 * 设备信息: everything about one lock in one read (contract lockInformation), a view above the
 * modules it composes (no module imports it, so composing seven of them closes no circle), assembled
 * from the owning modules' reads: the registry record, device type, groups, queue head and commands,
 * credential capacity, and the latest alarms, unlock records and uplinks. Runs in the tenant's
 * transaction; 404 for an IMEI the data centre does not have.
 */
import { type Connectivity, type DeviceKind, INFORMATION_RECENT, type LockInformation, protocol } from '@iot/contract';
import { and, asc, count, desc, eq, notInArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { commands, credentials, lockUsers } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';
import { lockCommands } from '../command/repo.js';
import { capacity } from '../credential/views.js';
import { findDeviceType } from '../deviceType/catalogue.js';
import { groupsOfLock } from '../lockGroup/groups.js';
import { alertLog } from '../lockAlert/repo.js';
import { openRecordLog } from '../lockOpenRecord/repo.js';
import { uplinkLog } from '../uplinkLog/repo.js';
import { lockRecordByImei, queueHead } from '../lockDevice/repo.js';

const SYNCING = ['adding', 'modifying', 'deleting'];
const FAILED = ['add_failed', 'modify_failed', 'delete_failed'];

/** Rows not in sync per table: `syncing` (a command under way) and `failed`. */
async function drift(tx: Tx, lockId: number) {
  const users = await tx.select({ state: lockUsers.syncState, n: count() }).from(lockUsers).where(eq(lockUsers.lockId, lockId)).groupBy(lockUsers.syncState);
  const held = await tx.select({ table: credentials.slotTable, state: credentials.syncState, n: count() }).from(credentials)
    .where(eq(credentials.lockId, lockId)).groupBy(credentials.slotTable, credentials.syncState);
  const rows = [...users.map((row) => ({ ...row, table: 'users' })), ...held];
  const sum = (table: string, states: string[]) => rows.filter((row) => row.table === table && states.includes(row.state)).reduce((n, row) => n + row.n, 0);
  return (table: string) => ({ syncing: sum(table, SYNCING), failed: sum(table, FAILED) });
}

/** Reported configuration overlaid with the pending configPush commands, and the newest push. */
async function configOf(tx: Tx, lockId: number, stored: unknown): Promise<LockInformation['config']> {
  const reported = protocol.lockConfig.safeParse(stored).data ?? null;
  const pushes = eq(commands.type, 'configPush');
  const pending = await tx.select({ data: commands.data }).from(commands)
    .where(and(eq(commands.lockId, lockId), pushes, notInArray(commands.state, [...protocol.FINAL_COMMAND_STATES]))).orderBy(asc(commands.id));
  const [last] = await tx.select({ id: commands.id, state: commands.state, createdAt: commands.createdAt }).from(commands)
    .where(and(eq(commands.lockId, lockId), pushes)).orderBy(desc(commands.id)).limit(1);
  let desired = reported;
  for (const { data } of pending) {
    const config = protocol.lockConfig.safeParse((data as { config?: unknown }).config).data;
    if (config) desired = { ...(desired ?? {}), ...config };
  }
  return {
    reported, desired,
    lastPush: last ? { id: last.id, state: last.state as protocol.CommandState, createdAt: iso(last.createdAt) as string } : null,
  };
}

/** The device information of `imei`; `wakeWindowMs`: the server's WAKE_WINDOW_MS. */
export async function lockInformation(tx: Tx, imei: string, wakeWindowMs: number): Promise<LockInformation> {
  const found = await lockRecordByImei(tx, imei, wakeWindowMs);
  if (!found) throw new ApiError('NOT_FOUND');
  const lock = found.record;
  const [type, groups, head, slots, driftOf, config, queue] = [
    await findDeviceType(tx, lock.model), await groupsOfLock(tx, lock.id), await queueHead(tx, lock.id, wakeWindowMs),
    await capacity(tx, { lockId: lock.id }), await drift(tx, lock.id), await configOf(tx, lock.id, found.config), await lockCommands(tx, lock.id),
  ];
  const recent = { lockId: lock.id };
  return {
    lock,
    type: type ? { kind: type.kind as DeviceKind, connectivity: type.connectivity as Connectivity, heartbeatIntervalS: type.heartbeatIntervalS,
      firmwareFamily: type.firmwareFamily, unlockMethods: type.unlockMethods } : null,
    groups,
    presence: { alwaysOnline: head.alwaysOnline, awake: head.awake, lastUplinkAt: head.lastUplinkAt, nextWakeAt: head.nextWakeAt, doorState: found.doorState, locked: found.locked },
    config,
    credentials: (['users', 'passwords', 'cards', 'fingerprints'] as const).map((table) => ({ table, capacity: slots[table].capacity, used: slots[table].used, ...driftOf(table) })),
    commands: queue,
    alarms: await alertLog.rows(tx, recent, INFORMATION_RECENT),
    openRecords: await openRecordLog.rows(tx, recent, INFORMATION_RECENT),
    uplinks: await uplinkLog.rows(tx, recent, INFORMATION_RECENT),
  };
}
