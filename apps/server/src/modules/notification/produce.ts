/**
 * From raised alarms to notifications (docs/notifications.md "Rules"): the enabled rules
 * of the alarms' data centre that match an alarm's kind, severity and the device's scope each get a
 * notification with one delivery per enabled channel: pending, or `suppressed` (reason `quiet hours`)
 * within the rule's quiet hours unless the alert is critical; with `escalate_after_min` it is due for
 * escalation then. Within a rule's storm window, a repeat of the same kind on the same device only
 * counts into the open notification, and its deliveries are logged as `suppressed` (`storm control`).
 * Beyond a rule's hourly cap (its notifications of the last hour), the first new one goes out with a
 * summary line (`cap_reached`), later ones are logged `suppressed` (`hourly cap`) and still reach the inbox.
 * Every new notification lands in its recipients' inboxes (inbox.ts), and in those of the rule's explicit
 * recipients, who are e-mailed too when their address is verified (recipients.ts). A rule with `openWorkOrder` also
 * opens a work order for a matched lock alert (modules/workOrder/automatic.ts).
 * A burst is produced set-wise: a fixed number of statements whatever the number of alarms
 * (bench/notifications.ts), in the data centre's transaction.
 */
import { ALERT_SEVERITIES, type AlertSeverity, isNotificationEventKind, NOTIFICATION_SUBJECT_KINDS } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { openForAlarms } from '../workOrder/automatic.js';
import { deliverToInbox, recipientsOf } from './inbox.js';
import { inQuietHours } from './quiet.js';
import { explicitRecipients, type MailTarget } from './recipients.js';
import { type RaisedAlarm, type Subject, subjectKey, subjectsOf } from './subjects.js';

export type { RaisedAlarm } from './subjects.js';

type Row = Record<string, unknown>;

/** critical 3 .. warning 0. */
const rank = (severity: string) => ALERT_SEVERITIES.length - 1 - ALERT_SEVERITIES.indexOf(severity as AlertSeverity);

/** True when `rule` watches an alarm of this subject (severity, buildings or groups, device types). */
function matches(rule: Row, subject: Subject): boolean {
  if (rank(subject.severity) < rank(String(rule.min_severity))) return false;
  const buildings = rule.buildings as string[];
  const groupIds = (rule.group_ids as number[]).map(Number);
  const models = rule.device_types as string[];
  if (buildings.length + groupIds.length > 0 && !buildings.includes(subject.building) && !groupIds.some((id) => subject.groupIds.includes(id))) return false;
  return models.length === 0 || models.includes(subject.model);
}

/** A notification this burst opens, and how many alarms it counts. */
interface Opened {
  rule: Row; ruleId: number; alarm: RaisedAlarm; subject: Subject; count: number; quiet: boolean; escalateAt: string | null;
  /** The first over the rule's hourly cap (sent with a summary line) / a later one (logged suppressed). */
  capReached?: boolean; overCap?: boolean;
}

/** Marks the new notifications of capped rules that go beyond the cap, counted with the rule's notifications of the last hour. */
async function applyHourlyCaps(tx: Tx, at: string, opened: Iterable<Opened>): Promise<void> {
  const capped = [...opened].filter((o) => Number(o.rule.hourly_cap) > 0);
  if (capped.length === 0) return;
  const counted = new Map(rowsOf<Row>(await tx.execute(sql`
    select rule_id, count(*) as n from notifications
    where rule_id = any(${sql.param([...new Set(capped.map((o) => o.ruleId))])}::bigint[]) and first_at > ${at}::timestamptz - interval '1 hour'
    group by rule_id`)).map((row) => [Number(row.rule_id), Number(row.n)]));
  for (const o of capped) {
    const n = (counted.get(o.ruleId) ?? 0) + 1;
    counted.set(o.ruleId, n);
    const cap = Number(o.rule.hourly_cap);
    if (n === cap + 1) o.capReached = true;
    else if (n > cap + 1) o.overCap = true;
  }
}

/**
 * Produces the notifications of `alarms` (one data centre) at `now` (the job's clock). Returns how
 * many deliveries became due (0: nothing to send).
 */
