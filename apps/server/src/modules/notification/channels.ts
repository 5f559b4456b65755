/**
 * Notification channels of a data centre: stored with their secrets sealed (one SecretBox
 * value per channel), listed masked, refused when the egress policy would refuse their endpoint (a
 * private or loopback address, plain http to a public host, credentials in a URL). Every function runs
 * in the caller's tenant transaction (row-level security).
 */
import type { Language, NotificationChannelCreateBody, NotificationChannelKind, NotificationChannelRecord, NotificationChannelUpdateBody } from '@iot/contract';
import { sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { addressRefusal, type EgressPolicy, urlRefusal } from '../subscription/egress.js';
import type { EmailSettings, OpenChannel } from './providers/index.js';

type Row = Record<string, unknown>;
interface Sealed { url?: string; secret?: string; password?: string }
interface Settings { url?: string; email?: EmailSettings }

/** `••••` + the last 4 characters. */
const hint = (value: string) => `••••${value.slice(-4)}`;

/** The URL with every query value masked to its last 4 characters (robot tokens live there). */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    for (const [key, value] of [...parsed.searchParams]) parsed.searchParams.set(key, hint(value));
    return decodeURI(parsed.toString());
  } catch {
    return '••••';
  }
}

/** Refuses (400 on the field) an endpoint the egress policy would not reach. */
function checkEgress(body: { kind: NotificationChannelKind; url?: string; host?: string }, policy: EgressPolicy): void {
  if (body.url !== undefined) {
    const refusal = urlRefusal(body.url, policy);
    if (refusal) throw fieldError('body.url', `通知地址不可用：${refusal}`, `The channel URL is refused: ${refusal}`);
  }
  if (body.host !== undefined) {
    const host = body.host.replace(/^\[|\]$/g, '');
    const literal = host === 'localhost' ? '127.0.0.1' : ipaddr.isValid(host) ? host : null;
    const refusal = literal ? addressRefusal(literal, policy) : null;
    if (refusal) throw fieldError('body.host', `SMTP 服务器不可用：${refusal}`, `The SMTP host is refused: ${refusal}`);
  }
}

const RECORD_COLUMNS = sql`id, kind, name, enabled, language, settings, secret_hint, last_test_at, last_test_sent, last_test_error, created_at, updated_at`;

function toRecord(row: Row): NotificationChannelRecord {
  const settings = (typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings) as Settings;
  return {
    id: Number(row.id), kind: row.kind as NotificationChannelKind, name: String(row.name), enabled: Boolean(row.enabled), language: row.language as Language,
    url: settings.url ?? null, secretHint: row.secret_hint ? `••••${row.secret_hint}` : null, email: settings.email ?? null,
    lastTest: row.last_test_at == null ? null : { at: iso(row.last_test_at as string), sent: Boolean(row.last_test_sent), error: (row.last_test_error as string | null) ?? null },
    createdAt: iso(row.created_at as string), updatedAt: iso(row.updated_at as string),
  };
}

/** The data centre's channels, newest first. */
export async function listChannels(tx: Tx): Promise<NotificationChannelRecord[]> {
  return rowsOf<Row>(await tx.execute(sql`select ${RECORD_COLUMNS} from notification_channels order by id desc`)).map(toRecord);
}

/** What is stored of a body: the secrets to seal, the settings to show, the hint. */
function split(body: NotificationChannelCreateBody | NotificationChannelUpdateBody, previous: Sealed): { sealed: Sealed; settings: Settings; secretHint: string } {
  if (body.kind === 'email') {
    const { host, port, secure, username, from, to } = body;
    const password = body.password ?? previous.password;
    return { sealed: password ? { password } : {}, settings: { email: { host, port, secure, username, from, to } }, secretHint: password ? password.slice(-4) : '' };
  }
  const url = body.url ?? previous.url;
  const secret = body.secret ?? previous.secret;
  if (!secret) throw fieldError('body.secret', '请填写密钥', 'The secret is required');
  if (!url && body.kind !== 'wecom') throw fieldError('body.url', '请填写地址', 'The URL is required');
  return { sealed: { url, secret }, settings: url ? { url: maskUrl(url) } : {}, secretHint: secret.slice(-4) };
}

