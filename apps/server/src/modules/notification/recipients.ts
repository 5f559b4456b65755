/**
 * Explicit recipients of a rule (docs/notifications.md "Recipients"): accounts of the
 * data centre and holders of its roles. Besides the default inbox recipients (inbox.ts recipientsOf),
 * they get the notification in their inbox and an e-mail through the data centre's sender (the first
 * enabled e-mail channel, mailer.ts) when their address is verified; an unverified address is logged
 * `suppressed` ("e-mail not verified"), no sender `suppressed` ("no e-mail channel"). Every query names
 * the data centre, so these also run on the owner connection (escalate.ts).
 */
import type { NotificationRuleBody } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { fieldError } from '../../http/api-error.js';

type Row = Record<string, unknown>;

/** A recipient account: its address and whether it is verified. */
export interface Recipient { id: number; email: string | null; verified: boolean }
/** A delivery: a recipient's e-mail (`accountId`; a channel's own recipients: null) through `channelId` (the sender) when `reason` is null, else logged suppressed with it. */
export interface MailTarget { accountId: number | null; channelId: number | null; reason: string | null }

/** SQL: an account `a` may work in data centre `tenantId` (administrators everywhere). */
const memberOf = (tenantId: number) => sql`(a.type = 0 or exists (select 1 from account_tenants m where m.account_id = a.id and m.tenant_id = ${tenantId}))`;

/** The rule body's recipient lists, deduplicated; 400 on the field naming an account or a role the data centre does not have. */
export async function checkRecipients(tx: Tx, tenantId: number, body: NotificationRuleBody) {
  const lists = {
    recipientAccountIds: [...new Set(body.recipientAccountIds)], recipientRoleIds: [...new Set(body.recipientRoleIds)],
    escalationAccountIds: [...new Set(body.escalationAccountIds)], escalationRoleIds: [...new Set(body.escalationRoleIds)],
  };
  for (const field of ['recipientAccountIds', 'escalationAccountIds'] as const) {
    const found = rowsOf(await tx.execute(sql`select a.id from accounts a where a.id = any(${sql.param(lists[field])}::int[]) and ${memberOf(tenantId)}`));
    if (found.length !== lists[field].length) throw fieldError(`body.${field}`, '账号不存在或不属于本数据中心', 'An account does not exist or is not of this data centre');
  }
  for (const field of ['recipientRoleIds', 'escalationRoleIds'] as const) {
    const found = rowsOf(await tx.execute(sql`select id from roles where id = any(${sql.param(lists[field])}::int[]) and tenant_id = ${tenantId}`));
    if (found.length !== lists[field].length) throw fieldError(`body.${field}`, '角色不存在或不属于本数据中心', 'A role does not exist or is not of this data centre');
  }
  return lists;
}

/** The accounts and roles a rule of data centre `tenantId` may name (enabled accounts only). */
export async function listRecipientChoices(tx: Tx, tenantId: number) {
  const accounts = rowsOf<Row>(await tx.execute(sql`
    select a.id, a.username, a.email, a.email_verified_at is not null as verified from accounts a where a.enabled and ${memberOf(tenantId)} order by a.username`));
  const roles = rowsOf<Row>(await tx.execute(sql`select id, name from roles where tenant_id = ${tenantId} order by name`));
  return {
    accounts: accounts.map((row) => ({ id: Number(row.id), username: String(row.username), email: (row.email as string | null) ?? null, emailVerified: Boolean(row.verified) })),
    roles: roles.map((row) => ({ id: Number(row.id), name: String(row.name) })),
  };
}