export async function produceNotifications(tx: Tx, alarms: readonly RaisedAlarm[], now = new Date()): Promise<number> {
  const tenantId = alarms[0]?.tenantId;
  if (tenantId === undefined) return 0;
  const rules = rowsOf<Row>(await tx.execute(sql`
    select r.id, r.min_severity, r.kinds, r.buildings, r.group_ids, r.device_types, r.channel_ids, r.storm_window_s, r.escalate_after_min,
      r.quiet_start, r.quiet_end, r.hourly_cap, r.open_work_order, r.recipient_account_ids, r.recipient_role_ids, t.time_zone
    from notification_rules r join tenants t on t.id = r.tenant_id
    where r.enabled and (cardinality(r.kinds) = 0 or r.kinds && ${sql.param([...new Set(alarms.map((a) => a.kind))])}::text[])`));
  if (rules.length === 0) return 0;
  const subjects = await subjectsOf(tx, alarms);
  const pairs: { rule: Row; alarm: RaisedAlarm; subject: Subject; key: string }[] = [];
  for (const alarm of alarms) {
    const subject = subjects.get(subjectKey(alarm));
    if (!subject) continue;
    for (const rule of rules) {
      const kinds = rule.kinds as string[];
      if ((kinds.length === 0 ? !isNotificationEventKind(alarm.kind) : kinds.includes(alarm.kind)) && matches(rule, subject)) {
        const key = `${Number(rule.id)}:${alarm.deviceKind}:${alarm.deviceId}:${alarm.kind}`;
        pairs.push({ rule, alarm, subject, key: Number(rule.storm_window_s) > 0 ? key : `${key}#${pairs.length}` });
      }
    }
  }
  // Rules with openWorkOrder open an order for a matched lock alert (the work-order module's service, same transaction).
  await openForAlarms(tx, tenantId, pairs.filter((p) => p.rule.open_work_order && p.alarm.deviceKind === 'lock' && p.subject.alertId !== null)
    .map((p) => ({ ruleId: Number(p.rule.id), kind: String(p.rule.open_work_order), lockId: p.alarm.deviceId, alertId: p.subject.alertId })));
  if (pairs.length === 0) return 0;
  const at = now.toISOString();
  const stormed = pairs.filter((p) => Number(p.rule.storm_window_s) > 0);
  const openIds = new Map<string, number>();
  if (stormed.length > 0) {
    const param = <V>(pick: (p: (typeof stormed)[number]) => V) => sql.param(stormed.map(pick));
    for (const row of rowsOf<Row>(await tx.execute(sql`
      select max(n.id) as id, n.rule_id, n.device_kind, n.device_id, n.kind from notifications n
        join unnest(${param((p) => Number(p.rule.id))}::bigint[], ${param((p) => p.alarm.deviceKind)}::text[], ${param((p) => p.alarm.deviceId)}::int[],
          ${param((p) => p.alarm.kind)}::text[], ${param((p) => Number(p.rule.storm_window_s))}::int[]) as k(rule_id, device_kind, device_id, kind, window_s)
        on n.rule_id = k.rule_id and n.device_kind = k.device_kind and n.device_id = k.device_id and n.kind = k.kind
          and n.first_at > ${at}::timestamptz - make_interval(secs => k.window_s)
      group by n.rule_id, n.device_kind, n.device_id, n.kind`))) {
      openIds.set(`${Number(row.rule_id)}:${row.device_kind}:${Number(row.device_id)}:${row.kind}`, Number(row.id));
    }
  }
  const opened = new Map<string, Opened>();
  const repeats = new Map<number, number>();
  const suppressed: { key: string; rule: Row }[] = [];
  for (const { rule, alarm, subject, key } of pairs) {
    const open = opened.get(key);
    const existing = openIds.get(key);
    if (existing !== undefined) repeats.set(existing, (repeats.get(existing) ?? 0) + 1);
    else if (open) open.count += 1;
    if (existing !== undefined || open) { suppressed.push({ key, rule }); continue; }
    const escalateMin = Number(rule.escalate_after_min);
    opened.set(key, {
      rule, ruleId: Number(rule.id), alarm, subject, count: 1,
      quiet: subject.severity !== 'critical' && inQuietHours(rule.quiet_start as string | null, rule.quiet_end as string | null, String(rule.time_zone), now),
      escalateAt: escalateMin > 0 && subject.alertId !== null ? new Date(now.getTime() + escalateMin * 60_000).toISOString() : null,
    });
  }
  await applyHourlyCaps(tx, at, opened.values());
  return write(tx, tenantId, at, [...opened.entries()], repeats, suppressed, openIds);
}

/** Enabled channels of a rule, of those `enabled` holds. */
const channelsOf = (rule: Row, enabled: Set<number>) => (rule.channel_ids as number[]).map(Number).filter((id) => enabled.has(id));

