/**
 * Escalation of notifications (docs/notifications.md "Escalation"): a notification whose
 * rule has `escalate_after_min` is due at `escalate_at`; if its alert is still unacknowledged then, one
 * pending delivery per enabled escalation channel of the rule is written (`escalation`), the rule's
 * escalation accounts and role holders get it in their inbox and by e-mail (recipients.ts), and the
 * notification is marked escalated; an acknowledged alert (or a deleted rule) only ends the wait.
 * Runs on the owner connection across data centres (the job), in one transaction: an instance racing
 * another re-checks `escalate_at` under the row lock, so each escalates once.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { deliverToInbox } from './inbox.js';
import { escalateToRecipients } from './recipients.js';

/** The notification's alert (of any device kind: one table) is acknowledged. */
const ACKNOWLEDGED = sql`exists (select 1 from alerts a where a.id = n.alert_id and a.acknowledged_at is not null)`;

/** Escalates the notifications due at `now` (the job's clock); returns how many deliveries became due. */
export async function escalateDue(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      update notifications n set escalate_at = null
      where n.escalate_at is not null and n.escalate_at <= ${at}::timestamptz and (n.rule_id is null or ${ACKNOWLEDGED})`);
    const fired = rowsOf<Record<string, unknown>>(await tx.execute(sql`
      with fired as (
        update notifications n set escalate_at = null, escalated_at = ${at}::timestamptz
        from notification_rules r
        where r.id = n.rule_id and n.escalate_at is not null and n.escalate_at <= ${at}::timestamptz and not ${ACKNOWLEDGED}
        returning n.id, n.tenant_id, r.escalation_channel_ids, r.escalation_account_ids, r.escalation_role_ids),
      inserted as (
        insert into notification_deliveries (tenant_id, notification_id, channel_id, escalation)
        select f.tenant_id, f.id, c.id, true from fired f join notification_channels c on c.id = any(f.escalation_channel_ids) and c.enabled and c.tenant_id = f.tenant_id
        returning id)
      select f.id, f.tenant_id, f.escalation_account_ids, f.escalation_role_ids, (select count(*) from inserted) as channel_deliveries from fired f`));
    let due = Number(fired[0]?.channel_deliveries ?? 0);
    for (const row of fired) {
      const tenantId = Number(row.tenant_id);
      const id = Number(row.id);
      const ids = (value: unknown) => (value as (number | string)[]).map(Number);
      due += await escalateToRecipients(tx, tenantId, id, ids(row.escalation_account_ids), ids(row.escalation_role_ids),
        (accountIds) => deliverToInbox(tx, tenantId, [id], accountIds));
    }
    return due;
  });
}

/** ms from `now` until the next escalation is due; undefined when none waits. */
export async function nextEscalationMs(db: Db, now: Date): Promise<number | undefined> {
  const [row] = rowsOf<{ at: string | Date | null }>(await db.execute(sql`select min(escalate_at) as at from notifications where escalate_at is not null`));
  return row?.at == null ? undefined : Math.max(0, new Date(row.at).getTime() - now.getTime());
}
