/**
 * Air switch alarms with the alert lifecycle of every device kind (lifecycle.ts: raise, repeat, clear,
 * acknowledge, rounds); this file is the air switches' descriptor of it and their entry points, called by
 * the air switch module (ingest, acknowledgement). Kinds: `trip` (severity by the trip reason,
 * cleared when the circuit is switched on again) and protocol AIR_SWITCH_ALARM_KINDS. Changes are applied
 * in the order they arrive.
 */
import type { EventMap } from '@iot/contract';
import type { Tx } from '../../db/client.js';
import { type AlertKindDescriptor, acknowledgeAlerts, applyAlertChanges } from './lifecycle.js';
import type { AlarmChange } from '../airSwitch/readings.js';

/** The columns a write returns for its `airSwitch.alarm` event (docs/events.md). */
interface AirSwitchAlertRow {
  id: number | string;
  tenant_id: number;
  circuit: number;
  air_switch_id: number;
  kind: EventMap['airSwitch.alarm']['kind'];
  state: string;
}

/**
 * Air switches' alerts: key (air_switch_id, circuit, kind), index alerts_air_switch_one_active; a repeat
 * takes the repeat's severity (a trip's depends on its reason); a clear keeps the detail and moves last_at
 * to now. Each write emits `airSwitch.alarm`.
 */
const airSwitchAlerts: AlertKindDescriptor<Pick<AlarmChange, 'airSwitchId' | 'circuit' | 'kind'>, AirSwitchAlertRow> = {
  deviceKind: 'airSwitch',
  keys: [
    { column: 'air_switch_id', arrayType: 'int[]', of: (key) => key.airSwitchId },
    { column: 'circuit', arrayType: 'int[]', of: (key) => key.circuit },
    { column: 'kind', arrayType: 'text[]', of: (key) => key.kind },
  ],
  eventColumns: ['id', 'tenant_id', 'air_switch_id', 'circuit', 'kind', 'state'],
  event: (row) => ({
    name: 'airSwitch.alarm',
    payload: { tenantId: row.tenant_id, airSwitchId: row.air_switch_id, circuit: row.circuit, alertId: Number(row.id), kind: row.kind, cleared: row.state !== 'active' },
  }),
  raiseUpdatesSeverity: true,
  clearUpdates: 'lastAt',
};

/** Applies raises and clears in order (see the module comment). */
export function applyAlarmChanges(tx: Tx, changes: readonly AlarmChange[]): Promise<void> {
  return applyAlertChanges(tx, airSwitchAlerts, changes);
}

/** Acknowledges the data centre's unacknowledged alerts among `ids` as `username` with `note` (empty: none); returns how many changed. */
export async function acknowledgeAirSwitchAlerts(tx: Tx, ids: readonly number[], username: string, note?: string): Promise<number> {
  return (await acknowledgeAlerts(tx, airSwitchAlerts, ids, username, note)).length;
}