/** Enabled accounts of data centre `tenantId` named in `accountIds` or holding one of `roleIds` there, by id. */
export async function recipientAccounts(tx: Tx, tenantId: number, accountIds: readonly number[], roleIds: readonly number[]): Promise<Recipient[]> {
  if (accountIds.length + roleIds.length === 0) return [];
  const rows = rowsOf<Row>(await tx.execute(sql`
    select a.id, a.email, a.email_verified_at is not null as verified from accounts a
    where a.enabled and ${memberOf(tenantId)} and (a.id = any(${sql.param([...accountIds])}::int[]) or exists (
      select 1 from account_roles ar where ar.account_id = a.id and ar.tenant_id = ${tenantId} and ar.role_id = any(${sql.param([...roleIds])}::int[])))
    order by a.id`));
  return rows.map((row) => ({ id: Number(row.id), email: (row.email as string | null) ?? null, verified: Boolean(row.verified) }));
}

/** The id of data centre `tenantId`'s e-mail sender (its first enabled e-mail channel); null: none. */
export async function senderOf(tx: Tx, tenantId: number): Promise<number | null> {
  const [row] = rowsOf<Row>(await tx.execute(sql`select min(id) as id from notification_channels where tenant_id = ${tenantId} and kind = 'email' and enabled`));
  return row?.id == null ? null : Number(row.id);
}

/** The e-mail deliveries of `recipients` with an address, through `senderId`. */
export function mailTargets(recipients: readonly Recipient[], senderId: number | null): MailTarget[] {
  return recipients.filter((r) => r.email).map((r) => ({
    accountId: r.id, channelId: senderId, reason: !r.verified ? 'e-mail not verified' : senderId === null ? 'no e-mail channel' : null,
  }));
}

/** The explicit recipients (accounts, e-mail deliveries) of the rules naming any, by rule id. */
export async function explicitRecipients(tx: Tx, tenantId: number, rules: readonly Row[]): Promise<Map<number, { accountIds: number[]; mail: MailTarget[] }>> {
  const named = new Map(rules.filter((r) => (r.recipient_account_ids as number[]).length + (r.recipient_role_ids as number[]).length > 0).map((r) => [Number(r.id), r]));
  const found = new Map<number, { accountIds: number[]; mail: MailTarget[] }>();
  if (named.size === 0) return found;
  const sender = await senderOf(tx, tenantId);
  for (const [id, rule] of named) {
    const recipients = await recipientAccounts(tx, tenantId, (rule.recipient_account_ids as number[]).map(Number), (rule.recipient_role_ids as number[]).map(Number));
    found.set(id, { accountIds: recipients.map((r) => r.id), mail: mailTargets(recipients, sender) });
  }
  return found;
}

/**
 * Escalates notification `notificationId` to `accountIds` / holders of `roleIds`: the inbox of those
 * who do not have it yet, and one e-mail delivery each (marked escalation). Returns the deliveries due.
 */
export async function escalateToRecipients(tx: Tx, tenantId: number, notificationId: number, accountIds: readonly number[], roleIds: readonly number[],
  deliver: (accountIds: number[]) => Promise<unknown>): Promise<number> {
  const recipients = await recipientAccounts(tx, tenantId, accountIds, roleIds);
  if (recipients.length === 0) return 0;
  const holding = new Set(rowsOf<Row>(await tx.execute(sql`select account_id from notification_inbox where notification_id = ${notificationId}`)).map((row) => Number(row.account_id)));
  await deliver(recipients.map((r) => r.id).filter((id) => !holding.has(id)));
  const targets = mailTargets(recipients, await senderOf(tx, tenantId));
  if (targets.length === 0) return 0;
  const p = <V>(pick: (t: MailTarget) => V) => sql.param(targets.map(pick));
  await tx.execute(sql`
    insert into notification_deliveries (tenant_id, notification_id, channel_id, account_id, state, last_error, escalation)
    select ${tenantId}, ${notificationId}, v.channel_id, v.account_id, case when v.reason is null then 'pending' else 'suppressed' end, v.reason, true
    from unnest(${p((t) => t.channelId)}::bigint[], ${p((t) => t.accountId)}::int[], ${p((t) => t.reason)}::text[]) as v(channel_id, account_id, reason)`);
  return targets.filter((t) => t.reason === null).length;
}
