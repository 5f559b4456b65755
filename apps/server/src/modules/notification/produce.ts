/**
 * From a raised alarm to notifications (issue #25; docs/notifications.md "Rules"): the enabled rules
 * of the alarm's data centre that match its kind, severity and the device's scope each get a
 * notification with one pending delivery per enabled channel; within a rule's storm window, a repeat
 * of the same kind on the same device only counts into the open notification, and its deliveries are
 * logged as `suppressed`. Runs in the data centre's transaction.
 */
import { ALERT_SEVERITIES, type AlertSeverity } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

type Row = Record<string, unknown>;

/** A raised alarm as the rules see it. */
export interface RaisedAlarm {
  tenantId: number;
  deviceKind: 'lock' | 'airSwitch';
  deviceId: number;
  kind: string;
  /** The alert row, when the event names it (locks). */
  alertId: number | null;
}

/** critical 3 .. warning 0. */
const rank = (severity: string) => ALERT_SEVERITIES.length - 1 - ALERT_SEVERITIES.indexOf(severity as AlertSeverity);

/** What the scope and severity of an alarm are checked against; null when the device or alert is gone. */
async function subjectOf(tx: Tx, alarm: RaisedAlarm): Promise<{ severity: string; alertId: number | null; building: string; model: string; groupIds: number[] } | null> {
  if (alarm.deviceKind === 'lock') {
    const [row] = rowsOf<Row>(await tx.execute(sql`
      select a.severity, l.building, l.model,
        coalesce((select array_agg(m.group_id) from lock_group_members m where m.lock_id = l.id), '{}') as group_ids
      from alerts a join locks l on l.id = a.lock_id where a.id = ${alarm.alertId}`));
    return row ? { severity: String(row.severity), alertId: alarm.alertId, building: String(row.building), model: String(row.model), groupIds: (row.group_ids as number[]).map(Number) } : null;
  }
  const [row] = rowsOf<Row>(await tx.execute(sql`
    select a.id, a.severity, s.location, s.model from air_switch_alerts a join air_switches s on s.id = a.air_switch_id
    where a.air_switch_id = ${alarm.deviceId} and a.kind = ${alarm.kind} order by a.id desc limit 1`));
  return row ? { severity: String(row.severity), alertId: Number(row.id), building: String(row.location), model: String(row.model), groupIds: [] } : null;
}

/** Produces the notifications of `alarm`; returns how many deliveries became due (0: nothing to send). */
export async function produceNotifications(tx: Tx, alarm: RaisedAlarm): Promise<number> {
  const rules = rowsOf<Row>(await tx.execute(sql`
    select id, min_severity, kinds, buildings, group_ids, device_types, channel_ids, storm_window_s from notification_rules
    where enabled and (cardinality(kinds) = 0 or ${alarm.kind} = any(kinds))`));
  if (rules.length === 0) return 0;
  const subject = await subjectOf(tx, alarm);
  if (!subject) return 0;
  let due = 0;
  for (const rule of rules) {
    if (rank(subject.severity) < rank(String(rule.min_severity))) continue;
    const buildings = rule.buildings as string[];
    const groupIds = (rule.group_ids as number[]).map(Number);
    const models = rule.device_types as string[];
    const scoped = buildings.length + groupIds.length > 0;
    if (scoped && !buildings.includes(subject.building) && !groupIds.some((id) => subject.groupIds.includes(id))) continue;
    if (models.length > 0 && !models.includes(subject.model)) continue;
    const ruleId = Number(rule.id);
    const [open] = Number(rule.storm_window_s) > 0 ? rowsOf<Row>(await tx.execute(sql`
      select id from notifications where rule_id = ${ruleId} and device_kind = ${alarm.deviceKind} and device_id = ${alarm.deviceId} and kind = ${alarm.kind}
        and first_at > now() - make_interval(secs => ${Number(rule.storm_window_s)})
      order by id desc limit 1 for update`)) : [];
    if (open) {
      await tx.execute(sql`update notifications set count = count + 1, last_at = now() where id = ${Number(open.id)}`);
      await tx.execute(sql`
        insert into notification_deliveries (tenant_id, notification_id, channel_id, state, last_error)
        select ${alarm.tenantId}, ${Number(open.id)}, c.id, 'suppressed', 'storm control' from notification_channels c
        where c.id = any(${sql.param((rule.channel_ids as number[]).map(Number))}::bigint[]) and c.enabled`);
      continue;
    }
    const [created] = rowsOf<Row>(await tx.execute(sql`
      insert into notifications (tenant_id, rule_id, kind, severity, device_kind, device_id, alert_id)
      values (${alarm.tenantId}, ${ruleId}, ${alarm.kind}, ${subject.severity}, ${alarm.deviceKind}, ${alarm.deviceId}, ${subject.alertId}) returning id`));
    const inserted = rowsOf(await tx.execute(sql`
      insert into notification_deliveries (tenant_id, notification_id, channel_id)
      select ${alarm.tenantId}, ${Number(created?.id)}, c.id from notification_channels c
      where c.id = any(${sql.param((rule.channel_ids as number[]).map(Number))}::bigint[]) and c.enabled returning id`));
    due += inserted.length;
  }
  return due;
}
