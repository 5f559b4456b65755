/**
 * Notification rules of a data centre (issue #25): what, where and which channels. In the caller's
 * tenant transaction (row-level security); a channel id the data centre does not have is a 400.
 */
import type { NotificationRuleBody, NotificationRuleRecord } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { ApiError, fieldError } from '../../http/api-error.js';

type Row = Record<string, unknown>;

function toRecord(row: Row): NotificationRuleRecord {
  return {
    id: Number(row.id), name: String(row.name), enabled: Boolean(row.enabled), kinds: row.kinds as string[], minSeverity: row.min_severity as NotificationRuleRecord['minSeverity'],
    buildings: row.buildings as string[], groupIds: (row.group_ids as number[]).map(Number), deviceTypes: row.device_types as string[],
    channelIds: (row.channel_ids as (number | string)[]).map(Number), stormWindowS: Number(row.storm_window_s), updatedAt: iso(row.updated_at as string),
  };
}

/** The data centre's rules, newest first (`onlyId`: that one). */
export async function listRules(tx: Tx, onlyId?: number): Promise<NotificationRuleRecord[]> {
  return rowsOf<Row>(await tx.execute(sql`
    select * from notification_rules where (${onlyId ?? null}::bigint is null or id = ${onlyId ?? null}) order by id desc`)).map(toRecord);
}

/** Creates (no id) or updates a rule; 404 for an unknown id, 400 on channelIds for a channel the data centre lacks. */
export async function saveRule(tx: Tx, tenantId: number, body: NotificationRuleBody): Promise<NotificationRuleRecord> {
  const channelIds = [...new Set(body.channelIds)];
  const found = rowsOf<Row>(await tx.execute(sql`select id from notification_channels where id = any(${sql.param(channelIds)}::bigint[])`));
  if (found.length !== channelIds.length) throw fieldError('body.channelIds', '通知渠道不存在', 'A notification channel does not exist');
  const values = {
    kinds: sql`${sql.param([...body.kinds])}::text[]`, buildings: sql`${sql.param([...body.buildings])}::text[]`,
    groupIds: sql`${sql.param([...body.groupIds])}::integer[]`, deviceTypes: sql`${sql.param([...body.deviceTypes])}::text[]`, channelIds: sql`${sql.param(channelIds)}::bigint[]`,
  };
  let id = body.id;
  if (id === undefined) {
    const [row] = rowsOf<Row>(await tx.execute(sql`
      insert into notification_rules (tenant_id, name, enabled, kinds, min_severity, buildings, group_ids, device_types, channel_ids, storm_window_s)
      values (${tenantId}, ${body.name}, ${body.enabled}, ${values.kinds}, ${body.minSeverity}, ${values.buildings}, ${values.groupIds}, ${values.deviceTypes},
        ${values.channelIds}, ${body.stormWindowS})
      returning id`));
    id = Number(row?.id);
  } else {
    const updated = rowsOf(await tx.execute(sql`
      update notification_rules set name = ${body.name}, enabled = ${body.enabled}, kinds = ${values.kinds}, min_severity = ${body.minSeverity},
        buildings = ${values.buildings}, group_ids = ${values.groupIds}, device_types = ${values.deviceTypes}, channel_ids = ${values.channelIds},
        storm_window_s = ${body.stormWindowS}, updated_at = now()
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