async function recordOf(tx: Tx, id: number): Promise<NotificationChannelRecord> {
  const [row] = rowsOf<Row>(await tx.execute(sql`select ${RECORD_COLUMNS} from notification_channels where id = ${id}`));
  if (!row) throw new ApiError('NOT_FOUND');
  return toRecord(row);
}

/** Creates a channel; 400 on `body.url` / `body.host` when the egress policy refuses it. */
export async function createChannel(tx: Tx, tenantId: number, body: NotificationChannelCreateBody, box: SecretBox, policy: EgressPolicy): Promise<NotificationChannelRecord> {
  checkEgress(body, policy);
  const { sealed, settings, secretHint } = split(body, {});
  const [row] = rowsOf<Row>(await tx.execute(sql`
    insert into notification_channels (tenant_id, kind, name, enabled, language, settings, sealed, secret_hint)
    values (${tenantId}, ${body.kind}, ${body.name}, ${body.enabled}, ${body.language}, ${JSON.stringify(settings)}::jsonb, ${box.seal(JSON.stringify(sealed))}, ${secretHint})
    returning id`));
  return recordOf(tx, Number(row?.id));
}

/** Updates channel `body.id` (404 when the data centre has none such; 400 when its kind would change); secrets left out are kept. */
export async function updateChannel(tx: Tx, body: NotificationChannelUpdateBody, box: SecretBox, policy: EgressPolicy): Promise<NotificationChannelRecord> {
  checkEgress(body, policy);
  const [row] = rowsOf<Row>(await tx.execute(sql`select kind, sealed from notification_channels where id = ${body.id} for update`));
  if (!row) throw new ApiError('NOT_FOUND');
  if (row.kind !== body.kind) throw fieldError('body.kind', '渠道类型不可修改', 'A channel keeps its kind');
  const { sealed, settings, secretHint } = split(body, JSON.parse(box.open(String(row.sealed))) as Sealed);
  await tx.execute(sql`
    update notification_channels set name = ${body.name}, enabled = ${body.enabled}, language = ${body.language}, settings = ${JSON.stringify(settings)}::jsonb,
      sealed = ${box.seal(JSON.stringify(sealed))}, secret_hint = ${secretHint}, updated_at = now()
    where id = ${body.id}`);
  return recordOf(tx, body.id);
}

/** Deletes channel `id`; false when the data centre has none such. */
export async function deleteChannel(tx: Tx, id: number): Promise<boolean> {
  return rowsOf(await tx.execute(sql`delete from notification_channels where id = ${id} returning id`)).length > 0;
}

/** Channel `id` with its secrets opened for sending; 404 when the data centre has none such. */
export async function openChannel(tx: Tx, id: number, box: SecretBox): Promise<OpenChannel & { name: string }> {
  const [row] = rowsOf<Row>(await tx.execute(sql`select id, tenant_id, kind, name, language, settings, sealed from notification_channels where id = ${id}`));
  if (!row) throw new ApiError('NOT_FOUND');
  const settings = (typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings) as Settings;
  const sealed = JSON.parse(box.open(String(row.sealed))) as Sealed;
  return {
    id: Number(row.id), tenantId: Number(row.tenant_id), kind: row.kind as NotificationChannelKind, language: row.language as Language, name: String(row.name),
    ...sealed, ...(settings.email ? { email: settings.email } : {}),
  };
}

/** Records the outcome of a test message on channel `id`. */
export async function recordTest(tx: Tx, id: number, sent: boolean, error: string | null): Promise<void> {
  await tx.execute(sql`update notification_channels set last_test_at = now(), last_test_sent = ${sent}, last_test_error = ${error} where id = ${id}`);
}
