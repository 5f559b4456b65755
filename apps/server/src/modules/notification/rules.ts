/**
 * Notification rules of a data centre: what, where, which channels and recipients (accounts,
 * roles), escalation, quiet hours and an hourly cap. In the caller's tenant transaction (row-level
 * security); a channel, account or role id the data centre does not have is a 400 on its field.
 */
import type { NotificationRuleBody, NotificationRuleRecord } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { checkRecipients } from './recipients.js';

type Row = Record<string, unknown>;
const numbers = (value: unknown) => (value as (number | string)[]).map(Number);

function toRecord(row: Row): NotificationRuleRecord {
  return {
    id: Number(row.id), name: String(row.name), enabled: Boolean(row.enabled), kinds: row.kinds as string[], minSeverity: row.min_severity as NotificationRuleRecord['minSeverity'],
    buildings: row.buildings as string[], groupIds: (row.group_ids as number[]).map(Number), deviceTypes: row.device_types as string[],
    channelIds: (row.channel_ids as (number | string)[]).map(Number), stormWindowS: Number(row.storm_window_s),
    escalateAfterMin: Number(row.escalate_after_min), escalationChannelIds: (row.escalation_channel_ids as (number | string)[]).map(Number),
    recipientAccountIds: numbers(row.recipient_account_ids), recipientRoleIds: numbers(row.recipient_role_ids),
    escalationAccountIds: numbers(row.escalation_account_ids), escalationRoleIds: numbers(row.escalation_role_ids),
    quietHours: row.quiet_start && row.quiet_end ? { start: String(row.quiet_start), end: String(row.quiet_end) } : null, hourlyCap: Number(row.hourly_cap),
    openWorkOrder: (row.open_work_order as NotificationRuleRecord['openWorkOrder']) ?? null, updatedAt: iso(row.updated_at as string),
  };
}

/** The data centre's rules, newest first (`onlyId`: that one). */
export async function listRules(tx: Tx, onlyId?: number): Promise<NotificationRuleRecord[]> {
  return rowsOf<Row>(await tx.execute(sql`
    select * from notification_rules where (${onlyId ?? null}::bigint is null or id = ${onlyId ?? null}) order by id desc`)).map(toRecord);
}

/**
 * Creates (no id) or updates a rule; 404 for an unknown id, 400 on channelIds for a channel the data
 * centre lacks, on recipientAccountIds / escalationAccountIds for an account not of it, on
 * recipientRoleIds / escalationRoleIds for a role not of it.
 */
export async function saveRule(tx: Tx, tenantId: number, body: NotificationRuleBody): Promise<NotificationRuleRecord> {
  const channelIds = [...new Set(body.channelIds)];
  const escalationIds = [...new Set(body.escalationChannelIds)];
  for (const [field, ids] of [['body.channelIds', channelIds], ['body.escalationChannelIds', escalationIds]] as const) {
    const found = rowsOf<Row>(await tx.execute(sql`select id from notification_channels where id = any(${sql.param(ids)}::bigint[])`));
    if (found.length !== ids.length) throw fieldError(field, '通知渠道不存在', 'A notification channel does not exist');
  }
  const recipients = await checkRecipients(tx, tenantId, body);
  const quiet = { start: body.quietHours?.start ?? null, end: body.quietHours?.end ?? null };
  const values = {
    kinds: sql`${sql.param([...body.kinds])}::text[]`, buildings: sql`${sql.param([...body.buildings])}::text[]`,
    groupIds: sql`${sql.param([...body.groupIds])}::integer[]`, deviceTypes: sql`${sql.param([...body.deviceTypes])}::text[]`, channelIds: sql`${sql.param(channelIds)}::bigint[]`,
    escalationIds: sql`${sql.param(escalationIds)}::bigint[]`,
    ...Object.fromEntries(Object.entries(recipients).map(([key, list]) => [key, sql`${sql.param(list)}::integer[]`])) as Record<keyof typeof recipients, ReturnType<typeof sql>>,
  };
  let id = body.id;
  if (id === undefined) {
    const [row] = rowsOf<Row>(await tx.execute(sql`
      insert into notification_rules (tenant_id, name, enabled, kinds, min_severity, buildings, group_ids, device_types, channel_ids, storm_window_s,
        escalate_after_min, escalation_channel_ids, quiet_start, quiet_end, hourly_cap, open_work_order,
        recipient_account_ids, recipient_role_ids, escalation_account_ids, escalation_role_ids)
      values (${tenantId}, ${body.name}, ${body.enabled}, ${values.kinds}, ${body.minSeverity}, ${values.buildings}, ${values.groupIds}, ${values.deviceTypes},
        ${values.channelIds}, ${body.stormWindowS}, ${body.escalateAfterMin}, ${values.escalationIds}, ${quiet.start}, ${quiet.end}, ${body.hourlyCap}, ${body.openWorkOrder},
        ${values.recipientAccountIds}, ${values.recipientRoleIds}, ${values.escalationAccountIds}, ${values.escalationRoleIds})
      returning id`));
    id = Number(row?.id);
  } else {
    const updated = rowsOf(await tx.execute(sql`
      update notification_rules set name = ${body.name}, enabled = ${body.enabled}, kinds = ${values.kinds}, min_severity = ${body.minSeverity},
        buildings = ${values.buildings}, group_ids = ${values.groupIds}, device_types = ${values.deviceTypes}, channel_ids = ${values.channelIds},
        storm_window_s = ${body.stormWindowS}, escalate_after_min = ${body.escalateAfterMin}, escalation_channel_ids = ${values.escalationIds},
        quiet_start = ${quiet.start}, quiet_end = ${quiet.end}, hourly_cap = ${body.hourlyCap}, open_work_order = ${body.openWorkOrder},
        recipient_account_ids = ${values.recipientAccountIds}, recipient_role_ids = ${values.recipientRoleIds},
        escalation_account_ids = ${values.escalationAccountIds}, escalation_role_ids = ${values.escalationRoleIds}, updated_at = now()
      where id = ${id} returning id`));
    if (updated.length === 0) throw new ApiError('NOT_FOUND');
  }
  const [record] = await listRules(tx, id);
  return record as NotificationRuleRecord;
}

/** Deletes rule `id` (its notifications stay, without the rule); false when the data centre has none such. */
export async function deleteRule(tx: Tx, id: number): Promise<boolean> {
  return rowsOf(await tx.execute(sql`delete from notification_rules where id = ${id} returning id`)).length > 0;
}
