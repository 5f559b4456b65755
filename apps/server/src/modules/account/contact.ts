/**
 * An account's own contact details (contract api/accountContact.ts): e-mail address,
 * mobile number, language, and the verification of the address by a 6-digit code e-mailed through
 * the data centre's sender (notification/mailer.ts). The code is stored as an scrypt hash with its
 * salt, lives EMAIL_CODE_TTL_MS and allows EMAIL_CODE_ATTEMPTS wrong tries; it never reaches a log.
 * Reads and writes run in the caller's tenant transaction, on the caller's own row only.
 */
import { randomBytes, randomInt, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import { type AccountContactBody, type AccountContactRecord, EMAIL_CODE_ATTEMPTS, EMAIL_CODE_TTL_MS, type Language } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { openEmailSender, sendMailTo } from '../notification/mailer.js';
import type { EgressPolicy } from '../subscription/egress.js';

type Row = Record<string, unknown>;
type InTenant = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

const hashCode = (code: string, salt: Buffer) => scryptSync(code, salt, 32);
const time = (value: unknown) => (value == null ? null : iso(value as string));

async function rowOf(tx: Tx, accountId: number, lock = false): Promise<Row> {
  const [row] = rowsOf<Row>(await tx.execute(sql`
    select email, email_verified_at, mobile, language, email_code_hash, email_code_expires_at, email_code_attempts,
      email_code_expires_at > now() as code_live
    from accounts where id = ${accountId} ${lock ? sql`for update` : sql``}`));
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

const recordOf = (row: Row): AccountContactRecord => ({
  email: (row.email as string | null) ?? null, emailVerifiedAt: time(row.email_verified_at), mobile: (row.mobile as string | null) ?? null,
  language: (row.language as Language | null) ?? null, codeExpiresAt: row.email_code_hash && row.code_live ? time(row.email_code_expires_at) : null,
});

/** The caller's contact details. */
export async function getContact(tx: Tx, accountId: number): Promise<AccountContactRecord> {
  return recordOf(await rowOf(tx, accountId));
}

/** Saves the caller's contact details; a changed address (compared case-insensitively) loses its verification and pending code. */
export async function saveContact(tx: Tx, accountId: number, body: AccountContactBody): Promise<AccountContactRecord> {
  const before = await rowOf(tx, accountId, true);
  const email = body.email?.trim() || null;
  const changed = (email ?? '').toLowerCase() !== String(before.email ?? '').toLowerCase();
  await tx.execute(sql`
    update accounts set email = ${email}, mobile = ${body.mobile}, language = ${body.language}, updated_at = now()
      ${changed ? sql`, email_verified_at = null, email_code_hash = null, email_code_expires_at = null, email_code_attempts = 0` : sql``}
    where id = ${accountId}`);
  return recordOf(await rowOf(tx, accountId));
}

/** The verification mail in `language`. */
function codeMessage(language: Language, code: string) {
  const zh = language === 'zh-CN';
  const minutes = EMAIL_CODE_TTL_MS / 60_000;
  return {
    id: randomUUID(), type: 'account.emailCode', occurredAt: new Date().toISOString(),
    title: zh ? `物联网中台邮箱验证码：${code}` : `IoT platform e-mail verification code: ${code}`,
    text: zh ? `您的邮箱验证码是 ${code}，${minutes} 分钟内有效。如非本人操作，请忽略本邮件。`
      : `Your e-mail verification code is ${code}; it is valid for ${minutes} minutes. If you did not ask for it, ignore this mail.`,
  };
}

/**
 * Draws a new code for the caller's address (replacing a pending one), stores its hash, then e-mails
 * it outside the transaction. 400 on body.email without an address, or when the data centre has no
 * enabled e-mail channel to send it through.
 */
export async function sendEmailCode(inTenant: InTenant, accountId: number, box: SecretBox, policy: EgressPolicy) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16);
  const prepared = await inTenant(async (tx) => {
    const row = await rowOf(tx, accountId, true);
    if (!row.email) throw fieldError('body.email', '请先填写邮箱地址', 'Set an e-mail address first');
    const sender = await openEmailSender(tx, box);
    if (!sender) throw fieldError('body.email', '本数据中心没有启用的邮件通知渠道，无法发送验证码', 'This data centre has no enabled e-mail channel to send the code through');
    const [saved] = rowsOf<Row>(await tx.execute(sql`
      update accounts set email_code_hash = ${`${salt.toString('hex')}:${hashCode(code, salt).toString('hex')}`},
        email_code_expires_at = now() + make_interval(secs => ${EMAIL_CODE_TTL_MS / 1000}), email_code_attempts = 0
      where id = ${accountId} returning email_code_expires_at`));
    return { sender, email: String(row.email), language: (row.language as Language | null) ?? sender.language, expiresAt: time(saved?.email_code_expires_at) };
  });
  const result = await sendMailTo(prepared.sender, prepared.email, codeMessage(prepared.language, code), policy);
  return { sent: result.sent, error: result.sent ? null : (result.error ?? 'not accepted'), codeExpiresAt: prepared.expiresAt };
}

/**
 * Checks `code` against the caller's pending code. Right: the address is verified. Wrong: the attempt
 * counts (committed), and the code is spent at EMAIL_CODE_ATTEMPTS. Answers the outcome; verifyEmail throws the 400.
 */
async function checkCode(tx: Tx, accountId: number, code: string): Promise<'ok' | 'none' | 'expired' | 'spent' | number> {
  const row = await rowOf(tx, accountId, true);
  const stored = row.email_code_hash as string | null;
  if (!stored || !row.email) return 'none';
  const clear = sql`email_code_hash = null, email_code_expires_at = null, email_code_attempts = 0`;
  if (!row.code_live) {
    await tx.execute(sql`update accounts set ${clear} where id = ${accountId}`);
    return 'expired';
  }
  const [salt, hash] = stored.split(':').map((part) => Buffer.from(part, 'hex')) as [Buffer, Buffer];
  if (timingSafeEqual(hashCode(code, salt), hash)) {
    await tx.execute(sql`update accounts set email_verified_at = now(), ${clear} where id = ${accountId}`);
    return 'ok';
  }
  const attempts = Number(row.email_code_attempts) + 1;
  if (attempts >= EMAIL_CODE_ATTEMPTS) {
    await tx.execute(sql`update accounts set ${clear} where id = ${accountId}`);
    return 'spent';
  }
  await tx.execute(sql`update accounts set email_code_attempts = ${attempts} where id = ${accountId}`);
  return EMAIL_CODE_ATTEMPTS - attempts;
}

/** Verifies the caller's address with `code`; 400 on body.code when there is no code, or it is wrong, expired or spent. */
export async function verifyEmail(inTenant: InTenant, accountId: number, code: string): Promise<AccountContactRecord> {
  const outcome = await inTenant((tx) => checkCode(tx, accountId, code));
  if (outcome === 'none') throw fieldError('body.code', '没有待验证的验证码，请先发送验证码', 'No code is waiting: send one first');
  if (outcome === 'expired') throw fieldError('body.code', '验证码已过期，请重新发送', 'The code has expired: send a new one');
  if (outcome === 'spent') throw fieldError('body.code', '验证码错误次数过多，请重新发送', 'Too many wrong codes: send a new one');
  if (typeof outcome === 'number') throw fieldError('body.code', `验证码错误，还可尝试 ${outcome} 次`, `Wrong code: ${outcome} tries left`);
  return inTenant((tx) => getContact(tx, accountId));
}
