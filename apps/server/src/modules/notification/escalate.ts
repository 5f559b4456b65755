/**
 * Escalation of notifications (issue #25; docs/notifications.md "Escalation"): a notification whose
 * rule has `escalate_after_min` is due at `escalate_at`; if its alert is still unacknowledged then, one
 * pending delivery per enabled escalation channel of the rule is written (`escalation`) and the
 * notification is marked escalated; an acknowledged alert (or a deleted rule) only ends the wait.
 * Runs on the owner connection across data centres (the job), in one statement per step: an
 * instance racing another re-checks `escalate_at` under the row lock, so each escalates once.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';

const ACKNOWLEDGED = sql`(case when n.device_kind = 'lock' then exists (select 1 from alerts a where a.id = n.alert_id and a.acknowledged_at is not null)
  else exists (select 1 from air_switch_alerts a where a.id = n.alert_id and a.acknowledged_at is not null) end)`;

/** Escalates the notifications due at `now` (the job's clock); returns how many deliveries became due. */
export async function escalateDue(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  await db.execute(sql`
    update notifications n set escalate_at = null
    where n.escalate_at is not null and n.escalate_at <= ${at}::timestamptz and (n.rule_id is null or ${ACKNOWLEDGED})`);
  const inserted = rowsOf(await db.execute(sql`
    with fired as (
      update notifications n set escalate_at = null, escalated_at = ${at}::timestamptz
      from notification_rules r
      where r.id = n.rule_id and n.escalate_at is not null and n.escalate_at <= ${at}::timestamptz and not ${ACKNOWLEDGED}
      returning n.id, n.tenant_id, r.escalation_channel_ids)
    insert into notification_deliveries (tenant_id, notification_id, channel_id, escalation)
    select f.tenant_id, f.id, c.id, true from fired f join notification_channels c on c.id = any(f.escalation_channel_ids) and c.enabled and c.tenant_id = f.tenant_id
    returning id`));
  return inserted.length;
}

/** ms from `now` until the next escalation is due; undefined when none waits. */
export async function nextEscalationMs(db: Db, now: Date): Promise<number | undefined> {
  const [row] = rowsOf<{ at: string | Date | null }>(await db.execute(sql`select min(escalate_at) as at from notifications where escalate_at is not null`));
  return row?.at == null ? undefined : Math.max(0, new Date(row.at).getTime() - now.getTime());
}
