/**
 * What the rules check a raised alarm against (produce.ts): the alert's severity and id (a lock's
 * operational event: its kind's fixed severity, no alert), and the device's building (an air switch's
 * location), model and lock groups; read for a whole burst of alarms with one statement per kind of
 * subject. In the data centre's transaction.
 */
import { isNotificationEventKind, NOTIFICATION_EVENT_KINDS, type NotificationEventKind, type NotificationSubjectKind } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

type Row = Record<string, unknown>;

/** A raised alarm as the rules see it. */
export interface RaisedAlarm {
  tenantId: number;
  /** What it is about (NOTIFICATION_SUBJECT_KINDS); deviceId is that object's id. */
  deviceKind: NotificationSubjectKind;
  deviceId: number;
  kind: string;
  /** The alert row, when the event names it (a lock's or an air switch's alarm); null for an operational event (NOTIFICATION_EVENT_KINDS). */
  alertId: number | null;
}

/** The alarm's subject; absent when the device or alert is gone. */
export interface Subject {
  severity: string;
  alertId: number | null;
  building: string;
  model: string;
  groupIds: number[];
}

/** The key of an alarm's subject in the map subjectsOf returns: its alert, else (an event without one) its object and kind. */
export const subjectKey = (alarm: RaisedAlarm) => (alarm.alertId === null ? `${alarm.deviceKind}:${alarm.deviceId}:${alarm.kind}` : `alert:${alarm.alertId}`);

/** SQL over a notification `n`: its object's name (lock, air switch, rollout, order description, customer). */
export const objectNameSql = sql`case n.device_kind
  when 'lock' then (select l.name from locks l where l.id = n.device_id) when 'airSwitch' then (select s.name from air_switches s where s.id = n.device_id)
  when 'rollout' then (select coalesce(nullif(r.name, ''), r.model || ' ' || r.version) from firmware_rollouts r where r.id = n.device_id)
  when 'order' then (select o.description from orders o where o.id = n.device_id)
  when 'customer' then (select c.name from customer_codes c where c.id = n.device_id)
  when 'stay' then (select concat_ws(' / ', nullif(s.building, ''), nullif(s.floor, ''), s.room) from stays s where s.id = n.device_id) end`;
/** SQL over a notification `n`: its object's code (IMEI, serial, firmware version, out_trade_no, customer code, a stay's booking reference or #id). */
export const objectCodeSql = sql`case n.device_kind
  when 'lock' then (select l.imei from locks l where l.id = n.device_id) when 'airSwitch' then (select s.serial from air_switches s where s.id = n.device_id)
  when 'rollout' then (select r.version from firmware_rollouts r where r.id = n.device_id)
  when 'order' then (select o.out_trade_no from orders o where o.id = n.device_id)
  when 'customer' then (select c.code from customer_codes c where c.id = n.device_id)
  when 'stay' then (select coalesce(s.reference, '#' || s.id) from stays s where s.id = n.device_id) end`;

const LOCK_SCOPE = sql`l.building, l.model, coalesce((select array_agg(m.group_id) from lock_group_members m where m.lock_id = l.id), '{}') as group_ids`;

/** The subjects of `alarms` by subjectKey (a lock alarm by its alert; an air-switch alarm by its newest alert of that kind). */
export async function subjectsOf(tx: Tx, alarms: readonly RaisedAlarm[]): Promise<Map<string, Subject>> {
  const subjects = new Map<string, Subject>();
  const alertIds = [...new Set(alarms.filter((a) => a.deviceKind === 'lock' && a.alertId !== null).map((a) => a.alertId as number))];
  if (alertIds.length > 0) {
    for (const row of rowsOf<Row>(await tx.execute(sql`
      select a.id, a.severity, ${LOCK_SCOPE}
      from alerts a join locks l on l.id = a.lock_id where a.id = any(${sql.param(alertIds)}::bigint[])`))) {
      subjects.set(`alert:${Number(row.id)}`, { severity: String(row.severity), alertId: Number(row.id), building: String(row.building), model: String(row.model), groupIds: (row.group_ids as number[]).map(Number) });
    }
  }
  const events = alarms.filter((a) => a.deviceKind === 'lock' && a.alertId === null && isNotificationEventKind(a.kind));
  if (events.length > 0) {
    for (const row of rowsOf<Row>(await tx.execute(sql`
      select l.id, ${LOCK_SCOPE} from locks l where l.id = any(${sql.param([...new Set(events.map((a) => a.deviceId))])}::int[])`))) {
      for (const event of events.filter((a) => a.deviceId === Number(row.id))) {
        subjects.set(subjectKey(event), { severity: NOTIFICATION_EVENT_KINDS[event.kind as NotificationEventKind], alertId: null, building: String(row.building), model: String(row.model), groupIds: (row.group_ids as number[]).map(Number) });
      }
    }
  }
  // A stay: its room's building (rules naming it match), no model, no group.
  const stayAlarms = alarms.filter((a) => a.deviceKind === 'stay');
  if (stayAlarms.length > 0) {
    for (const row of rowsOf<Row>(await tx.execute(sql`select s.id, s.building from stays s where s.id = any(${sql.param([...new Set(stayAlarms.map((a) => a.deviceId))])}::int[])`))) {
      for (const alarm of stayAlarms.filter((a) => a.deviceId === Number(row.id))) {
        subjects.set(subjectKey(alarm), { severity: NOTIFICATION_EVENT_KINDS[alarm.kind as NotificationEventKind], alertId: null, building: String(row.building), model: '', groupIds: [] });
      }
    }
  }
  // Rollouts, orders and customers: no place, no model; only rules without a scope match them.
  for (const alarm of alarms) {
    if (alarm.deviceKind !== 'lock' && alarm.deviceKind !== 'airSwitch' && alarm.deviceKind !== 'stay') {
      subjects.set(subjectKey(alarm), { severity: NOTIFICATION_EVENT_KINDS[alarm.kind as NotificationEventKind], alertId: null, building: '', model: '', groupIds: [] });
    }
  }
  // An air switch alarm by its alert: the switch's location as the building, its model, no group.
  const switchAlertIds = [...new Set(alarms.filter((a) => a.deviceKind === 'airSwitch' && a.alertId !== null).map((a) => a.alertId as number))];
  if (switchAlertIds.length > 0) {
    for (const row of rowsOf<Row>(await tx.execute(sql`
      select a.id, a.severity, s.location, s.model from alerts a join air_switches s on s.id = a.air_switch_id
      where a.id = any(${sql.param(switchAlertIds)}::bigint[])`))) {
      subjects.set(`alert:${Number(row.id)}`, { severity: String(row.severity), alertId: Number(row.id), building: String(row.location), model: String(row.model), groupIds: [] });
    }
  }
  return subjects;
}
