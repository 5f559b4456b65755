/**
 * Claiming due notification deliveries (worker.ts): pending rows due now, oldest first, FOR UPDATE
 * SKIP LOCKED; a claim is a lease (next_attempt_at moves `leaseS` ahead) and counts an attempt. Each
 * comes with its notification, its device's name and its channel (secrets still sealed); a stay's
 * notification with its doors still queued or failed as of sending (docs/stays.md "Readiness").
 */
import type { Language, NotificationChannelKind, NotificationSubjectKind } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import type { EmailSettings, OpenChannel } from './providers/index.js';
import { objectCodeSql, objectNameSql } from './subjects.js';

/** A claimed delivery. */
export interface Claimed {
  id: number; tenantId: number; attempts: number; channelId: number; channelKind: NotificationChannelKind; language: Language;
  settings: { email?: EmailSettings }; sealed: string;
  kind: string; severity: string; deviceKind: NotificationSubjectKind; deviceId: number; deviceName: string; deviceCode: string; count: number;
  /** ISO 8601 UTC. */
  firstAt: string;
  /** The rule's hourly cap, when this is the first delivery over it (its message says so); else null. */
  capReached: number | null;
  /** A recipient's e-mail (its account's current address, whether verified, and its language); null: the channel's own recipients. */
  recipient: { accountId: number; email: string | null; verified: boolean; language: Language | null } | null;
  /** A stay's doors (guest x lock) whose lock user or password is not 正常 yet / failed, now; null for other objects. */
  doors: { queued: number; failed: number } | null;
}

/** SQL over a notification `n` about a stay: its doors not released, counted as queued (not 正常 yet) and failed (`*_failed`). */
const stayDoorsSql = sql`(select json_build_object(
    'failed', count(*) filter (where u.sync_state like '%\_failed' or c.sync_state like '%\_failed'),
    'queued', count(*) filter (where not (coalesce(u.sync_state, '') like '%\_failed' or coalesce(c.sync_state, '') like '%\_failed')
      and not (u.sync_state = 'normal' and c.sync_state = 'normal')))
  from stay_doors d left join lock_users u on u.id = d.lock_user_id left join credentials c on c.id = d.credential_id
  where d.stay_id = n.device_id and d.released_at is null)`;
const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

/** Claims at most `batch` due deliveries with a lease of `leaseS` s (owner connection). */
export async function claimNotificationDeliveries(db: Db, batch: number, leaseS: number): Promise<Claimed[]> {
  const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`
    with candidate as (
      select id from notification_deliveries where state = 'pending' and next_attempt_at <= now() and channel_id is not null
      order by next_attempt_at, id limit ${batch} for update skip locked)
    update notification_deliveries d set next_attempt_at = now() + make_interval(secs => ${leaseS}), attempts = d.attempts + 1
    from candidate, notifications n, notification_channels c
    where d.id = candidate.id and n.id = d.notification_id and c.id = d.channel_id
    returning d.id, d.tenant_id, d.attempts, c.id as channel_id, c.kind as channel_kind, c.language, c.settings, c.sealed,
      n.kind, n.severity, n.device_kind, n.device_id, n.count, n.first_at, d.cap_reached,
      case when d.cap_reached then (select r.hourly_cap from notification_rules r where r.id = n.rule_id) end as hourly_cap,
      ${objectNameSql} as device_name, ${objectCodeSql} as device_code,
      case when n.device_kind = 'stay' then ${stayDoorsSql} end as stay_doors,
      (select json_build_object('accountId', a.id, 'email', a.email, 'verified', a.email_verified_at is not null, 'language', a.language)
        from accounts a where a.id = d.account_id) as recipient`));
  return rows.map((row) => ({
    id: Number(row.id), tenantId: Number(row.tenant_id), attempts: Number(row.attempts), channelId: Number(row.channel_id),
    channelKind: row.channel_kind as NotificationChannelKind, language: row.language as Language,
    settings: json(row.settings) as Claimed['settings'], sealed: String(row.sealed),
    kind: String(row.kind), severity: String(row.severity), deviceKind: row.device_kind as Claimed['deviceKind'], deviceId: Number(row.device_id),
    deviceName: String(row.device_name ?? ''), deviceCode: String(row.device_code ?? ''), count: Number(row.count), firstAt: new Date(row.first_at as string).toISOString(),
    capReached: row.cap_reached === true && row.hourly_cap != null ? Number(row.hourly_cap) : null,
    recipient: row.recipient == null ? null : (json(row.recipient) as Claimed['recipient']),
    doors: row.stay_doors == null ? null : (({ queued, failed }) => ({ queued: Number(queued), failed: Number(failed) }))(json(row.stay_doors) as Record<string, unknown>),
  }));
}

/** The claimed delivery's channel, opened for sending. */
export function channelOf(claimed: Claimed, box: SecretBox): OpenChannel {
  return {
    id: claimed.channelId, tenantId: claimed.tenantId, kind: claimed.channelKind, language: claimed.language,
    ...(JSON.parse(box.open(claimed.sealed)) as { url?: string; secret?: string; password?: string }),
    ...(claimed.settings.email ? { email: claimed.settings.email } : {}),
  };
}