/** Writes the burst: new notifications (ids drawn first, so each maps to its key), counts of open ones, deliveries, inboxes. */
async function write(tx: Tx, tenantId: number, at: string, opened: [string, Opened][], repeats: Map<number, number>,
  suppressed: { key: string; rule: Row }[], openIds: Map<string, number>): Promise<number> {
  const enabled = new Set(rowsOf<Row>(await tx.execute(sql`select id from notification_channels where enabled`)).map((row) => Number(row.id)));
  const ids = new Map<string, number>(openIds);
  if (opened.length > 0) {
    const drawn = rowsOf<Row>(await tx.execute(sql`select nextval('notifications_id_seq') as id from generate_series(1, ${opened.length})`)).map((row) => Number(row.id));
    opened.forEach(([key], i) => { ids.set(key, drawn[i] as number); });
    const p = <V>(pick: (o: Opened) => V) => sql.param(opened.map(([, o]) => pick(o)));
    await tx.execute(sql`
      insert into notifications (id, tenant_id, rule_id, kind, severity, device_kind, device_id, alert_id, count, first_at, last_at, escalate_at)
      select v.id, ${tenantId}, v.rule_id, v.kind, v.severity, v.device_kind, v.device_id, v.alert_id, v.count, ${at}::timestamptz, ${at}::timestamptz, v.escalate_at
      from unnest(${sql.param(drawn)}::bigint[], ${p((o) => o.ruleId)}::bigint[], ${p((o) => o.alarm.kind)}::text[], ${p((o) => o.subject.severity)}::text[],
        ${p((o) => o.alarm.deviceKind)}::text[], ${p((o) => o.alarm.deviceId)}::int[], ${p((o) => o.subject.alertId)}::bigint[], ${p((o) => o.count)}::int[],
        ${p((o) => o.escalateAt)}::timestamptz[]) as v(id, rule_id, kind, severity, device_kind, device_id, alert_id, count, escalate_at)`);
  }
  if (repeats.size > 0) {
    await tx.execute(sql`
      update notifications n set count = n.count + v.n, last_at = ${at}::timestamptz
      from unnest(${sql.param([...repeats.keys()])}::bigint[], ${sql.param([...repeats.values()])}::int[]) as v(id, n) where n.id = v.id`);
  }
  const explicit = await explicitRecipients(tx, tenantId, opened.map(([, o]) => o.rule));
  const rows: { id: number; channelId: number | null; accountId: number | null; state: string; reason: string | null; capReached: boolean }[] = [];
  for (const [key, o] of opened) {
    const reason = o.quiet ? 'quiet hours' : o.overCap ? 'hourly cap' : null;
    const targets: MailTarget[] = [...channelsOf(o.rule, enabled).map((channelId) => ({ channelId, accountId: null, reason: null })), ...(explicit.get(o.ruleId)?.mail ?? [])];
    for (const t of targets) {
      const why = t.reason ?? reason;
      rows.push({ id: ids.get(key) as number, channelId: t.channelId, accountId: t.accountId, state: why ? 'suppressed' : 'pending', reason: why, capReached: o.capReached === true });
    }
  }
  for (const { key, rule } of suppressed) {
    for (const channelId of channelsOf(rule, enabled)) rows.push({ id: ids.get(key) as number, channelId, accountId: null, state: 'suppressed', reason: 'storm control', capReached: false });
  }
  if (rows.length > 0) {
    const p = <V>(pick: (r: (typeof rows)[number]) => V) => sql.param(rows.map(pick));
    await tx.execute(sql`
      insert into notification_deliveries (tenant_id, notification_id, channel_id, account_id, state, last_error, cap_reached)
      select ${tenantId}, v.id, v.channel_id, v.account_id, v.state, v.reason, v.cap_reached
      from unnest(${p((r) => r.id)}::bigint[], ${p((r) => r.channelId)}::bigint[], ${p((r) => r.accountId)}::int[], ${p((r) => r.state)}::text[], ${p((r) => r.reason)}::text[],
        ${p((r) => r.capReached)}::boolean[]) as v(id, channel_id, account_id, state, reason, cap_reached)`);
  }
  for (const deviceKind of NOTIFICATION_SUBJECT_KINDS) {
    const notificationIds = opened.filter(([, o]) => o.alarm.deviceKind === deviceKind).map(([key]) => ids.get(key) as number);
    if (notificationIds.length === 0) continue;
    const defaults = await recipientsOf(tx, tenantId, deviceKind);
    await deliverToInbox(tx, tenantId, notificationIds, defaults);
    // The rule's explicit recipients besides the defaults, per notification.
    for (const [key, o] of opened) {
      const extra = (explicit.get(o.ruleId)?.accountIds ?? []).filter((id) => !defaults.includes(id));
      if (o.alarm.deviceKind === deviceKind && extra.length > 0) await deliverToInbox(tx, tenantId, [ids.get(key) as number], extra);
    }
  }
  return rows.filter((r) => r.state === 'pending').length;
}
