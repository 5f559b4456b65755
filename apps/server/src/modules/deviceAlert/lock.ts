/**
 * Locks' alerts (报警日志 / 门锁警告), written by the device gateway (alarm uplinks) and by the analyses
 * (derived alarms), in the caller's transaction. The lifecycle (raise, repeat, clear, rounds) is the one
 * of every device kind, lifecycle.ts; this file is the locks' descriptor of it and their entry points.
 * Uplinks are applied in seq order.
 */
import { protocol } from '@iot/contract';
import type { Tx } from '../../db/client.js';
import { type AlertKindDescriptor, alertKey, applyAlertChanges, clearAlerts, raiseAlerts } from './lifecycle.js';

/** The key of a lock's alert. */
interface LockAlertKey {
  lockId: number;
  kind: protocol.AlertKind;
}

/** The columns a write returns for its `lock.alarm` event (docs/events.md). */
interface LockAlertRow {
  id: number | string;
  tenant_id: number;
  lock_id: number;
  kind: protocol.AlertKind;
  state: string;
}

/**
 * Locks' alerts: key (lock_id, kind), index alerts_one_active; severity from protocol.ALARM_KINDS or
 * DERIVED_ALARM_KINDS, kept by a repeat; a clear may bring a detail (the lock's words), else the last
 * one stays. Each write emits `lock.alarm`.
 */
export const lockAlerts: AlertKindDescriptor<LockAlertKey, LockAlertRow> = {
  deviceKind: 'lock',
  keys: [{ column: 'lock_id', arrayType: 'int[]', of: (key) => key.lockId }, { column: 'kind', arrayType: 'text[]', of: (key) => key.kind }],
  eventColumns: ['id', 'tenant_id', 'lock_id', 'kind', 'state'],
  event: (row) => ({
    name: 'lock.alarm', payload: { tenantId: row.tenant_id, lockId: row.lock_id, alertId: Number(row.id), kind: row.kind, cleared: row.state !== 'active' },
  }),
  raiseUpdatesSeverity: false,
  clearUpdates: 'detail',
};

/** An alarm uplink of an authenticated lock. */
interface AlarmUplink {
  lockId: number;
  tenantId: number;
  message: Extract<protocol.UplinkMessage, { type: 'alarm' }>;
}

/** Applies alarm uplinks to the alerts table, in seq order per lock (see the module comment). */
export async function applyAlarms(tx: Tx, uplinks: readonly AlarmUplink[]): Promise<void> {
  const inSeqOrder = [...uplinks].sort((a, b) => a.lockId - b.lockId || a.message.seq - b.message.seq);
  await applyAlertChanges(tx, lockAlerts, inSeqOrder.map(({ lockId, tenantId, message: { data } }) => ({
    lockId, tenantId, kind: data.kind, severity: protocol.ALARM_KINDS[data.kind], detail: data.detail ?? null, cleared: Boolean(data.cleared),
  })));
}

/** A derived alarm (modules/analysis/derived.ts) to raise or clear on a lock. */
export interface DerivedAlarm {
  tenantId: number;
  lockId: number;
  kind: protocol.DerivedAlarmKind;
  detail?: string | null;
}

/**
 * Raises derived alarms into the same lifecycle as lock alarms (severity from protocol.DERIVED_ALARM_KINDS;
 * a repeat while active adds an occurrence; of one (lock, kind) given twice, the last). Returns the ids of
 * alerts that were newly raised.
 */
export async function raiseDerivedAlarms(tx: Tx, alarms: readonly DerivedAlarm[]): Promise<number[]> {
  const unique = [...new Map(alarms.map((alarm) => [alertKey(lockAlerts, alarm), alarm])).values()];
  const rows = await raiseAlerts(tx, lockAlerts, unique.map((alarm) => ({
    tenantId: alarm.tenantId, lockId: alarm.lockId, kind: alarm.kind, severity: protocol.DERIVED_ALARM_KINDS[alarm.kind], detail: alarm.detail ?? null,
  })));
  return rows.filter((row) => row.raised).map((row) => Number(row.id));
}

/** Clears the active derived alarms of `kind` on `lockIds` (no-op where none is active); returns how many. */
export async function clearDerivedAlarms(tx: Tx, kind: protocol.DerivedAlarmKind, lockIds: readonly number[], detail?: string): Promise<number> {
  const unique = [...new Set(lockIds)];
  return (await clearAlerts(tx, lockAlerts, unique.map((lockId) => ({ lockId, kind, detail: detail ?? null })))).length;
}
